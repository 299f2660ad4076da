import type { ErrorReplyBody } from '../frames.js';
import { compactJson } from './lean.js';
import { renderDuration } from './time.js';
import type { LensWriter } from './writer.js';

/**
 * §9.2 ERROR: `✗ {code}: {message}`, then only the lines whose fields are present: one `fix:`
 * per fix, `need:`, `consent:` and `retry in:`. A `retry` of null means no hint and shows no line.
 */
export function writeError(w: LensWriter, body: ErrorReplyBody): void {
  w.line(0, `✗ ${body.code}: ${body.message}`);
  for (const fix of body.fix ?? []) {
    const params = fix.params === undefined ? '' : ` → params ${compactJson(fix.params)}`;
    w.line(1, `fix: ${fix.say}${params}`);
  }
  if (body.need !== undefined) w.line(1, `need: ${compactJson(body.need)}`);
  if (body.consent !== undefined) {
    w.line(1, `consent: principal must approve ${body.consent.hash} (${body.consent.summary})`);
  }
  if (typeof body.retry === 'number') w.line(1, `retry in: ${renderDuration(body.retry)}`);
}
