import { type HostPort, parseHostPort, TransportError } from '@parley/transport';
import { CliError } from '../cli-error.js';

/**
 * A flag's HOST:PORT, in the one grammar (`@parley/transport` parseHostPort), named in its error.
 */
export function hostPortFlag(text: string, flag: string): HostPort {
  try {
    return parseHostPort(text);
  } catch (error) {
    // "expected HOST:PORT …, got …" becomes "--flag takes HOST:PORT …, got …".
    if (error instanceof TransportError) {
      throw new CliError(`${flag} takes ${error.message.replace(/^expected /, '')}`);
    }
    throw error;
  }
}
