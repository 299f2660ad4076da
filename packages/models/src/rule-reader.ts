import type { AttributeSummary, ElicitRequest, PromptId, PyValue } from '@parley/consensus';

/**
 * The scripted elicitor's reading of answers when no model is configured: fixed rules, no
 * model, no network, for offline demos. It finds the options' attribute names and values in
 * the person's words; it proposes red lines only from the answers about what is unacceptable
 * and what costs are acceptable, preferences from the desired outcome and priorities, and asks
 * (never guesses) where a limit is named without a number. What it proposes is checked like a
 * model's reply, and nothing binds until the person confirms it.
 */
export function readByRules(request: ElicitRequest): Record<string, PyValue[]> {
  const hard: PyValue[] = [];
  const utility: PyValue[] = [];
  const unclear: PyValue[] = [];
  for (const [prompt, text] of Object.entries(request.answers) as [PromptId, string][]) {
    const limits = prompt === 'unacceptable' || prompt === 'acceptable_costs';
    const wishes = prompt === 'desired_outcome' || prompt === 'priorities';
    let rank = 0;
    for (const clause of clausesOf(text)) {
      // In the order the person names them: in priorities, the first named weighs most.
      const found = request.attributes
        .map((attribute) => ({
          attribute,
          named: mentions(clause, attribute),
          value: valueIn(clause, attribute),
        }))
        .filter((f) => f.named >= 0 || f.value !== undefined)
        .sort((a, b) => firstAt(a) - firstAt(b));
      for (const { attribute, named, value } of found) {
        const source = { source_prompt_id: prompt };
        if (limits) {
          const limit = named >= 0 ? limitIn(clause, prompt === 'unacceptable') : null;
          if (limit !== null && isNumeric(attribute)) {
            hard.push({ attr: attribute.name, op: limit.op, value: limit.value, ...source });
          } else if (named >= 0 && isBoolean(attribute) && prompt === 'unacceptable') {
            // "anything not reviewed is out": the red line is that it holds.
            if (NEGATION.test(clause))
              hard.push({ attr: attribute.name, op: '==', value: true, ...source });
            else
              unclear.push({
                question: `Must ${attribute.name} be true or false for you?`,
                ...source,
              });
          } else if (value !== undefined && prompt === 'unacceptable') {
            hard.push({ attr: attribute.name, op: '!=', value: value.value, ...source });
          } else if (named >= 0 && isNumeric(attribute)) {
            unclear.push({
              question: `You mention ${attribute.name} ("${clause.slice(0, 80)}"), but no limit: what is it?`,
              ...source,
            });
          }
        } else if (wishes) {
          const weight = prompt === 'priorities' ? Math.max(1, 3 - rank++) : 1;
          const way = named >= 0 && isNumeric(attribute) ? directionIn(clause) : null;
          if (way !== null && attribute.min !== null && attribute.max !== null) {
            utility.push({
              attr: attribute.name,
              weight,
              direction: way,
              lo: attribute.min,
              hi: attribute.max,
              ...source,
            });
          } else if (value !== undefined && !NEGATION.test(clause)) {
            utility.push({ attr: attribute.name, weight, prefer: value.value, ...source });
          }
        }
      }
    }
  }
  return { claims: [], hard, utility, unclear };
}

const NEGATION = /\b(no|not|never|without|nothing)\b/;
const UP_TO =
  /\b(?:at most|no more than|up to|maximum(?: of)?|max|not (?:more|over|above))\s+(?:than\s+)?\$?(-?\d+(?:\.\d+)?)/;
const AT_LEAST =
  /\b(?:at least|no less than|minimum(?: of)?|min|not (?:less|under|below))\s+(?:than\s+)?\$?(-?\d+(?:\.\d+)?)/;
const ABOVE = /\b(?:over|above|more than|exceeding|higher than|beyond)\s+\$?(-?\d+(?:\.\d+)?)/;
const BELOW = /\b(?:under|below|less than|fewer than|lower than)\s+\$?(-?\d+(?:\.\d+)?)/;
const LOWER =
  /\b(low|lower|lowest|less|least|fewer|small|smaller|cheap|cheaper|cheapest|short|shorter|min)\b/;
const HIGHER = /\b(high|higher|highest|more|most|large|larger|big|bigger|long|longer|max|best)\b/;

function clausesOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[.;!?\n,]+|\s+(?:and|but|then)\s+/)
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

function isNumeric(attribute: AttributeSummary): boolean {
  return attribute.kinds.length === 1 && attribute.kinds[0] === 'number';
}

function isBoolean(attribute: AttributeSummary): boolean {
  return attribute.kinds.length === 1 && attribute.kinds[0] === 'boolean';
}

/** Where the clause names the attribute (`warranty_months` as "warranty months" too), or -1. */
function mentions(clause: string, attribute: AttributeSummary): number {
  const words = attribute.name.toLowerCase().replace(/[_-]+/g, ' ').trim();
  return words === '' ? -1 : clause.search(new RegExp(`\\b${escapeRegExp(words)}s?\\b`));
}

/** A text value of the attribute the clause names as a word, and where. */
function valueIn(
  clause: string,
  attribute: AttributeSummary,
): { value: PyValue; at: number } | undefined {
  for (const value of attribute.values) {
    if (typeof value !== 'string' || value.length < 2) continue;
    const at = clause.search(new RegExp(`\\b${escapeRegExp(value.toLowerCase())}\\b`));
    if (at >= 0) return { value, at };
  }
  return undefined;
}

function firstAt(found: { named: number; value: { at: number } | undefined }): number {
  const places = [found.named, found.value?.at ?? -1].filter((at) => at >= 0);
  return Math.min(...places);
}

/**
 * A numeric limit in the clause. In what is unacceptable, "over 900" rules out what is above,
 * so the red line is `<= 900`; elsewhere "up to 900" states the same line directly.
 */
function limitIn(clause: string, unacceptable: boolean): { op: string; value: number } | null {
  const number = (match: RegExpExecArray | null) => (match === null ? null : Number(match[1]));
  const upTo = number(UP_TO.exec(clause));
  if (upTo !== null) return { op: '<=', value: upTo };
  const atLeast = number(AT_LEAST.exec(clause));
  if (atLeast !== null) return { op: '>=', value: atLeast };
  const above = number(ABOVE.exec(clause));
  if (above !== null) return { op: unacceptable ? '<=' : '>', value: above };
  const below = number(BELOW.exec(clause));
  if (below !== null) return { op: unacceptable ? '>=' : '<', value: below };
  return null;
}

function directionIn(clause: string): 'lower' | 'higher' | null {
  if (LOWER.test(clause)) return 'lower';
  if (HIGHER.test(clause)) return 'higher';
  return null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
