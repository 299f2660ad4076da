import type { Risk, Verb } from '../frames.js';
import type { JsonValue } from '../json.js';

/** §6.3: a spend or per-commit limit in minor units. */
export type Limit = {
  max: number;
  currency: string;
};

/** §6.3: the caveats of v1, each a single-key object. */
export type Caveat =
  | { svc: string[] }
  | { verbs: Verb[] }
  | { can: string[] }
  | { exp: number }
  | { nbf: number }
  | { per: Limit }
  | { spend: Limit }
  | { risk: Risk }
  | { only: string };

/** §6.3: the caveat names v1 knows; anything else fails closed. */
export const CAVEAT_NAMES = [
  'svc',
  'verbs',
  'can',
  'exp',
  'nbf',
  'per',
  'spend',
  'risk',
  'only',
] as const;
export type CaveatName = (typeof CAVEAT_NAMES)[number];

/** §6.2: the payload of the root block, signed by `iss`. */
export type RootPayload = {
  iss: string;
  sub: string;
  caveats: JsonValue[];
  iat: number;
  nonce: string;
};

/** §6.2: the payload of a delegation block, signed by the previous block's `sub`. */
export type DelegationPayload = {
  prev: string;
  sub: string;
  caveats: JsonValue[];
  iat: number;
};

/** §6.2: one block: a payload and the b64url signature of utf8(canonical(p)). */
export type Block<P extends RootPayload | DelegationPayload = RootPayload | DelegationPayload> = {
  p: P;
  s: string;
};

/** §6.2: a grant is a non-empty list of blocks, the root first. */
export type Grant = [Block<RootPayload>, ...Block<DelegationPayload>[]];
