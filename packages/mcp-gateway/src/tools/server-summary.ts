import type { Implementation } from '@modelcontextprotocol/client';

/** §4.1: a BRIEF's service summary is one line. */
const MAX_SUMMARY = 200;

/**
 * The service's one-line summary (§4.1) when the configuration gives none: the server's own
 * `serverInfo.description` (MCP 2025-11-25), else the first sentence of its `instructions`.
 * Instructions are often Markdown: headings, list markers and emphasis marks are not prose, so a
 * heading never runs into the sentence after it (`# Everything Server` + `Audience: …`).
 */
export function serverSummary(
  server: Implementation | undefined,
  instructions: string | undefined,
): string | undefined {
  const described = firstSentence(server?.description ?? '');
  if (described !== '') return described;
  const prose = (instructions ?? '')
    .split('\n')
    .filter((line) => !/^\s*(#{1,6}\s|```|---+\s*$|===+\s*$)/.test(line))
    .map((line) => line.replace(/^\s*(?:[-*+>]|\d+[.)])\s+/, '').replace(/[*`]+/g, ''))
    .join('\n');
  const sentence = firstSentence(prose);
  return sentence === '' ? undefined : sentence;
}

/** The first sentence of a text, on one line, at most 200 characters. */
export function firstSentence(text: string): string {
  // A blank line ends a paragraph, and so a sentence that lacks its full stop.
  const paragraph = text.trim().split(/\n\s*\n/)[0] ?? '';
  const line = paragraph.replace(/\s+/g, ' ').trim();
  const sentence = /^.*?[.!?](?=\s|$)/.exec(line)?.[0] ?? line;
  return sentence.slice(0, MAX_SUMMARY);
}
