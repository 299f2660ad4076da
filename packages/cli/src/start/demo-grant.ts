import {
  type Caveat,
  decodeGrant,
  encodeGrant,
  grantPrincipal,
  issueGrant,
  type JsonValue,
  type KeyPair,
  publicKeyString,
  readCaveat,
} from '@parley/protocol';
import { grantExpiry, readGrantTokens, saveGrantToken } from '../home/wallet-file.js';

/** How long the grant `npm start` gives the local agent lasts. */
const DEMO_GRANT_SECONDS = 7 * 86_400;
/** The agent may spend this much per order without asking (minor units): bigger orders ask. */
export const DEMO_PER_ORDER = { max: 3000, currency: 'USD' } as const;

/**
 * Makes sure the local agent holds an unexpired grant from the local principal for every one of
 * `services`, issuing one (svc, can, per, exp) if not. Returns whether it issued one.
 */
export async function ensureDemoGrant(
  home: string,
  principal: KeyPair,
  agent: string,
  services: readonly { id: string; can: string }[],
  now: number,
): Promise<boolean> {
  const issuer = publicKeyString(principal);
  const ids = services.map((s) => s.id);
  const covered = readGrantTokens(home).some((token) => {
    try {
      const grant = decodeGrant(token);
      const exp = grantExpiry(grant);
      const last = grant[grant.length - 1];
      return (
        grantPrincipal(grant) === issuer &&
        last?.p.sub === agent &&
        (exp === undefined || exp > now + 3600) &&
        ids.every((id) => svcOf(grant[0].p.caveats)?.includes(id) === true)
      );
    } catch {
      return false;
    }
  });
  if (covered) return false;
  const caveats: Caveat[] = [
    { svc: ids },
    { can: services.map((s) => s.can) },
    { per: { ...DEMO_PER_ORDER } },
    { exp: now + DEMO_GRANT_SECONDS },
  ];
  saveGrantToken(
    home,
    encodeGrant(await issueGrant(principal, { sub: agent, caveats, iat: now })),
    now,
  );
  return true;
}

function svcOf(caveats: readonly JsonValue[]): string[] | undefined {
  for (const caveat of caveats) {
    const read = readCaveat(caveat);
    if ('name' in read && read.name === 'svc') return read.value;
  }
  return undefined;
}
