import { type ConsentRequest, consentLines, renderConsent } from '@parley/protocol';
import { CliError } from '../cli-error.js';
import { ControllingTerminal } from './controlling-terminal.js';

const YES = /^(y|yes)$/i;

/**
 * §6.6: shows what approving signs on the controlling terminal (`renderConsent`, the one consent
 * rendering every Parley front end shows) and asks yes/no there; true only for `y` or `yes`.
 * `now` is unix seconds.
 */
export function askConsent(request: ConsentRequest, now: number): boolean {
  let lines: string[];
  try {
    lines = consentLines(renderConsent(request, now));
  } catch (error) {
    // A proposal whose hash covers it can still hold what no proposal may (§5.1 shapes).
    throw new CliError(
      `refusing consent request for ${request.consent.proposal}: its proposal cannot be shown (${(error as Error).message}); nothing was signed`,
    );
  }
  const terminal = ControllingTerminal.open();
  try {
    terminal.write(['', ...lines, '', ''].join('\n'));
    return YES.test(terminal.ask('Approve? [y/N] '));
  } finally {
    terminal.close();
  }
}
