import { ElicitError } from '../errors.js';

/**
 * Only the participant may confirm or revise their sheet: the name must match and the token
 * minted at interview start must be presented (`elicit.py`: a guessable participant id alone
 * is never enough). The token is compared in constant time and never named in the error.
 */
export function checkParticipant(
  owner: { readonly participant: string; readonly token: string },
  claimed: { readonly participant?: unknown; readonly token?: unknown },
  act: 'confirm' | 'revise',
): void {
  if (claimed.participant !== owner.participant) {
    throw new ElicitError('not_participant', `only the participant can ${act} their own sheet`);
  }
  if (
    owner.token === '' ||
    typeof claimed.token !== 'string' ||
    !sameText(claimed.token, owner.token)
  ) {
    throw new ElicitError(
      'bad_token',
      `the capability token does not match: to ${act} a sheet takes the token issued at interview start, not just the participant's name`,
    );
  }
}

/** Equal strings, compared without an early exit. */
function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a.charCodeAt(i) ^ b.charCodeAt(i)) | 0;
  return diff === 0;
}
