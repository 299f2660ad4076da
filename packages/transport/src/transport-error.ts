/** Why a transport operation failed locally. These never travel on the wire. */
export const TRANSPORT_ERROR_REASONS = [
  'bad_url',
  'unreachable',
  'tls',
  'closed',
  'timeout',
  'too_large',
  'bad_reply',
] as const;
export type TransportErrorReason = (typeof TRANSPORT_ERROR_REASONS)[number];

/**
 * A local transport failure: a bad URL, an unreachable host, a TLS failure, a closed connection,
 * a timeout, an oversized frame or a peer that does not speak Parley. Unlike ParleyError it is
 * never sent to a peer.
 */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  readonly reason: TransportErrorReason;

  constructor(reason: TransportErrorReason, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
  }
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ENOENT',
  'EACCES',
]);

function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null || !('code' in error)) return '';
  return typeof error.code === 'string' ? error.code : '';
}

function isTlsCode(code: string): boolean {
  return (
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code.includes('CERT') ||
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'SELF_SIGNED_CERT_IN_CHAIN'
  );
}

/** Wraps a Node socket, TLS or spawn error as a TransportError, naming `peer`. */
export function toTransportError(error: unknown, peer: string): TransportError {
  if (error instanceof TransportError) return error;
  const code = errorCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (isTlsCode(code)) {
    return new TransportError('tls', `TLS with ${peer} failed: ${detail}`, { cause: error });
  }
  if (UNREACHABLE_CODES.has(code)) {
    return new TransportError('unreachable', `cannot reach ${peer}: ${detail}`, { cause: error });
  }
  return new TransportError('closed', `the connection to ${peer} failed: ${detail}`, {
    cause: error,
  });
}

/** Wraps a listen failure (address in use, no permission) as TransportError `unreachable`. */
export function listenError(error: unknown, address: string): TransportError {
  const detail = error instanceof Error ? error.message : String(error);
  return new TransportError('unreachable', `cannot listen on ${address}: ${detail}`, {
    cause: error,
  });
}
