/**
 * Health answers for operators and orchestrators (a container HEALTHCHECK, a load balancer):
 * `GET /healthz` says the process is alive and serving HTTP; `GET /readyz` says it can do its
 * work (the probe: store reachable, keys loaded) and is not stopping.
 *
 * Choice: both are answered before the Host/Origin checks of BrowserPolicy, so a HEALTHCHECK
 * hitting 127.0.0.1 and a probe through a published name (`parley.example:8080`) both work
 * without `--allow-host`. They disclose nothing but "alive"/"ready" and the names of failing
 * checks, carry no CORS headers (another site's page cannot read them), run no handler and take
 * no body, so DNS rebinding gains nothing from them.
 */

/** Where liveness is answered. */
export const ALIVE_PATH = '/healthz';
/** Where readiness is answered. */
export const READY_PATH = '/readyz';

/**
 * Checks whether the server can do its work: resolves with what is wrong, one short sentence
 * each (never a secret: no URL with a password, no key), or an empty list when ready.
 */
export type ReadinessProbe = () => Promise<readonly string[]>;

/** What a health path answers: a status and a JSON body. */
export interface HealthAnswer {
  status: 200 | 405 | 503;
  body: string;
  allow?: string;
}

/** How long one probe may take before the server counts as not ready. */
export const READINESS_TIMEOUT_MS = 2_000;

/** Whether `path` is one of the health paths. */
export function isHealthPath(path: string): boolean {
  return path === ALIVE_PATH || path === READY_PATH;
}

/**
 * A probe that runs `probe` at most once at a time (concurrent callers share the run, so a
 * flood of /readyz costs the store one query) and fails it after READINESS_TIMEOUT_MS.
 */
export function sharedProbe(probe: ReadinessProbe): ReadinessProbe {
  let running: Promise<readonly string[]> | undefined;
  return () => {
    running ??= new Promise<readonly string[]>((resolve) => {
      const timer = setTimeout(
        () => resolve([`the readiness checks did not finish within ${READINESS_TIMEOUT_MS} ms`]),
        READINESS_TIMEOUT_MS,
      );
      timer.unref?.();
      probe().then(
        (problems) => {
          clearTimeout(timer);
          resolve(problems);
        },
        (error: unknown) => {
          clearTimeout(timer);
          resolve([`a readiness check failed: ${error instanceof Error ? error.message : error}`]);
        },
      );
    }).finally(() => {
      running = undefined;
    });
    return running;
  };
}

/** Several probes as one: ready when all are; the problems of each, in order. */
export function allProbes(probes: readonly ReadinessProbe[]): ReadinessProbe {
  return async () => (await Promise.all(probes.map((probe) => probe()))).flat();
}

const json = (status: 200 | 405 | 503, value: unknown, allow?: string): HealthAnswer => ({
  status,
  body: `${JSON.stringify(value)}\n`,
  ...(allow === undefined ? {} : { allow }),
});

/**
 * The answer to `method path` when path is a health path, else undefined. `/healthz`: 200
 * `{"status":"alive"}`. `/readyz`: 200 `{"status":"ready"}`, or 503 `{"status":"not ready",
 * "problems":[…]}` when the probe finds problems or the server is `stopping` (so a balancer
 * sends new work elsewhere while in-flight work finishes). Methods other than GET and HEAD: 405.
 */
export async function healthAnswer(
  method: string,
  path: string,
  probe: ReadinessProbe | undefined,
  stopping: boolean,
): Promise<HealthAnswer | undefined> {
  if (!isHealthPath(path)) return undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    return json(405, { status: 'error', message: `use GET for ${path}` }, 'GET, HEAD');
  }
  if (path === ALIVE_PATH) return json(200, { status: 'alive' });
  const problems = stopping ? ['the server is stopping'] : probe === undefined ? [] : await probe();
  return problems.length === 0
    ? json(200, { status: 'ready' })
    : json(503, { status: 'not ready', problems });
}
