/** The links minted by one step: whole URLs, handed over once. */
export interface IssuedLinks {
  readonly organizer?: string;
  /** Party id -> link. */
  readonly parties: Readonly<Record<string, string>>;
}

/**
 * The URL a holder opens: the token rides in the fragment (`/cases/#t=…`), so it is never sent
 * in a request line, a server log or a Referer; the page sends it in a header.
 */
export function linkUrl(base: string, token: string): string {
  return `${base.replace(/#.*$/, '')}#t=${token}`;
}

/** The token of a link URL or of a bare token; null when there is none. */
export function tokenOfLink(link: string): string | null {
  const match = /^(?:\S*#t=)?([A-Za-z0-9_-]{43})$/.exec(link.trim());
  return match === null ? null : (match[1] as string);
}
