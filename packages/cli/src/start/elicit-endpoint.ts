import {
  attributeCatalog,
  ConsensusError,
  type Elicitor,
  isPyObject,
  MAX_OPTIONS,
  type PyObject,
  type PyValue,
  parsePyJson,
  pyDumps,
  readAnswers,
  summarizeAttributes,
} from '@parley/consensus';
import { ModelError } from '@parley/models';

/** The path of the interview's drafting endpoint on the page's origin. */
export const ELICIT_PATH = '/elicit';
/** Six answers of at most 4,000 characters and the options: well under this. */
const MAX_BODY_BYTES = 262_144;
/** Drafts in flight at once: a page cannot make the server queue up paid model calls. */
const MAX_IN_FLIGHT = 2;

function json(status: number, body: PyValue): Response {
  return new Response(`${pyDumps(body)}\n`, {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

/**
 * The interview's model on the page server (`parley start --provider/--model/--base-url`, or
 * the SDKs' variables; the scripted elicitor when none), so the key stays on the server:
 *
 * - `GET /elicit` -> `{"elicitor": "…", "model": true|false}`: who drafts.
 * - `POST /elicit` `{"answers": {prompt id: text}, "options": [...]}` (application/json) ->
 *   `{"reply": …}`: the elicitor's untrusted proposal, which the page's engine checks in full
 *   against its own options; a model failure is 502 `{"error"}` in one sentence, no key.
 *
 * The page server's BrowserPolicy runs first: only the page itself (or a program on this
 * machine) gets here. Nothing is kept: each request is one participant's answers alone.
 */
export function elicitEndpoint(
  elicitor: Elicitor,
  model: boolean,
  log: (line: string) => void,
): (request: Request) => Promise<Response> {
  let inFlight = 0;
  return async (request) => {
    if (request.method === 'GET') return json(200, { elicitor: elicitor.label, model });
    if (request.method !== 'POST') {
      await request.body?.cancel();
      return new Response('use GET or POST\n', { status: 405, headers: { allow: 'GET, POST' } });
    }
    const type = (request.headers.get('content-type') ?? '').split(';', 1)[0]?.trim();
    if (type !== 'application/json') {
      await request.body?.cancel();
      return json(415, {
        error: 'send {"answers", "options"} with Content-Type: application/json',
      });
    }
    const text = await request.text();
    if (text.length > MAX_BODY_BYTES)
      return json(413, { error: 'the answers and options are too long' });
    let answers: ReturnType<typeof readAnswers>;
    let options: PyObject[];
    try {
      const body = parsePyJson(text);
      if (!isPyObject(body)) throw new ConsensusError('bad_json', 'send {"answers", "options"}');
      answers = readAnswers(body.answers);
      options = readOptions(body.options);
    } catch (error) {
      if (error instanceof ConsensusError) return json(400, { error: error.message });
      throw error;
    }
    if (Object.keys(answers).length === 0)
      return json(400, { error: 'answer at least one prompt' });
    if (inFlight >= MAX_IN_FLIGHT)
      return json(429, { error: 'a draft is already being made; try again in a moment' });
    inFlight++;
    try {
      const attributes = summarizeAttributes(attributeCatalog(options));
      const reply = await elicitor.elicit({ answers, attributes }, { signal: request.signal });
      return json(200, { reply: reply as PyValue });
    } catch (error) {
      if (error instanceof ModelError) {
        log(`[interview] ${error.message}`);
        return json(502, { error: error.message });
      }
      throw error;
    } finally {
      inFlight--;
    }
  };
}

function readOptions(value: PyValue | undefined): PyObject[] {
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.length > MAX_OPTIONS ||
    !value.every(isPyObject)
  ) {
    throw new ConsensusError('bad_spec', `options must be a list of 1 to ${MAX_OPTIONS} objects`);
  }
  return value as PyObject[];
}
