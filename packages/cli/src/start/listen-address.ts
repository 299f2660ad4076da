import { isIPv4 } from 'node:net';
import { CliError } from '../cli-error.js';

/** Where `parley start` listens unless told otherwise: this machine only. */
export const DEFAULT_START_HOST = '127.0.0.1';
/** The address that listens on every interface (a container publishing its ports). */
const EVERY_INTERFACE = '0.0.0.0';

/**
 * `--host ADDRESS` of `parley start`: an IPv4 address to listen on. IPv4 only, a choice: the
 * page's origin is printed as `http://HOST:PORT`, and 0.0.0.0 is what a container needs.
 */
export function parseListenHost(text: string): string {
  if (!isIPv4(text)) {
    throw new CliError(
      `--host takes an IPv4 address to listen on, such as ${EVERY_INTERFACE} or ${DEFAULT_START_HOST} (got "${text.slice(0, 100)}")`,
    );
  }
  return text;
}

/**
 * A URL a person on this machine can open or dial: one on 0.0.0.0 (every interface) is reached
 * at 127.0.0.1; any other is unchanged.
 */
export function reachableUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname !== EVERY_INTERFACE) return url;
  return url.replace(`//${EVERY_INTERFACE}`, `//${DEFAULT_START_HOST}`);
}

/** Whether `host` listens on every interface, so others reach it at addresses of their own. */
export function listensEverywhere(host: string): boolean {
  return host === EVERY_INTERFACE;
}
