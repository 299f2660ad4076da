/**
 * Text written in one turn of the event loop, passed on in one write. Node writes stderr to a
 * pipe or a file synchronously on Linux, one system call a write: a log line per request cost a
 * served ASK about a sixth of its CPU with 16 requests in flight (bench/ask-http.bench.ts), and
 * the requests a turn answers are logged together instead. Order is kept; whatever is pending
 * when the process exits is written first (the `exit` event, which `process.exit` also raises).
 */
export type TickBatch = {
  write(text: string): void;
  /** Writes what is pending now. */
  flush(): void;
};

/** Batches whose text is pending, flushed on exit by one listener for all of them. */
const pending = new Set<() => void>();
let exitHooked = false;

export function tickBatch(write: (text: string) => void): TickBatch {
  let text = '';
  const flush = () => {
    pending.delete(flush);
    if (text === '') return;
    const out = text;
    text = '';
    write(out);
  };
  return {
    write(more) {
      if (text === '') {
        pending.add(flush);
        setImmediate(flush);
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
