import { encodeB64url, randomBytes } from '@parley/protocol';
import { ElicitError } from '../errors.js';
import { type Answers, checkAnswer, isPromptId, PROMPTS } from './prompts.js';

/** One participant's interview: their own answers, and the token that proves it is them. */
export interface Interview {
  readonly id: string;
  readonly caseId: string;
  readonly participant: string;
  /**
   * The capability token minted at the start: confirming or revising needs it, so knowing (or
   * guessing) the participant's name is never enough (`elicit.py`, "Only the participant can
   * confirm or revise their sheet"). It is a secret of that participant.
   */
  readonly token: string;
  readonly answers: Answers;
}

/** Where random bytes come from (tests pin them). */
export type RandomSource = (length: number) => Uint8Array;

/** A fresh id with a prefix: 72 random bits. */
export function newId(prefix: string, random: RandomSource = randomBytes): string {
  return `${prefix}_${encodeB64url(random(9))}`;
}

/** Starts an interview for `participant` in `caseId`, minting its capability token (192 bits). */
export function startInterview(
  init: { readonly caseId: string; readonly participant: string },
  random: RandomSource = randomBytes,
): Interview {
  if (typeof init.participant !== 'string' || init.participant.trim() === '') {
    throw new ElicitError('bad_answer', 'the participant needs a name');
  }
  return {
    id: newId('iv', random),
    caseId: init.caseId,
    participant: init.participant,
    token: encodeB64url(random(24)),
    answers: {},
  };
}

/** The interview with the answer to one prompt recorded (a new value; the old one is unchanged). */
export function recordAnswer(interview: Interview, promptId: string, text: unknown): Interview {
  if (!isPromptId(promptId)) {
    throw new ElicitError(
      'bad_answer',
      `unknown prompt ${JSON.stringify(String(promptId).slice(0, 40))}; the prompts are ${PROMPTS.map((p) => p.id).join(', ')}`,
    );
  }
  const answer = checkAnswer(promptId, text);
  const answers: Record<string, string> = { ...interview.answers };
  if (answer === '') delete answers[promptId];
  else answers[promptId] = answer;
  return { ...interview, answers };
}
