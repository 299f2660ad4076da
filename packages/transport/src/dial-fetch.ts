import type { DialOptions } from './dial.js';
import { FetchFrameConnection } from './fetch-connection.js';
import type { FrameConnection } from './frame-connection.js';
import { TransportError } from './transport-error.js';

/**
 * §2.3, §2.4: `dial` where the only way out is `fetch` (a browser): an `http(s)://` bridge
 * endpoint becomes a FetchFrameConnection; any other URL is TransportError `bad_url`, since a
 * page cannot open TCP connections or start processes.
 */
export async function dialFetch(
  url: string,
  options: Pick<DialOptions, 'receiver' | 'headers'>,
): Promise<FrameConnection> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new TransportError('bad_url', `bad Parley URL ${JSON.stringify(url)}`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new TransportError(
      'bad_url',
      `${JSON.stringify(url)} cannot be reached from a browser: use the service's HTTP bridge (http:// or https://)`,
    );
  }
  return new FetchFrameConnection(
    { url: target, ...(options.headers === undefined ? {} : { headers: options.headers }) },
    options.receiver,
  );
}
