import { ParleyError } from '@parley/protocol';

/**
 * Thrown by a non-transactional `apply` or `revert` whose effect may have happened (a request
 * was sent and no answer came). The commit or undo is left in doubt rather than released, so it
 * is never executed a second time (§4.4); the peer gets `unavailable` with this message, and the
 * operator settles it with `Service.resolveCommit` or `Service.resolveUndo`.
 */
export class OutcomeUnknownError extends ParleyError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('unavailable', message, options);
  }
}
