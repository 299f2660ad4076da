import { isPyObject, type PyObject, type PyValue, parsePyJson } from '@parley/consensus';
import { ModelError } from './model-error.js';

/** The tool an Anthropic model is made to call with the draft (its `input` is the reply). */
export const DRAFT_TOOL = 'record_sheet_draft';

/** The API shapes a reply can come in (the providers' documented reply bodies). */
export const REPLY_SHAPES = ['openai', 'anthropic'] as const;
export type ReplyShape = (typeof REPLY_SHAPES)[number];

/**
 * The draft a provider's reply body carries, as untrusted plain data: an OpenAI chat completion
 * (`choices[0].message.content`, a JSON text) or an Anthropic message (the `input` of the
 * `record_sheet_draft` tool_use block, else its text). A refusal, a reply cut off at the token
 * limit, or content that is not a JSON object is a ModelError `bad_reply` (or `refused`).
 */
export function draftInReply(shape: ReplyShape, bodyText: string): unknown {
  const body = parseJson(bodyText, 'the reply body');
  return shape === 'openai' ? fromChatCompletion(body) : fromAnthropicMessage(body);
}

function fromChatCompletion(body: PyValue): unknown {
  const choices = isPyObject(body) ? getOwn(body, 'choices') : undefined;
  const choice = Array.isArray(choices) ? choices[0] : undefined;
  const message = isPyObject(choice) ? getOwn(choice, 'message') : undefined;
  if (!isPyObject(choice) || !isPyObject(message)) {
    throw new ModelError('bad_reply', 'the reply is not a chat completion (no choices[0].message)');
  }
  const refusal = getOwn(message, 'refusal');
  if (typeof refusal === 'string' && refusal !== '') {
    throw new ModelError('refused', `the model refused: ${refusal.slice(0, 200)}`);
  }
  if (getOwn(choice, 'finish_reason') === 'length') {
    throw new ModelError(
      'bad_reply',
      'the model was cut off at its token limit before the draft ended',
    );
  }
  const content = getOwn(message, 'content');
  if (typeof content !== 'string') {
    throw new ModelError('bad_reply', 'the chat completion has no text content');
  }
  return parseJson(unfence(content), "the model's draft");
}

function fromAnthropicMessage(body: PyValue): unknown {
  const content = isPyObject(body) ? getOwn(body, 'content') : undefined;
  if (!Array.isArray(content)) {
    throw new ModelError('bad_reply', 'the reply is not an Anthropic message (no content list)');
  }
  if (isPyObject(body) && getOwn(body, 'stop_reason') === 'max_tokens') {
    throw new ModelError(
      'bad_reply',
      'the model was cut off at its token limit before the draft ended',
    );
  }
  const tool = content.find(
    (block) =>
      isPyObject(block) &&
      getOwn(block, 'type') === 'tool_use' &&
      getOwn(block, 'name') === DRAFT_TOOL,
  );
  if (isPyObject(tool)) {
    const input = getOwn(tool, 'input');
    if (!isPyObject(input))
      throw new ModelError('bad_reply', `the ${DRAFT_TOOL} input is not an object`);
    return input;
  }
  const text = content
    .filter(
      (block) =>
        isPyObject(block) &&
        getOwn(block, 'type') === 'text' &&
        typeof getOwn(block, 'text') === 'string',
    )
    .map((block) => (block as { text: string }).text)
    .join('');
  if (text === '')
    throw new ModelError('bad_reply', `the message has neither a ${DRAFT_TOOL} call nor text`);
  return parseJson(unfence(text), "the model's draft");
}

/** JSON read as Python reads it (NaN, Infinity and 1e999 refused), or a ModelError. */
function parseJson(text: string, what: string): PyValue {
  try {
    return parsePyJson(text);
  } catch (error) {
    throw new ModelError(
      'bad_reply',
      `${what} is not JSON: ${(error as Error).message.slice(0, 120)}`,
    );
  }
}

/** Text inside one ```json fence, as local models often write it even in JSON mode. */
function unfence(text: string): string {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text);
  return fenced === null ? text : (fenced[1] as string);
}

/** The own value at `key`; never reaches a prototype. */
function getOwn(object: PyObject, key: string): PyValue | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}
