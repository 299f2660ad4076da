import type { OpenApiDocument } from './document.js';
import { OpenApiError } from './openapi-error.js';

/**
 * The base URL operation paths are appended to. `upstream` when given; when it is an origin alone
 * (`http://127.0.0.1:8080`) and the document's first server URL is a path (`/api/v3`), that path
 * is appended. Without `upstream`, the document's first server URL, if absolute. Credentials in
 * the URL are refused: they would show in every proposal's effects.
 */
export function upstreamBase(document: OpenApiDocument, upstream: string | undefined): string {
  const server = serverUrl(document);
  const given =
    upstream ?? (server !== undefined && /^https?:\/\//i.test(server) ? server : undefined);
  if (given === undefined) {
    throw new OpenApiError(
      server === undefined
        ? 'the document names no server: give the upstream URL'
        : `the document's server URL ${server} is relative: give the upstream URL it is relative to`,
    );
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new OpenApiError(`the upstream "${given}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OpenApiError(`the upstream must be an http:// or https:// URL (got ${url.protocol})`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new OpenApiError(
      'the upstream URL carries credentials; give them as an auth header instead',
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new OpenApiError('the upstream URL must not have a query or fragment');
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (path === '' && upstream !== undefined && server?.startsWith('/') === true) {
    path = server.replace(/\/+$/, '');
  }
  return `${url.origin}${path}`;
}

/** The first server's URL, with its variables at their defaults. */
function serverUrl(document: OpenApiDocument): string | undefined {
  const server = document.servers?.[0];
  if (server === undefined) return undefined;
  return server.url.replace(
    /\{([^}]+)\}/g,
    (whole, name: string) => server.variables?.[name]?.default ?? whole,
  );
}
