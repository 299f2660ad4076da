const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Resolves once SIGTERM, SIGINT or SIGHUP (the terminal closed) arrives, or `stop` is called,
 * then closes every server given; a second signal while closing exits at once.
 */
export function untilStopped(
  running: readonly { close(): Promise<void> }[],
  extraStop?: (stop: () => void) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let stopping = false;
    const stop = (): void => {
      if (stopping) process.exit(130);
      stopping = true;
      Promise.all(running.map((server) => server.close())).then(() => {
        for (const signal of STOP_SIGNALS) process.off(signal, stop);
        resolve();
      }, reject);
    };
    for (const signal of STOP_SIGNALS) process.on(signal, stop);
    extraStop?.(stop);
  });
}
