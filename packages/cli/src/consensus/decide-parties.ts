import { type PyObject, type PyValue, partyToDict, pyDumps } from '@parley/consensus';
import { CliError } from '../cli-error.js';
import { readPyJsonFile, readTextFile } from '../text-file.js';
import { readOptionsFile } from './options-file.js';
import { readParty } from './party-file.js';

export type DecideFlags = { options?: string; partyFile?: string[]; json?: boolean };

/**
 * The spec `parley decide` runs: SPEC as it is, or with each `--party-file` added to its
 * parties; or, with `--options FILE`, those options and the party files alone. A party file's
 * owner already in the spec is refused (as duplicate owners are), never silently replaced.
 */
export async function specText(spec: string | undefined, flags: DecideFlags): Promise<string> {
  const files = flags.partyFile ?? [];
  if (spec !== undefined && flags.options !== undefined) {
    throw new CliError('give a spec or --options, not both');
  }
  if (spec !== undefined && files.length === 0) return readTextFile(spec);
  if (spec === undefined && flags.options === undefined) {
    throw new CliError('give a spec file, or --options FILE with --party-file for each party');
  }
  const base: { title: string; options: readonly PyObject[]; parties: readonly PyValue[] } =
    spec !== undefined ? await specParts(spec) : await optionParts(flags.options as string);
  const added = [];
  for (const file of files)
    added.push(partyToDict(readParty(await readTextFile(file), file, undefined)));
  return pyDumps({
    title: base.title,
    options: base.options,
    parties: [...base.parties, ...added],
  });
}

async function specParts(path: string) {
  const value = await readPyJsonFile(path);
  const object = (
    typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}
  ) as PyObject;
  return {
    title: typeof object.title === 'string' ? object.title : '',
    options: (Array.isArray(object.options) ? object.options : []) as PyObject[],
    parties: (Array.isArray(object.parties) ? object.parties : []) as PyValue[],
  };
}

async function optionParts(path: string) {
  const { title, options } = await readOptionsFile(path);
  return { title: title ?? path, options, parties: [] };
}
