import type { CallToolResult } from '@modelcontextprotocol/server';
import { type PyObject, pyDumps, Transcript, verifyOutcome } from '@parley/consensus';
import { textResult } from '../tool-result.js';
import { pyArgument, withFloatScores } from './py-arguments.js';

export const VERIFY_RECEIPT_TOOL = 'parley_verify_receipt';

export const VERIFY_RECEIPT_DESCRIPTION = [
  'Check a parley_decide result: recomputes the SHA-256 over the transcript and compares it with',
  'the hash you kept (match), and recomputes the max-min decision from the recorded verdicts',
  '(max_min_verified, which does not depend on the hash). Pass expected_owners, the parties you',
  'know took part, or a record that drops a party from every entry still verifies. The hash is',
  'unsigned: a hash and a transcript from the same hand prove nothing about each other.',
].join(' ');

export const VERIFY_RECEIPT_INPUT = {
  type: 'object',
  properties: {
    transcript: {
      type: 'object',
      description: 'The transcript from parley_decide: {entries, result}.',
    },
    sha256: {
      type: 'string',
      description: 'The transcript_sha256 that parley_decide returned (64 hex digits).',
    },
    expected_owners: {
      type: 'array',
      items: { type: 'string' },
      description: 'The parties you know took part.',
    },
  },
  required: ['transcript', 'sha256'],
  additionalProperties: false,
} as const;

export interface VerifyReceiptArguments {
  transcript: Record<string, unknown>;
  sha256: string;
  expected_owners?: string[];
}

/** `parley_verify_receipt`: {match, max_min_verified, expected_sha256, recomputed_sha256}. */
export function verifyReceiptTool(
  args: VerifyReceiptArguments,
  raw: PyObject | undefined,
): CallToolResult {
  const transcript = Transcript.fromDict(
    withFloatScores(pyArgument(raw, 'transcript', args.transcript)),
  );
  const recomputed = transcript.hash();
  const outcome = verifyOutcome(
    transcript,
    args.expected_owners === undefined ? {} : { expectedOwners: args.expected_owners },
  );
  const report = {
    match: recomputed === args.sha256.trim().toLowerCase(),
    max_min_verified: outcome.ok,
    expected_sha256: args.sha256,
    recomputed_sha256: recomputed,
  };
  return textResult(pyDumps(report), report);
}
