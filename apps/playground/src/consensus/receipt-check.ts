import {
  type ConsensusResult,
  type DecisionSpec,
  decide,
  type PyObject,
  pyDumps,
  type ReceiptReport,
  readReceipt,
  verifyReceipt,
} from '@parley/consensus';

/** A run of the engine, and its receipt as `parley decide --json` prints it. */
export type Run = {
  spec: DecisionSpec;
  result: ConsensusResult<PyObject>;
  /** The hash the engine printed. */
  hash: string;
  /** `{status, decision, transcript, transcript_sha256}` in Python's json.dumps text. */
  receiptText: string;
};

export function runSpec(spec: DecisionSpec): Run {
  const result = decide(spec);
  const hash = result.transcript.hash();
  const receiptText = pyDumps({
    status: result.status,
    decision: result.decision,
    transcript: result.transcript.toDict(),
    transcript_sha256: hash,
  });
  return { spec, result, hash, receiptText };
}

/** What the browser found when it checked the receipt text on its own. */
export type BrowserCheck = {
  /** The canonical text the hash covers (Python's json.dumps, sort_keys=True). */
  canonicalText: string;
  /** SHA-256 of that text, computed by WebCrypto (crypto.subtle.digest). */
  recomputed: string;
  /** The hash the receipt states. */
  stated: string;
  matches: boolean;
  /**
   * The receipt's own checks (hash, max-min recomputed from the verdicts) and what they do not
   * prove.
   */
  report: ReceiptReport;
};

async function webSha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Reads the receipt text back as a receipt, rebuilds the canonical text of its transcript, and
 * hashes that with WebCrypto, independently of the engine's own SHA-256.
 */
export async function checkInBrowser(receiptText: string): Promise<BrowserCheck> {
  const receipt = readReceipt(receiptText);
  const canonicalText = receipt.transcript.canonicalText();
  const recomputed = await webSha256(canonicalText);
  const stated = receipt.transcript_sha256.toLowerCase();
  return {
    canonicalText,
    recomputed,
    stated,
    matches: recomputed === stated,
    report: await verifyReceipt(receipt),
  };
}
