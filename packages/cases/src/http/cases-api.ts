import { isPyObject, type PyObject, type PyValue, parsePyJson, pyDumps } from '@parley/consensus';
import type { CaseService } from '../case-service.js';
import { CaseError, type CaseErrorCode } from '../errors.js';
import { MAX_EVIDENCE_BYTES } from '../limits.js';
import { renderReceiptPdf } from '../receipt-pdf.js';
import { RefusalLimit } from './refusal-limit.js';

/** Where the API lives on the page's origin. */
export const CASES_API_PREFIX = '/cases/api/';
/** Where the pages are: a party's link is `<origin>/cases/#t=<token>`. */
export const CASES_PAGE_PATH = '/cases/';

/** HTTP status of each refusal. An unknown, expired or revoked link answers the same way. */
const STATUS: Readonly<Record<CaseErrorCode, number>> = {
  bad_input: 400,
  not_found: 404,
  expired: 401,
  revoked: 401,
  forbidden: 403,
  wrong_state: 409,
  stale: 409,
  max_rounds: 409,
  red_line: 409,
  too_large: 413,
  bad_type: 415,
  key_reused: 409,
  conflict: 503,
};

/** Largest JSON body: one evidence file as base64 plus its name. */
const MAX_BODY_CHARS = Math.ceil((MAX_EVIDENCE_BYTES * 4) / 3) + 4_096;

function json(status: number, body: PyValue, extra: Record<string, string> = {}): Response {
  return new Response(`${pyDumps(body)}\n`, {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...extra,
    },
  });
}

function refusal(error: CaseError): Response {
  return json(STATUS[error.code], { error: error.code, message: error.message });
}

/** The capability in `Authorization: Bearer …` (never in the URL, so never in a log). */
function tokenOf(request: Request): string {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(header.trim());
  if (match === null) throw new CaseError('not_found', 'this link opens nothing');
  return match[1] as string;
}

async function bodyOf(request: Request): Promise<PyObject> {
  const type = (request.headers.get('content-type') ?? '').split(';', 1)[0]?.trim();
  if (type !== 'application/json') {
    await request.body?.cancel();
    throw new CaseError('bad_input', 'send JSON with Content-Type: application/json');
  }
  const text = await request.text();
  if (text.length > MAX_BODY_CHARS) throw new CaseError('too_large', 'the request is too large');
  let body: PyValue;
  try {
    body = text.trim() === '' ? {} : parsePyJson(text);
  } catch {
    throw new CaseError('bad_input', 'the request is not valid JSON');
  }
  if (!isPyObject(body)) throw new CaseError('bad_input', 'send a JSON object');
  return body;
}

/** A safe `filename=` for Content-Disposition: ASCII letters, digits, dot, dash, underscore. */
function dispositionName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || 'file';
}

type Route = (request: Request, service: CaseService, origin: string) => Promise<Response>;

const post =
  (
    run: (service: CaseService, token: string, body: PyObject, origin: string) => Promise<PyValue>,
  ): Route =>
  async (request, service, origin) => {
    if (request.method !== 'POST') return methodNotAllowed('POST', request);
    const token = tokenOf(request);
    return json(200, await run(service, token, await bodyOf(request), origin));
  };

async function methodNotAllowed(allow: string, request: Request): Promise<Response> {
  await request.body?.cancel();
  return new Response(`use ${allow}\n`, { status: 405, headers: { allow } });
}

const ROUTES: Readonly<Record<string, Route>> = {
  case: async (request, service) => {
    if (request.method !== 'GET') return methodNotAllowed('GET', request);
    return json(200, await service.view(tokenOf(request)));
  },
  answer: post((s, t, b) => s.answer(t, String(b.prompt ?? ''), b.text)),
  draft: post((s, t) => s.draft(t)),
  edit: post((s, t, b) => s.edit(t, b.ops)),
  confirm: post((s, t, b) => s.confirm(t, { hard: b.hard, version: b.version })),
  accept: post((s, t, b) => s.accept(t, b.proposal)),
  reject: post((s, t, b) => s.reject(t, b.proposal, b.note)),
  revise: post((s, t) => s.revise(t)),
  evidence: async (request, service) => {
    if (request.method === 'GET') {
      const item = await service.readEvidence(
        tokenOf(request),
        new URL(request.url).searchParams.get('id'),
      );
      return new Response(Buffer.from(item.content, 'base64'), {
        status: 200,
        headers: {
          'content-type': item.type,
          'content-disposition': `attachment; filename="${dispositionName(item.filename)}"`,
          'cache-control': 'no-store',
        },
      });
    }
    if (request.method !== 'POST') return methodNotAllowed('GET, POST', request);
    const token = tokenOf(request);
    await service.authorize(token);
    const body = await bodyOf(request);
    if (typeof body.content !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(body.content)) {
      throw new CaseError('bad_input', 'content must be the file as base64');
    }
    const added = await service.addEvidence(token, {
      filename: body.filename,
      bytes: new Uint8Array(Buffer.from(body.content, 'base64')),
    });
    return json(200, { id: added.id, case: added.view });
  },
  share: post((s, t, b) => s.shareEvidence(t, b.id, b.share !== false, b.confirm)),
  receipt: async (request, service) => {
    if (request.method !== 'GET') return methodNotAllowed('GET', request);
    const receipt = await service.receipt(tokenOf(request));
    return new Response(receipt.text, {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="${dispositionName(`${receipt.title}-receipt`)}.json"`,
        'cache-control': 'no-store',
      },
    });
  },
  'receipt.pdf': async (request, service) => {
    if (request.method !== 'GET') return methodNotAllowed('GET', request);
    const receipt = await service.receipt(tokenOf(request));
    const pdf = await renderReceiptPdf(receipt.text);
    return new Response(Buffer.from(pdf), {
      status: 200,
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="${dispositionName(`${receipt.title}-receipt`)}.pdf"`,
        'cache-control': 'no-store',
      },
    });
  },
  reissue: post((s, t, b, origin) =>
    s.reissue(t, String(b.party ?? ''), `${origin}${CASES_PAGE_PATH}`),
  ),
  revoke: post((s, t, b) => s.revoke(t, String(b.party ?? ''))),
  close: post((s, t) => s.close(t)),
  cancel: post((s, t) => s.cancel(t)),
  delete: post(async (s, t) => {
    await s.deleteByOrganizer(t);
    return { deleted: true };
  }),
};

/**
 * `POST /cases/api/cases`: opens a case; the answer holds every link. An `Idempotency-Key`
 * header (the convention of draft-ietf-httpapi-idempotency-key-header, beside the capability in
 * `Authorization`: metadata of the request, not a field of the case) makes a retry safe: the
 * same key and body answer 201 with the same case and links again (`Idempotent-Replayed: true`);
 * the same key with another body is refused (409 `key_reused`). Without the header a retry opens
 * a second case, as before (kept for scripts; the page and the CLI always send a key).
 */
async function create(request: Request, service: CaseService, origin: string): Promise<Response> {
  if (request.method !== 'POST') return methodNotAllowed('POST', request);
  const key = request.headers.get('idempotency-key');
  const body = await bodyOf(request);
  const made = await service.create(
    {
      title: body.title,
      decision: body.decision,
      options: body.options,
      organizer: body.organizer,
      parties: body.parties,
    },
    `${origin}${CASES_PAGE_PATH}`,
    key ?? undefined,
  );
  return json(
    201,
    {
      case: made.caseId,
      organizer_link: made.links.organizer ?? null,
      links: Object.entries(made.links.parties).map(([party, link]) => ({
        party,
        name: made.names[party] ?? '',
        link,
      })),
    },
    made.replayed ? { 'idempotent-replayed': 'true' } : {},
  );
}

/**
 * The cases API as a web-standard handler for `/cases/api/…`. Every route but `cases` (create)
 * is opened by the holder's link in `Authorization: Bearer`, and answers with the holder's own
 * view; a refusal is `{error, message}` with one sentence, never echoing a link or a private part.
 */
export function casesApi(
  service: CaseService,
  log: (line: string) => void = () => undefined,
  limit: RefusalLimit = new RefusalLimit(),
): (request: Request, info?: { readonly peer?: string }) => Promise<Response> {
  return async (request, info) => {
    const client = info?.peer ?? 'unknown';
    const wait = limit.waitFor(client);
    if (wait > 0) {
      await request.body?.cancel();
      return json(
        429,
        { error: 'rate_limited', message: 'too many links were refused from here; wait a minute' },
        { 'retry-after': String(Math.ceil(wait / 1000)) },
      );
    }
    const url = new URL(request.url);
    const name = url.pathname.startsWith(CASES_API_PREFIX)
      ? url.pathname.slice(CASES_API_PREFIX.length)
      : '';
    try {
      if (name === 'cases') return await create(request, service, url.origin);
      const route = Object.hasOwn(ROUTES, name) ? ROUTES[name] : undefined;
      if (route === undefined) {
        await request.body?.cancel();
        return json(404, { error: 'not_found', message: `no such endpoint: ${name.slice(0, 40)}` });
      }
      return await route(request, service, url.origin);
    } catch (error) {
      if (error instanceof CaseError) {
        if (error.code === 'not_found' || error.code === 'expired' || error.code === 'revoked') {
          limit.refused(client);
        }
        return refusal(error);
      }
      // A model that failed (ModelError of @parley/models): its sentence names no key.
      if (error instanceof Error && error.name === 'ModelError') {
        return json(502, { error: 'model', message: error.message });
      }
      log(`[cases] ${error instanceof Error ? error.message : String(error)}`);
      return json(500, { error: 'internal', message: 'internal error' });
    }
  };
}
