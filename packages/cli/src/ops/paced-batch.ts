/**
 * How long a busy log gathers its text between two writes (ms). A quiet service's line still goes
 * out at the end of the turn that made it.
 */
export const LOG_PACE_MS = 10;

/** Where a log's text goes to be written: now, or with the text of its turn or pace. */
export type PacedBatch = {
  write(text: string): void;
  /** Writes what is pending now. */
  flush(): void;
};

/** Batches whose text is pending, flushed on exit by one listener for all of them. */
const pending = new Set<() => void>();
let exitHooked = false;

/**
 * Log text passed on in few writes. Node writes stderr to a pipe or a file synchronously on Linux,
 * one system call a write, and under load every request is a turn of the event loop of its own:
 * a write per request was the largest single cost a served ASK had beyond the required work
 * (bench/ask-http.bench.ts), and woke whatever reads the log once a request. So the text of
 * a turn is written at its end when nothing was written for `paceMs`; otherwise it is gathered
 * until `paceMs` after the last write, and a busy log makes at most one write per `paceMs`.
 * Order is kept; whatever is pending when the process exits is written first (the `exit` event,
 * which `process.exit` and an uncaught exception also raise). A process killed outright loses at
 * most `paceMs` of lines.
 */
export function pacedBatch(
  write: (text: string) => void,
  paceMs = LOG_PACE_MS,
  now: () => number = () => performance.now(),
): PacedBatch {
  let text = '';
  let lastWrite = Number.NEGATIVE_INFINITY;
  /** The flush scheduled for the pending text: at the end of its turn, or at its pace. */
  let immediate: NodeJS.Immediate | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    pending.delete(flush);
    // A flush called before its scheduled one cancels it, so that it cannot write text that came
    // after (and was meant to wait for its pace) early.
    clearImmediate(immediate);
    clearTimeout(timer);
    immediate = undefined;
    timer = undefined;
    if (text === '') return;
    const out = text;
    text = '';
    lastWrite = now();
    write(out);
  };
  return {
    write(more) {
      if (text === '') {
        pending.add(flush);
        const wait = lastWrite + paceMs - now();
        if (wait > 0) timer = setTimeout(flush, wait).unref();
        else immediate = setImmediate(flush);
        if (!exitHooked) {
          exitHooked = true;
          process.once('exit', () => {
            for (const each of [...pending]) each();
          });
        }
      }
      text += more;
    },
    flush,
  };
}
