/**
 * A grant that cannot be issued as asked (§6.2–§6.6): a malformed caveat, a delegation by a key
 * that does not hold the grant, a consent for another principal. Local, never sent to a peer.
 */
export class GrantIssueError extends TypeError {
  override readonly name = 'GrantIssueError';
}
