import { ParleyError } from './errors.js';
import { type Frame, PARLEY_VERSION, type Request, VERBS, type Verb } from './frames.js';
import { ID_RULE, isWellFormedId } from './ids.js';
import { isPlainObject } from './json.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from './nesting.js';

/** A request may present at most this many grants (each is verified; §6.6). */
export const MAX_GRANTS = 16;

const badFrame = (message: string): ParleyError => new ParleyError('bad_frame', message);

/**
 * §2.1: parses one frame: a JSON object with `"parley": 1` and a string `id`.
 * Throws ParleyError `bad_frame` naming what is wrong.
 */
export function parseFrame(text: string): Frame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badFrame('the frame is not valid JSON');
  }
  checkEnvelope(value);
  return value as unknown as Frame;
}

function checkEnvelope(value: unknown): asserts value is Record<string, unknown> {
  if (!isPlainObject(value)) throw badFrame('a frame must be a JSON object');
  if (value.parley !== PARLEY_VERSION) throw badFrame('the frame must carry "parley": 1');
  if (typeof value.id !== 'string' || value.id.length === 0) {
    throw badFrame('the frame must carry a non-empty string "id"');
  }
  if (!isWellFormedId(value.id)) throw badFrame(`the frame's "id" must be ${ID_RULE}`);
}

/** The id of a (possibly malformed) request, or "" when it has none: the `re` of its ERROR. */
export function requestIdOf(value: unknown): string {
  return isPlainObject(value) && typeof value.id === 'string' ? value.id : '';
}

/** Whether `verb` is one of the §4 verbs. */
export function isVerb(verb: unknown): verb is Verb {
  return typeof verb === 'string' && (VERBS as readonly string[]).includes(verb);
}

/**
 * §2.1, §3, §4: checks that a frame is a well-formed request. Unknown fields are ignored.
 * Throws ParleyError `bad_frame` (or `invalid_params` for non-object params, `limit` for too
 * many grants).
 */
export function checkRequest(frame: unknown): Request {
  checkEnvelope(frame);
  const verb = frame.verb;
  if (verb === undefined) throw badFrame('a request must carry a "verb"');
  if (!isVerb(verb)) {
    throw badFrame(
      `unknown verb ${JSON.stringify(String(verb)).slice(0, 40)}; expected one of ${VERBS.join(', ')}`,
    );
  }
  if (frame.budget !== undefined) {
    if (!Number.isSafeInteger(frame.budget) || (frame.budget as number) < 1) {
      throw badFrame('"budget" must be a positive integer');
    }
  }
  if (frame.grants !== undefined) {
    if (!Array.isArray(frame.grants) || !frame.grants.every((g) => typeof g === 'string')) {
      throw badFrame('"grants" must be an array of token strings');
    }
    if (frame.grants.length > MAX_GRANTS) {
      throw new ParleyError('limit', `a request may present at most ${MAX_GRANTS} grants`);
    }
  }
  if (frame.proof !== undefined) checkProofShape(frame.proof);
  switch (verb) {
    case 'HELLO':
      if (frame.agent !== undefined && !isPlainObject(frame.agent)) {
        throw badFrame('"agent" must be an object');
      }
      break;
    case 'ASK':
    case 'INTENT':
      requireString(frame, 'capability', verb);
      if (frame.params !== undefined && !isPlainObject(frame.params)) {
        throw new ParleyError('invalid_params', '"params" must be a JSON object');
      }
      if (nestsDeeperThan(frame.params)) {
        throw new ParleyError(
          'invalid_params',
          `"params" nests deeper than ${MAX_NESTING_DEPTH} levels of arrays and objects, the most this service walks`,
        );
      }
      if (verb === 'INTENT') {
        if (frame.goal !== undefined && typeof frame.goal !== 'string') {
          throw badFrame('"goal" must be a string');
        }
        if (frame.auto !== undefined && typeof frame.auto !== 'boolean') {
          throw badFrame('"auto" must be true or false');
        }
      }
      break;
    case 'COMMIT':
      requireId(frame, 'proposal', verb);
      requireString(frame, 'hash', verb);
      break;
    case 'UNDO':
      requireId(frame, 'receipt', verb);
      break;
    case 'EXPAND':
      requireId(frame, 'handle', verb);
      break;
  }
  return frame as unknown as Request;
}

function requireString(frame: Record<string, unknown>, field: string, verb: Verb): void {
  if (typeof frame[field] !== 'string' || (frame[field] as string).length === 0) {
    throw badFrame(`${verb} must carry a non-empty string "${field}"`);
  }
}

/** The proposal, receipt or handle a request names: an id a store can keep (ids.ts). */
function requireId(frame: Record<string, unknown>, field: string, verb: Verb): void {
  requireString(frame, field, verb);
  if (!isWellFormedId(frame[field])) throw badFrame(`${verb}'s "${field}" must be ${ID_RULE}`);
}

function checkProofShape(proof: unknown): void {
  if (
    !isPlainObject(proof) ||
    typeof proof.key !== 'string' ||
    !Number.isSafeInteger(proof.ts) ||
    typeof proof.sig !== 'string'
  ) {
    throw badFrame('"proof" must be {"key": string, "ts": integer, "sig": string}');
  }
}
