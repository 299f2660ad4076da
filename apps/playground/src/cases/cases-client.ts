/** The cases API of the page's own origin (`/cases/api/…`), opened by the holder's link. */

export interface PartyShown {
  name: string;
  sheet: 'none' | 'draft' | 'confirmed';
  answer: 'none' | 'accepted' | 'rejected';
}

export interface DraftShown {
  version: string;
  rendered: string;
  claims: string[];
  hard: {
    id: string;
    constraint: { attr: string; op: string; value: unknown };
    source: string | null;
  }[];
  utility: {
    id: string;
    term: {
      attr: string;
      weight: number;
      prefer: unknown;
      direction: string | null;
      lo: number | null;
      hi: number | null;
    };
    source: string | null;
  }[];
  clarifications: { id: string; question: string }[];
  rejected: { reason: string; raw: string }[];
}

export interface EvidenceShown {
  id: string;
  filename: string;
  type: string;
  size: number;
  sha256: string;
  shared?: boolean;
  owner?: string;
}

export interface CaseView {
  id: string;
  title: string;
  decision: string;
  options: Record<string, unknown>[];
  organizer: string;
  state:
    | 'eliciting'
    | 'ratifying'
    | 'revising'
    | 'agreed'
    | 'rejected'
    | 'deadlocked'
    | 'cancelled';
  round: number;
  version: number;
  parties: PartyShown[];
  proposal: {
    round: number;
    status: 'agreed' | 'deadlock';
    decision: Record<string, unknown> | null;
    transcript_sha256: string;
  } | null;
  disclosed: EvidenceShown[];
  receipt: string | null;
  you?: {
    name: string;
    sheet: PartyShown['sheet'];
    answer: PartyShown['answer'];
    prompts: { id: string; question: string }[];
    answers: Record<string, string>;
    draft: DraftShown | null;
    /** `options_left`: what the person's own confirmed limits leave of the options (null: none). */
    sheet_confirmed: { version: string; rendered: string; options_left: number | null } | null;
    notes: string[];
    evidence: EvidenceShown[];
  };
  links?: { party: string; name: string; live: boolean; expires_at: number | null }[];
  outbox?: {
    id: string;
    to: string;
    party: string;
    kind: string;
    subject: string;
    text: string;
    link: string | null;
  }[];
}

/** A refusal of the API: its code and its one sentence. */
export class CaseRefusal extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** The token of this page's link: the fragment `#t=…` (never sent to the server in a URL). */
export function linkToken(hash: string = location.hash): string | null {
  const match = /^#t=([A-Za-z0-9_-]{43})$/.exec(hash);
  return match === null ? null : (match[1] as string);
}

async function answerOf(response: Response): Promise<unknown> {
  const body = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
  if (!response.ok) {
    throw new CaseRefusal(
      body.error ?? 'error',
      body.message ?? `the server answered ${response.status}`,
    );
  }
  return body;
}

/** GET or POST one route with the link's token. */
/** A fresh idempotency key: 32 random bytes as base64url (256 bits; the API asks for 128+). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export async function callCase(
  route: string,
  token: string | null,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<unknown> {
  const response = await fetch(`/cases/api/${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...extraHeaders,
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return answerOf(response);
}

/** Downloads a file the API serves to this link's holder (receipt, PDF, evidence). */
export async function downloadCase(route: string, token: string, filename: string): Promise<void> {
  const response = await fetch(`/cases/api/${route}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) await answerOf(response);
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** An option as plain words: `rent 950, weeks 4`. */
export function optionWords(option: Record<string, unknown> | null): string {
  if (option === null) return 'none';
  return Object.entries(option)
    .map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}
