import { ElicitError } from '../errors.js';
import { checkUtf8 } from '../py-json/value.js';

/**
 * The six questions of a private interview, asked separately (parley-consensus
 * `docs/specs/mvp/03-private-elicitation.md`, "Flow" 1; ids and questions as in `elicit.py`).
 */
export const PROMPTS = [
  { id: 'desired_outcome', question: 'What outcome do you want?' },
  { id: 'unacceptable', question: 'Which outcomes are unacceptable to you, no matter what?' },
  { id: 'acceptable_costs', question: 'What costs or concessions could you accept?' },
  { id: 'priorities', question: 'What matters most to you, in what order?' },
  {
    id: 'private_info',
    question: 'Anything private that your delegate should know but never share?',
  },
  { id: 'fallback', question: 'If no agreement is reached, what do you do instead?' },
] as const;

export type PromptId = (typeof PROMPTS)[number]['id'];

/** One participant's own words: prompt id -> the text they gave. */
export type Answers = Readonly<Partial<Record<PromptId, string>>>;

/** An answer longer than this is refused: a position, not a document. */
export const MAX_ANSWER_CHARS = 4_000;

export function isPromptId(value: unknown): value is PromptId {
  return typeof value === 'string' && PROMPTS.some((p) => p.id === value);
}

/** The question of a prompt id. */
export function questionOf(id: PromptId): string {
  return (PROMPTS.find((p) => p.id === id) as (typeof PROMPTS)[number]).question;
}

/** The first prompt not yet answered, or null when all six are. */
export function nextPrompt(answers: Answers): (typeof PROMPTS)[number] | null {
  return PROMPTS.find((p) => answers[p.id] === undefined) ?? null;
}

/**
 * Answers read from untrusted data (an answers file, a request body): an object of prompt id ->
 * string; an unknown id, a non-string or an over-long answer is an ElicitError naming it.
 * Empty answers are left out: a prompt the person skipped is unanswered.
 */
export function readAnswers(value: unknown): Answers {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ElicitError('bad_answer', 'answers must be an object of prompt id -> text');
  }
  const out: Partial<Record<PromptId, string>> = {};
  for (const [id, text] of Object.entries(value)) {
    if (!isPromptId(id)) {
      throw new ElicitError(
        'bad_answer',
        `unknown prompt ${JSON.stringify(id.slice(0, 40))}; the prompts are ${PROMPTS.map((p) => p.id).join(', ')}`,
      );
    }
    out[id] = checkAnswer(id, text);
    if (out[id] === '') delete out[id];
  }
  return out;
}

/** `text` as an answer to prompt `id`: a string of at most MAX_ANSWER_CHARS, trimmed. */
export function checkAnswer(id: PromptId, text: unknown): string {
  if (typeof text !== 'string')
    throw new ElicitError('bad_answer', `the answer to ${id} must be text`);
  if (text.length > MAX_ANSWER_CHARS) {
    throw new ElicitError(
      'bad_answer',
      `the answer to ${id} is longer than ${MAX_ANSWER_CHARS} characters (${text.length})`,
    );
  }
  try {
    checkUtf8(text);
  } catch {
    throw new ElicitError('bad_answer', `the answer to ${id} has a lone surrogate`);
  }
  return text.trim();
}
