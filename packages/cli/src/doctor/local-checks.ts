import { statSync } from 'node:fs';
import { decodeGrant, grantId, publicKeyString, renderTime, roughDuration } from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { describeHome, otherHomeHint } from '../home/describe-home.js';
import { keyFileExists, readKeyFile } from '../home/key-file.js';
import { keyPath } from '../home/local-keys.js';
import { grantExpiry, grantStanding, readWallet, walletPath } from '../home/wallet-file.js';
import { commandLine } from '../shell-quote.js';
import { type DoctorCheck, fail, ok, warn } from './doctor-check.js';

/** The Node major the packages declare in `engines`. */
const NODE_MAJOR = 20;
/** A grant that ends sooner than this is worth renewing now. */
const SOON_SECONDS = 86_400;

export function nodeCheck(version = process.versions.node): DoctorCheck {
  const major = Number(version.split('.')[0]);
  return major >= NODE_MAJOR
    ? ok('node', `Node ${version} (needs ${NODE_MAJOR} or newer)`)
    : fail(
        'node',
        `Node ${version} is older than ${NODE_MAJOR}`,
        `install Node ${NODE_MAJOR} or newer`,
      );
}

/** The home folder and its mode, then each key file: present, owner-only, a valid key. */
export async function keyChecks(ctx: CliContext, self: readonly string[]): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const mode = modeOf(ctx.home);
  if (mode === undefined) {
    return [
      fail(
        'home',
        `${describeHome(ctx)} does not exist`,
        `${otherHomeHint(ctx)}, or ${commandLine([...self, 'keys', 'init'])}`,
      ),
    ];
  }
  checks.push(
    (mode & 0o077) === 0
      ? ok('home', `${describeHome(ctx)}, mode ${octal(mode)}`)
      : warn(
          'home',
          `${ctx.home} is open to group or others (mode ${octal(mode)})`,
          `chmod 700 ${ctx.home}`,
        ),
  );
  for (const role of ['principal', 'agent'] as const) {
    const path = keyPath(ctx.home, role);
    const name = `${role} key`;
    if (!keyFileExists(path)) {
      checks.push(
        fail(
          name,
          `none at ${path}`,
          role === 'agent'
            ? commandLine([...self, 'keys', 'init'])
            : `${otherHomeHint(ctx)}, or ${commandLine([...self, 'keys', 'init'])}`,
        ),
      );
      continue;
    }
    try {
      const key = await readKeyFile(path);
      checks.push(ok(name, `${publicKeyString(key)} in ${path}, mode ${octal(modeOf(path) ?? 0)}`));
    } catch (error) {
      const message = error instanceof CliError ? error.message : String(error);
      const fix = /chmod 600/.test(message)
        ? `chmod 600 ${path}`
        : `replace it: ${commandLine([...self, 'keys', 'init', '--force'])}`;
      checks.push(fail(name, message, fix));
    }
  }
  return checks;
}

/** The wallet: how many grants are usable now, and those about to expire. */
export function grantChecks(
  ctx: CliContext,
  agent: string | undefined,
  self: readonly string[],
): DoctorCheck[] {
  const wallet = readWallet(ctx.home);
  const now = ctx.now();
  const counts = new Map<string, number>();
  const checks: DoctorCheck[] = [];
  for (const token of wallet.grants) {
    const standing = grantStanding(wallet, token, agent, now);
    counts.set(standing, (counts.get(standing) ?? 0) + 1);
    if (standing !== 'usable') continue;
    const exp = grantExpiry(decodeGrant(token));
    if (exp !== undefined && exp - now < SOON_SECONDS) {
      checks.push(
        warn(
          `grant ${grantId(token)}`,
          `expires ${renderTime(exp)}, in ${roughDuration(exp - now)}`,
          `issue a new one: ${commandLine([...self, 'grant', '--svc', 'SERVICE', '--can', 'PATTERN'])}`,
        ),
      );
    }
  }
  const usable = counts.get('usable') ?? 0;
  const others = [...counts].filter(([s]) => s !== 'usable').map(([s, n]) => `${n} ${s}`);
  const detail = `${usable} usable in ${walletPath(ctx.home)}${others.length === 0 ? '' : ` (also ${others.join(', ')})`}`;
  checks.unshift(
    usable > 0
      ? ok('grants', detail)
      : fail(
          'grants',
          detail,
          commandLine([...self, 'grant', '--svc', 'SERVICE', '--can', 'PATTERN']),
        ),
  );
  return checks;
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

function octal(mode: number): string {
  return mode.toString(8).padStart(3, '0');
}
