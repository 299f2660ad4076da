import { DelegateError, RemoteAgent } from '@parley/consensus/net';
import { escapeServiceText, publicKeyString } from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import { writeJsonFile } from '../home/json-file.js';
import { type RosterEntry, readRosterFile, rosterFileValue } from './roster-file.js';

export type RosterFlags = { out?: string };

/** Where each owner's entry came from, for the printout. */
type Collected = { entry: RosterEntry; from: string; fetched: boolean };

const TRUST_NOTE =
  "A key read from a delegate's card is whatever answered at that address: before you rely on " +
  'this roster, compare each fetched key with its owner over a channel you trust (in person, a ' +
  'call). A roster file is as trustworthy as the way it reached you.';

/**
 * `parley consensus roster SOURCE... [--out FILE]`: one roster from the owners' roster entries
 * (`consensus delegate --roster-out`) and, for a delegate URL, its card (trust on first use: the
 * key is pinned, and `require_session` is set when the card offers sessions). The same owner
 * with two keys is refused. Prints each owner's key to compare, and the trust note.
 */
export async function runRoster(
  ctx: CliContext,
  sources: readonly string[],
  flags: RosterFlags,
): Promise<ExitCode> {
  const owners = new Map<string, Collected>();
  for (const source of sources) {
    for (const [owner, collected] of await collect(source)) {
      const seen = owners.get(owner);
      if (seen !== undefined && seen.entry.key !== collected.entry.key) {
        throw new CliError(
          `${JSON.stringify(owner)} has one key in ${seen.from} and another in ${source}; ask them which is theirs`,
        );
      }
      owners.set(owner, {
        ...(seen ?? collected),
        entry: {
          key: collected.entry.key,
          require_session:
            (seen?.entry.require_session ?? false) || collected.entry.require_session,
        },
      });
    }
  }
  const entries = new Map([...owners].map(([owner, c]) => [owner, c.entry]));
  const value = rosterFileValue(entries);
  if (flags.out === undefined) ctx.out(`${JSON.stringify(value, null, 2)}\n`);
  else writeJsonFile(flags.out, value);
  // With the roster on stdout, what a person reads goes to stderr.
  const say = flags.out === undefined ? ctx.err : ctx.out;
  say(`${flags.out === undefined ? 'Roster' : `Wrote ${flags.out}`}: ${owners.size} owners\n`);
  const width = Math.max(...[...owners.keys()].map((o) => o.length));
  for (const [owner, { entry, from, fetched }] of owners) {
    const key = publicKeyString(Buffer.from(entry.key, 'hex'));
    const sessions = entry.require_session ? 'sessions required' : 'verdict/0.1 accepted';
    const origin = fetched ? `fetched from ${from}: compare it with ${owner}` : `from ${from}`;
    const name = escapeServiceText(owner.padEnd(width));
    say(`  ${name}  ${key}  ${sessions}  (${escapeServiceText(origin)})\n`);
  }
  if ([...owners.values()].some((c) => c.fetched)) say(`${TRUST_NOTE}\n`);
  return EXIT.ok;
}

/** The entries of one source: a delegate's card for a URL, else a roster file. */
async function collect(source: string): Promise<Map<string, Collected>> {
  if (!/^https?:\/\//.test(source)) {
    const roster = await readRosterFile(source);
    return new Map(
      Object.entries(roster.keys).map(([owner, key]) => [
        owner,
        {
          entry: { key, require_session: roster.requireSession.includes(owner) },
          from: source,
          fetched: false,
        },
      ]),
    );
  }
  let agent: RemoteAgent;
  try {
    agent = await RemoteAgent.discover(source);
  } catch (error) {
    if (error instanceof DelegateError) throw new CliError(`${source}: ${error.failure.detail}`);
    throw error;
  }
  agent.close();
  if (agent.pubkeyHex === null) {
    throw new CliError(
      `${source}: the delegate for ${agent.owner} does not sign, so it has no key to pin`,
    );
  }
  const entry = { key: agent.pubkeyHex, require_session: agent.speaksSessions };
  return new Map([[agent.owner, { entry, from: agent.url, fetched: true }]]);
}
