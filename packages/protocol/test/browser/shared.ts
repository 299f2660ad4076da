/**
 * Types shared by the browser test (Node side) and the page script (browser side): the published
 * conformance vectors going in, and what the page computed coming out.
 */
import type { CaveatContext, Proof, Verb } from '@parley/protocol';

export interface KeyCase {
  seed: string;
  public: string;
}

export interface ProofCase {
  seed: string;
  aud: string;
  verb: Verb;
  target: string;
  ts: number;
  key: string;
  sig: string;
}

export interface HashCase {
  name: string;
  proposal: unknown;
  hash: string;
}

export interface CanonicalCase {
  name: string;
  input: unknown;
  canonical: string;
}

export type Outcome = { ok: true } | { ok: false; code: string };

export interface GrantCase {
  name: string;
  token: string;
  trusted: string[];
  proofKey: string;
  /** The request side of the context; the page adds `trusted`, `proofKey` and a fresh cache. */
  ctx: CaveatContext;
  expect: Outcome;
}

export interface LensCase {
  name: string;
  type: 'value' | 'reply';
  input: unknown;
  lens: string;
}

export interface EstimateCase {
  text: string;
  est: number;
}

/** The page's own sign → verify run with a freshly generated key pair. */
export interface SignatureRoundTrip {
  verified: boolean;
  tamperedMessage: boolean;
  tamperedSignature: boolean;
  otherKey: boolean;
  proof: Outcome;
  proofOtherTarget: Outcome;
}

/**
 * The page's own issueGrant → verifyGrant run, with the outcomes of one right and some wrong
 * contexts.
 */
export interface GrantRoundTrip {
  holderMatches: boolean;
  allowed: Outcome;
  otherCapability: Outcome;
  untrustedPrincipal: Outcome;
  otherProofKey: Outcome;
  delegated: Outcome;
}

/** How often the page's SubtleCrypto was asked to do Ed25519 work. */
export interface SubtleCalls {
  importKey: number;
  exportKey: number;
  sign: number;
  verify: number;
}

/** What the page script puts on `window` once the protocol bundle has loaded. */
export interface BrowserSuite {
  keys(cases: KeyCase[]): Promise<string[]>;
  proofs(cases: ProofCase[]): Promise<{ proof: Proof; check: Outcome }[]>;
  hashes(cases: HashCase[]): string[];
  canonical(cases: CanonicalCase[]): string[];
  grants(cases: GrantCase[]): Promise<{ cold: Outcome; warm: Outcome }[]>;
  lens(cases: LensCase[]): string[];
  estimate(cases: EstimateCase[]): number[];
  signatureRoundTrip(): Promise<SignatureRoundTrip>;
  grantRoundTrip(): Promise<GrantRoundTrip>;
  subtleCalls(): SubtleCalls;
}

declare global {
  interface Window {
    parleyBrowser: BrowserSuite;
  }
}
