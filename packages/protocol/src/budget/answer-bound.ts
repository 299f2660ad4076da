/**
 * §8: an ANSWER whose compact JSON is short enough is within its budget without measuring its
 * Lens. est(renderLens(body)) never exceeds twice the length of JSON.stringify(body):
 *
 * - each match of the §8 pattern holds at least one code point that is not a space, tab, CR, FF
 *   or VT (`\n {2,}` holds its newline), so est(text) is at most the count of such code points;
 * - the lean notation (§9.1) writes every key, string, number and boolean as its JSON does or
 *   shorter (bare, or quoted exactly as JSON.stringify quotes), null as `-`, and in place of the
 *   quotes, colons, commas and brackets JSON puts around each member it writes at most a colon,
 *   a newline, a comma and a `- ` dash: per member at most 4/3 of what JSON spends;
 * - what only Lens writes once per reply (`items` for a top-level array, a table header's
 *   count, the lean rendering of a body that fits no template) is less than the
 *   `{"kind":"ANSWER","data":` JSON writes around the data;
 * - JSON.stringify counts UTF-16 units, never fewer than code points, and it is what the peer
 *   reads: the Lens of the wire form is what the budget bounds.
 *
 * A reply with `more` has Lens lines of its own and is always measured.
 */
export function answerSurelyFits(
  body: { kind?: unknown; more?: unknown },
  json: string,
  budget: number,
): boolean {
  return body.kind === 'ANSWER' && body.more === undefined && 2 * json.length <= budget;
}
