import type { ClarifyBody } from '../frames.js';
import type { LensWriter } from './writer.js';

/** §9.2 CLARIFY: `? {question}`, then the options numbered from 1 at indent 1. */
export function writeClarify(w: LensWriter, body: ClarifyBody): void {
  w.line(0, `? ${body.question}`);
  body.options.forEach((option, i) => {
    w.line(1, `${i + 1}. ${option.label}`);
  });
}
