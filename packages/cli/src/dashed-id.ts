/**
 * A grant id is the base64url SHA-256 of its root block (§6.2), and a case link's token is 32
 * random bytes in base64url: 43 characters either way, and one in 64 begins with "-". Commander
 * reads such an argument as an unknown option, so `parley revoke ID` fails for it. No option of
 * ours has that shape, so the hint below can name the fix with confidence: the id goes last,
 * after `--`.
 */
const DASHED_ID = /^-[A-Za-z0-9_-]{42}$/;

/** The advice for an unknown-option failure caused by a dash-led id in `args`, if there is one. */
export function dashedIdHint(args: readonly string[]): string | undefined {
  const end = args.indexOf('--');
  const id = (end === -1 ? args : args.slice(0, end)).find((arg) => DASHED_ID.test(arg));
  if (id === undefined) return undefined;
  const command = args.filter((arg) => arg !== id && !arg.startsWith('-')).slice(0, 1);
  return (
    `${id} is an id that begins with "-", which reads as an option; ` +
    `put it last, after --: parley ${[...command, '…'].join(' ')} -- ${id}`
  );
}
