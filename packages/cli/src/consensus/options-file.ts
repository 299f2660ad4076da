import { isPyObject, type PyObject } from '@parley/consensus';
import { CliError } from '../cli-error.js';
import { readPyJsonFile } from '../text-file.js';

/**
 * The shared options everyone decides on: a JSON list of option objects, or any object with
 * `options` (and an optional `title`), such as a recipe. Read with Python's number typing.
 */
export async function readOptionsFile(
  path: string,
): Promise<{ title: string | null; options: PyObject[] }> {
  const value = await readPyJsonFile(path);
  const options = Array.isArray(value) ? value : isPyObject(value) ? value.options : undefined;
  const title = isPyObject(value) && typeof value.title === 'string' ? value.title : null;
  if (!Array.isArray(options) || options.length === 0) {
    throw new CliError(
      `${path} must be a list of options, or an object with a non-empty "options" list`,
    );
  }
  const bad = options.findIndex((o) => !isPyObject(o));
  if (bad >= 0) throw new CliError(`${path}: option ${bad + 1} is not a JSON object`);
  return { title, options: options as PyObject[] };
}
