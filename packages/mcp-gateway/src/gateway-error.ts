/**
 * A configuration, preset or tool list this gateway cannot serve, in one sentence. Local: it is
 * raised while the gateway is built and never reaches a peer.
 */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
}
