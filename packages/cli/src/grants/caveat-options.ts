import {
  type Caveat,
  RISK_LEVELS,
  type Risk,
  readApprovals,
  VERBS,
  type Verb,
} from '@parley/protocol';
import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { parseLimit } from './money-option.js';
import { parseTime } from './time-option.js';

/** The caveat flags of `parley grant` and `parley delegate`, as commander hands them over. */
export type CaveatFlags = {
  svc?: string[];
  verbs?: string[];
  can?: string[];
  exp?: string;
  nbf?: string;
  per?: string;
  spend?: string;
  risk?: string;
  only?: string;
  approvals?: string[];
  need?: string;
};

/** Grants expire unless told otherwise: v1 has no revocation (§11), so lifetimes stay short. */
export const DEFAULT_GRANT_LIFETIME = '7d';

/**
 * Collects a repeatable flag whose value is text that may hold commas itself (a rule such as
 * `day in mon, tue`): `--rule a --rule "b, c"` → [a, "b, c"].
 */
export function collectEach(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Collects a repeatable, comma-separated flag: `--svc a --svc b,c` → [a, b, c]. */
export function collectList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  ];
}

/** Adds the caveat flags to a command. */
export function addCaveatFlags(command: Command): Command {
  return command
    .option('--svc <ids>', 'services it is good at (repeatable, comma-separated)', collectList)
    .option('--can <patterns>', 'capability patterns: name or prefix* (repeatable)', collectList)
    .option('--verbs <verbs>', 'verbs it allows: ASK,INTENT,COMMIT,UNDO,EXPAND', collectList)
    .option(
      '--exp <when>',
      `expiry: 30m, 12h, 7d, unix seconds, a date, or "never"`,
      DEFAULT_GRANT_LIFETIME,
    )
    .option('--nbf <when>', 'not valid before: a duration from now, unix seconds or a date')
    .option('--per <amount:cur>', 'most one COMMIT may cost, e.g. 30.00:USD')
    .option('--spend <amount:cur>', 'most all COMMITs together may cost, e.g. 100.00:USD')
    .option('--risk <level>', 'highest proposal risk it may commit: low, medium or high')
    .option('--only <hash>', 'only the COMMIT of the proposal with this hash')
    .option(
      '--approvals <keys>',
      'each COMMIT needs the consent of --need of these keys (repeatable, comma-separated; docs/extensions.md §E4)',
      collectList,
    )
    .option('--need <n>', 'with --approvals: how many of them must approve (default all)');
}

/** §6.3: the caveats the flags ask for, in a fixed order; CliError for a malformed flag. */
export function caveatsFrom(flags: CaveatFlags, now: number): Caveat[] {
  const caveats: Caveat[] = [];
  if (flags.svc !== undefined) caveats.push({ svc: nonEmpty(flags.svc, '--svc') });
  if (flags.verbs !== undefined) caveats.push({ verbs: flags.verbs.map(toVerb) });
  if (flags.can !== undefined) caveats.push({ can: nonEmpty(flags.can, '--can') });
  if (flags.exp !== undefined && flags.exp !== 'never') {
    caveats.push({ exp: parseTime(flags.exp, '--exp', now) });
  }
  if (flags.nbf !== undefined) caveats.push({ nbf: parseTime(flags.nbf, '--nbf', now) });
  if (flags.per !== undefined) caveats.push({ per: parseLimit(flags.per, '--per') });
  if (flags.spend !== undefined) caveats.push({ spend: parseLimit(flags.spend, '--spend') });
  if (flags.risk !== undefined) caveats.push({ risk: toRisk(flags.risk) });
  if (flags.only !== undefined) caveats.push({ only: flags.only });
  if (flags.approvals !== undefined) caveats.push(approvalsCaveat(flags.approvals, flags.need));
  else if (flags.need !== undefined) throw new CliError('--need goes with --approvals');
  return caveats;
}

/** §E4: `{"approvals": {"of": keys, "need": n}}`, checked as a service would read it. */
function approvalsCaveat(keys: string[], needText: string | undefined): Caveat {
  const need = needText === undefined ? keys.length : Number(needText);
  const read = readApprovals({ of: keys, need });
  if ('malformed' in read) throw new CliError(`--approvals/--need: ${read.malformed}`);
  return { approvals: read } as unknown as Caveat;
}

function nonEmpty(list: string[], flag: string): string[] {
  if (list.length === 0) throw new CliError(`${flag} needs at least one value`);
  return list;
}

function toVerb(text: string): Verb {
  const verb = text.toUpperCase();
  if (!(VERBS as readonly string[]).includes(verb)) {
    throw new CliError(`--verbs: "${text}" is not a verb; use ${VERBS.join(', ')}`);
  }
  return verb as Verb;
}

function toRisk(text: string): Risk {
  if (!(RISK_LEVELS as readonly string[]).includes(text)) {
    throw new CliError(`--risk takes ${RISK_LEVELS.join(', ')} (got "${text}")`);
  }
  return text as Risk;
}
