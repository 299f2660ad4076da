import { isPyObject, type PyObject, type PyValue, pyDumps } from '@parley/consensus';
import { CaseError } from './errors.js';
import { MAX_CASE_OPTIONS } from './limits.js';

/**
 * The options of a case as plain data (module 05): a list of objects, or a bounded generator
 * `{"attributes": {name: [value, ...], ...}}` whose options are every combination, in the order
 * the attributes and values are written. Generation is refused before it starts when the
 * combinations would pass MAX_CASE_OPTIONS, and duplicates are refused (module 05: removed
 * before scoring; here the initiator is told, since a list with a duplicate is a mistake).
 */
export function readCaseOptions(input: PyValue | undefined): PyObject[] {
  const options = Array.isArray(input)
    ? (input as readonly PyValue[])
    : isPyObject(input) && Object.hasOwn(input, 'attributes')
      ? generateOptions(input.attributes)
      : fail('options must be a list of objects, or {"attributes": {name: [values]}}');
  if (options.length === 0) fail('a case needs at least one option');
  if (options.length > MAX_CASE_OPTIONS) fail(`a case takes at most ${MAX_CASE_OPTIONS} options`);
  const seen = new Set<string>();
  options.forEach((option, i) => {
    if (!isPyObject(option) || Object.keys(option).length === 0) {
      fail(`option ${i + 1} must be an object with at least one attribute`);
    }
    const text = pyDumps(option, { sortKeys: true });
    if (seen.has(text)) fail(`option ${i + 1} repeats an earlier option`);
    seen.add(text);
  });
  return options as PyObject[];
}

function generateOptions(attributes: PyValue | undefined): PyObject[] {
  if (!isPyObject(attributes) || Object.keys(attributes).length === 0) {
    fail('attributes must be an object of name -> list of values');
  }
  let count = 1;
  for (const [name, values] of Object.entries(attributes)) {
    if (!Array.isArray(values) || values.length === 0) {
      fail(`attribute ${JSON.stringify(name.slice(0, 40))} needs a non-empty list of values`);
    }
    if (
      (values as readonly PyValue[]).some(
        (v) => typeof v === 'object' && v !== null && !isScalarObject(v),
      )
    ) {
      fail(
        `attribute ${JSON.stringify(name.slice(0, 40))} takes plain values (text, numbers, true/false)`,
      );
    }
    count *= (values as readonly PyValue[]).length;
    if (count > MAX_CASE_OPTIONS) {
      fail(`the attributes make more than ${MAX_CASE_OPTIONS} combinations; list fewer values`);
    }
  }
  let out: Record<string, PyValue>[] = [{}];
  for (const [name, values] of Object.entries(attributes)) {
    out = out.flatMap((partial) =>
      (values as readonly PyValue[]).map((value) => ({ ...partial, [name]: value })),
    );
  }
  return out;
}

/** A PyFloat is an object to `typeof`, and still a plain number. */
function isScalarObject(value: object): boolean {
  return !Array.isArray(value) && !isPyObject(value);
}

function fail(message: string): never {
  throw new CaseError('bad_input', message);
}
