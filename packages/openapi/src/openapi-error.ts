/**
 * An OpenAPI document, preset or setting this package cannot serve, in one sentence. Local: it
 * is raised while the service is built and never reaches a peer.
 */
export class OpenApiError extends Error {
  override readonly name = 'OpenApiError';
}
