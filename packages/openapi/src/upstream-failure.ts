/** Why a request got no HTTP answer, and whether it may have reached the upstream anyway. */
export class UpstreamFailure extends Error {
  override readonly name = 'UpstreamFailure';
  /** `no`: it surely never reached the upstream (refused, unknown host); `maybe`: it may have. */
  readonly sent: 'no' | 'maybe';

  constructor(message: string, sent: 'no' | 'maybe', options: { cause?: unknown } = {}) {
    super(message, options);
    this.sent = sent;
  }
}

/** Error codes that mean the connection was never made, so nothing was sent. */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_INVALID_URL',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** A fetch rejection as an UpstreamFailure naming `target` (a method and URL, no credentials). */
export function failureOf(error: unknown, target: string, timeoutMs: number): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new UpstreamFailure(
      `the upstream did not answer ${target} within ${timeoutMs / 1000} s`,
      'maybe',
      { cause: error },
    );
  }
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const sent = code !== undefined && NEVER_SENT.has(code) ? 'no' : 'maybe';
  const reason = code ?? (typeof cause?.message === 'string' ? cause.message : 'network error');
  return new UpstreamFailure(`the upstream could not be reached for ${target} (${reason})`, sent, {
    cause: error,
  });
}
