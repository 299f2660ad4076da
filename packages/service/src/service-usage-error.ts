/**
 * A Service method called in a way it cannot honour: a capability defined twice, settling a
 * commit or undo that is not in doubt, a kill point that is not NAME[:N]. Local, never sent to a
 * peer; the message says what to do instead.
 */
export class ServiceUsageError extends TypeError {
  override readonly name = 'ServiceUsageError';
}
