import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  type PartySpec,
  type PyObject,
  partyToDict,
  publicKeyHex,
  pyDumps,
} from '@parley/consensus';
import { generateKeyPair } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { writeKeyFile } from '../home/key-file.js';
import { writeTextFile } from '../text-file.js';

/** A delegate running as its own OS process, started by this one. */
export interface DelegateChild {
  readonly owner: string;
  readonly url: string;
  readonly pid: number;
  readonly token: string;
  readonly pubkeyHex: string;
  readonly process: ChildProcess;
}

/** The variable each child reads its bearer token from: never on its command line. */
const TOKEN_ENV = 'PARLEY_DELEGATE_TOKEN';
const START_LIMIT_MS = 30_000;
const STOP_LIMIT_MS = 5000;

/**
 * Starts `parley consensus delegate` once per party, each its own process on a free port of
 * 127.0.0.1, with only its own party in its file, the options on the table (it answers about no
 * others), its own key and its own token (all in `folder`, which the caller keeps private and
 * removes). Resolves once every one has printed its address; if one cannot start, those started
 * are stopped and CliError says which.
 */
export async function startDelegateChildren(
  parties: readonly PartySpec[],
  options: readonly PyObject[],
  folder: string,
  log: (line: string) => void,
): Promise<DelegateChild[]> {
  const optionsFile = join(folder, 'options.json');
  writeTextFile(optionsFile, `${pyDumps([...options], { indent: 2 })}\n`);
  const started = await Promise.allSettled(
    parties.map((party, i) => startOne(party, i, optionsFile, folder, log)),
  );
  const children = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed !== undefined) {
    await stopDelegateChildren(children);
    throw failed.reason;
  }
  return children;
}

async function startOne(
  party: PartySpec,
  i: number,
  optionsFile: string,
  folder: string,
  log: (line: string) => void,
): Promise<DelegateChild> {
  const partyFile = join(folder, `party-${i}.json`);
  const keyFile = join(folder, `key-${i}.json`);
  writeTextFile(partyFile, `${pyDumps(partyToDict(party), { indent: 2 })}\n`);
  const key = await generateKeyPair();
  writeKeyFile(keyFile, 'principal', key, true);
  const token = randomBytes(16).toString('hex');
  // The same node, loader flags and entry script as this process: the same parley.
  const args = [
    ...process.execArgv,
    process.argv[1] ?? '',
    'consensus',
    'delegate',
    partyFile,
    '--port',
    '0',
    '--key',
    keyFile,
    '--options',
    optionsFile,
    '--token-env',
    TOKEN_ENV,
    '--json',
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, [TOKEN_ENV]: token, PARLEY_HOME: folder },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    // What a delegate says (warnings, a sheet that threw) is for its owner: passed on, marked.
    for (const line of chunk.split('\n')) if (line !== '') log(`[${party.owner}] ${line}`);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const fail = (why: string) => {
      clearTimeout(limit);
      child.kill('SIGKILL');
      reject(
        new CliError(
          `the delegate for ${party.owner} ${why}${stderr === '' ? '' : `: ${stderr.trim()}`}`,
        ),
      );
    };
    const limit = setTimeout(
      () => fail(`did not start within ${START_LIMIT_MS / 1000} s`),
      START_LIMIT_MS,
    );
    child.once('error', (error) => fail(`could not start (${error.message})`));
    child.once('exit', (code) => fail(`exited (code ${code}) before serving`));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const newline = out.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(limit);
      child.removeAllListeners('exit');
      try {
        resolve(String((JSON.parse(out.slice(0, newline)) as { url: string }).url));
      } catch {
        fail('printed something other than its address');
      }
    });
  });
  return {
    owner: party.owner,
    url,
    pid: child.pid as number,
    token,
    pubkeyHex: publicKeyHex(key),
    process: child,
  };
}

/**
 * Ends each child by its pid (SIGTERM, then SIGKILL if it has not exited within 5 s) and waits
 * until every one is gone.
 */
export async function stopDelegateChildren(children: readonly DelegateChild[]): Promise<void> {
  await Promise.all(
    children.map(
      ({ process: child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) {
            resolve();
            return;
          }
          const force = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
          child.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}
