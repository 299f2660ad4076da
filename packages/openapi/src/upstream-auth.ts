import type { Credentials } from './credentials.js';
import type { OpenApiDocument } from './document.js';
import { HEADER_NAME } from './extensions.js';
import { OpenApiError } from './openapi-error.js';

/** How a secret becomes a header: as is, or after a scheme word (`Bearer`, `Basic`). */
type HeaderScheme = { header: string; format: 'plain' | 'bearer' | 'basic' };

/**
 * The header that carries `secret`: `header` when given (a bare token for `Authorization` is sent
 * as `Bearer TOKEN`), else the document's one header security scheme: an `apiKey` in a header,
 * or `http` bearer or basic (`user:password`, base64-encoded as Basic auth requires).
 */
export function resolveCredentials(
  document: OpenApiDocument,
  secret: string,
  header: string | undefined,
): Credentials {
  if (header !== undefined) {
    if (!HEADER_NAME.test(header)) {
      throw new OpenApiError(`"${header}" is not an HTTP header name`);
    }
    const bare = header.toLowerCase() === 'authorization' && !/^\S+\s+\S/.test(secret);
    return { header, value: bare ? `Bearer ${secret}` : secret };
  }
  const schemes = headerSchemes(document);
  const [only] = schemes;
  if (
    only === undefined ||
    schemes.some(
      (s) => s.header.toLowerCase() !== only.header.toLowerCase() || s.format !== only.format,
    )
  ) {
    throw new OpenApiError(
      schemes.length === 0
        ? 'the document declares no header security scheme: say which header carries the credential'
        : `the document declares several security schemes (${schemes.map((s) => s.header).join(', ')}): say which header carries the credential`,
    );
  }
  switch (only.format) {
    case 'plain':
      return { header: only.header, value: secret };
    case 'bearer':
      return { header: only.header, value: `Bearer ${secret}` };
    case 'basic':
      return { header: only.header, value: `Basic ${Buffer.from(secret).toString('base64')}` };
  }
}

function headerSchemes(document: OpenApiDocument): HeaderScheme[] {
  const out: HeaderScheme[] = [];
  for (const scheme of Object.values(document.components?.securitySchemes ?? {})) {
    if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name !== undefined) {
      out.push({ header: scheme.name, format: 'plain' });
    } else if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') {
      out.push({ header: 'Authorization', format: 'bearer' });
    } else if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
      out.push({ header: 'Authorization', format: 'basic' });
    }
  }
  return out;
}
