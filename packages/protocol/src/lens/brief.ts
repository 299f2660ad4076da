import type { BriefBody } from '../frames.js';
import { renderParams } from './params.js';
import type { LensWriter } from './writer.js';

/**
 * §9.2 BRIEF: `# {name} ({id})`, the service summary, then one line per capability,
 * `{kind} {name}({params}) — {summary} [risk:{risk}]`. Missing (or empty) summaries omit their
 * line or suffix.
 */
export function writeBrief(w: LensWriter, body: BriefBody): void {
  const { service } = body;
  w.line(0, `# ${service.name} (${service.id})`);
  if (service.summary) w.line(0, service.summary);
  for (const capability of body.capabilities) {
    let line = `${capability.kind} ${capability.name}${renderParams(capability.params)}`;
    if (capability.summary) line += ` — ${capability.summary}`;
    if (capability.risk) line += ` [risk:${capability.risk}]`;
    w.line(0, line);
  }
}
