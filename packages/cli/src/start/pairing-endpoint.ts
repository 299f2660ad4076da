import { isPlainObject, isPublicKey } from '@parley/protocol';
import type { PairingCode } from './pairing-code.js';
import type { TrustedPrincipals } from './trusted-principals.js';

/** The path of the pairing endpoint on the page's origin. */
export const PAIRING_PATH = '/pairing';
/** A pairing request is two short strings. */
const MAX_BODY_BYTES = 4_096;

function json(status: number, body: object): Response {
  return new Response(`${JSON.stringify(body)}\n`, {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

const refuse = (status: number, error: string): Response => json(status, { error });

/**
 * The pairing step of `parley start`, as a web-standard handler on the page's origin (the page
 * server applies the BrowserPolicy first, so only the page itself, or a program on this machine,
 * gets here):
 *
 * - `GET /pairing?principal=ed25519:…` → `{"paired": true|false}`: whether the services trust it.
 * - `POST /pairing` `{"principal": "ed25519:…", "code": "K7QP-M2XD"}` (application/json) →
 *   `{"paired": true}` once the code is the one printed in the terminal; the principal is
 *   trusted from then on and written to DATA/paired-principals.json. A wrong code is 403.
 */
export function pairingEndpoint(
  trusted: TrustedPrincipals,
  code: PairingCode,
  now: () => number,
  paired: (key: string) => void,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    if (request.method === 'GET') {
      const principal = url.searchParams.get('principal');
      if (principal === null || !isPublicKey(principal)) {
        return refuse(400, 'say which principal: /pairing?principal=ed25519:…');
      }
      return json(200, { paired: trusted.has(principal) });
    }
    if (request.method !== 'POST') {
      await request.body?.cancel();
      return new Response('use GET or POST\n', { status: 405, headers: { allow: 'GET, POST' } });
    }
    const type = (request.headers.get('content-type') ?? '').split(';', 1)[0]?.trim();
    if (type !== 'application/json') {
      await request.body?.cancel();
      return refuse(415, 'send {"principal", "code"} with Content-Type: application/json');
    }
    const text = await request.text();
    if (text.length > MAX_BODY_BYTES) return refuse(413, 'a pairing request is two short strings');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return refuse(400, 'the pairing request is not JSON');
    }
    if (!isPlainObject(body) || typeof body.code !== 'string' || !isPublicKey(body.principal)) {
      return refuse(400, 'a pairing request is {"principal": "ed25519:…", "code": "XXXX-XXXX"}');
    }
    if (!code.redeem(body.code)) {
      return refuse(
        403,
        'that is not the pairing code in the terminal where npm start runs; type the one printed there (it is used once, and replaced after 5 wrong tries)',
      );
    }
    trusted.pair(body.principal, now());
    paired(body.principal);
    return json(200, { paired: true });
  };
}
