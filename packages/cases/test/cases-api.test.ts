import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readReceipt, verifyReceipt } from '@parley/consensus';
import { PDFDocument } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CaseService,
  casesApi,
  KEY_FILE_NAME,
  MAX_REFUSED_LINKS,
  RefusalLimit,
  readOrCreateKeyFile,
  SqliteCaseStore,
} from '../src/index.js';
import { NEW_LEASE, RULES } from './fixture.js';
import { pdfText } from './pdf-text.js';
import { call, serveHandler } from './serve-cases.js';

const PDF_BYTES = Buffer.from('%PDF-1.4\nANA-EVIDENCE-MARKER\n%%EOF\n');

let folder: string;
let store: SqliteCaseStore;
let now: { t: number };
let server: { origin: string; close(): Promise<void> };

beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'parley-cases-api-'));
  store = new SqliteCaseStore(folder, readOrCreateKeyFile(join(folder, KEY_FILE_NAME)));
  now = { t: 1_800_000_000 };
  // These tests present many refused links on purpose: the limit is tested on its own below.
  const service = new CaseService({ store, now: () => now.t });
  server = await serveHandler(casesApi(service, () => undefined, new RefusalLimit(10_000)));
});

afterEach(async () => {
  await server.close();
  await store.close();
  rmSync(folder, { recursive: true, force: true });
});

interface Opened {
  organizer: string;
  links: Record<string, string>;
  ids: Record<string, string>;
}

async function open(): Promise<Opened> {
  const made = await call(server.origin, 'cases', null, NEW_LEASE);
  expect(made.status).toBe(201);
  const body = made.json();
  expect(body.organizer_link).toMatch(new RegExp(`^${server.origin}/cases/#t=[A-Za-z0-9_-]{43}$`));
  return {
    organizer: body.organizer_link,
    links: Object.fromEntries(
      body.links.map((l: { name: string; link: string }) => [l.name, l.link]),
    ),
    ids: Object.fromEntries(
      body.links.map((l: { name: string; party: string }) => [l.name, l.party]),
    ),
  };
}

async function confirmAll(o: Opened, names = ['Ana', 'Ben', 'Cleo']): Promise<void> {
  for (const name of names) {
    const edited = await call(server.origin, 'edit', o.links[name] as string, { ops: RULES[name] });
    expect(edited.status).toBe(200);
    const draft = edited.json().you.draft;
    const confirmed = await call(server.origin, 'confirm', o.links[name] as string, {
      hard: draft.hard.map((h: { id: string }) => h.id),
      version: draft.version,
    });
    expect(confirmed.status).toBe(200);
  }
}

describe('the cases API over HTTP (issue 24)', () => {
  it('runs the journey to a ratified receipt that verifies, as JSON and as a PDF', async () => {
    const o = await open();
    await confirmAll(o);
    const view = (await call(server.origin, 'case', o.links.Ana as string)).json();
    expect(view.state).toBe('ratifying');
    const hash = view.proposal.transcript_sha256;
    for (const name of ['Ana', 'Ben', 'Cleo']) {
      expect(
        (await call(server.origin, 'accept', o.links[name] as string, { proposal: hash })).status,
      ).toBe(200);
    }
    const receipt = await call(server.origin, 'receipt', o.links.Cleo as string);
    expect(receipt.status).toBe(200);
    const report = await verifyReceipt(readReceipt(receipt.text));
    expect(report.ok).toBe(true);
    const pdf = await call(server.origin, 'receipt.pdf', o.links.Ben as string);
    expect(pdf.status).toBe(200);
    expect(pdf.text.startsWith('%PDF-')).toBe(true);
    const doc = await PDFDocument.load(Buffer.from(pdf.text, 'latin1'));
    expect(doc.getSubject()).toBe(
      `transcript sha256 ${readReceipt(receipt.text).transcript_sha256}`,
    );
    expect(doc.getPageCount()).toBe(1);
    // Module 08: the status in words, the hash, and how to verify, on an A4 page.
    const text = await pdfText(Buffer.from(pdf.text, 'latin1'));
    expect(text).toContain('AGREED: every party accepted this proposal.');
    expect(text).toContain(`Transcript SHA-256:\n${readReceipt(receipt.text).transcript_sha256}\n`);
    expect(text).toContain('npx parley verify-receipt receipt.json');
    expect(text).toContain('Parley is not legal advice.');
    const size = doc.getPage(0).getSize();
    expect([Math.round(size.width), Math.round(size.height)]).toEqual([595, 842]);
  });

  it("attack: every endpoint, asked with another link, answers nothing of Ana's private part", async () => {
    const o = await open();
    const ana = o.links.Ana as string;
    await call(server.origin, 'answer', ana, { prompt: 'unacceptable', text: 'ANA-ANSWER-MARKER' });
    const added = (
      await call(server.origin, 'evidence', ana, {
        filename: 'ana-secret.pdf',
        content: PDF_BYTES.toString('base64'),
      })
    ).json();
    await confirmAll(o);
    const hash = (await call(server.origin, 'case', ana)).json().proposal.transcript_sha256;
    await call(server.origin, 'reject', ana, { proposal: hash, note: 'ANA-NOTE-MARKER' });
    // Ana's own view has all of it.
    const own = (await call(server.origin, 'case', ana)).text;
    for (const secret of [
      'ANA-ANSWER-MARKER',
      'ANA-NOTE-MARKER',
      'ANA-PRIVATE-MARKER',
      'ana-secret',
    ]) {
      expect(own).toContain(secret);
    }
    const answers: string[] = [];
    for (const link of [o.links.Ben as string, o.links.Cleo as string, o.organizer]) {
      const asks: [string, unknown?, string?][] = [
        ['case'],
        ['answer', { prompt: 'unacceptable', text: 'x' }],
        ['draft', {}],
        ['edit', { ops: [] }],
        ['confirm', { hard: [], version: 'x' }],
        ['accept', { proposal: hash }],
        ['reject', { proposal: hash }],
        ['evidence', undefined, `?id=${added.id}`],
        ['evidence', { filename: 'x.pdf', content: PDF_BYTES.toString('base64') }],
        ['share', { id: added.id, share: true, confirm: true }],
        ['receipt'],
        ['receipt.pdf'],
        ['reissue', { party: o.ids.Ana }],
        ['revoke', { party: 'nobody' }],
      ];
      for (const [route, body, query] of asks) {
        const answer = await call(server.origin, route, link, body, query ?? '');
        answers.push(`${route} ${answer.status} ${answer.text}`);
      }
    }
    const all = answers.join('\n');
    for (const secret of [
      'ANA-ANSWER-MARKER',
      'ANA-NOTE-MARKER',
      'ANA-PRIVATE-MARKER',
      'ANA-EVIDENCE-MARKER',
      'ana-secret',
    ]) {
      expect(all).not.toContain(secret);
    }
  });

  it("a link acts for its own holder only: Ana's link cannot answer for Ben nor act as the initiator", async () => {
    const o = await open();
    const benFile = (
      await call(server.origin, 'evidence', o.links.Ben as string, {
        filename: 'ben.pdf',
        content: PDF_BYTES.toString('base64'),
      })
    ).json();
    const read = await call(
      server.origin,
      'evidence',
      o.links.Ana as string,
      undefined,
      `?id=${benFile.id}`,
    );
    expect(read.status).toBe(404);
    for (const route of ['reissue', 'revoke', 'close', 'cancel', 'delete']) {
      const answer = await call(server.origin, route, o.links.Ana as string, { party: o.ids.Ben });
      expect([route, answer.status, answer.json().error]).toEqual([route, 403, 'forbidden']);
    }
    await call(server.origin, 'edit', o.links.Ana as string, { ops: RULES.Ana });
    const benView = (await call(server.origin, 'case', o.links.Ben as string)).json();
    expect(benView.you.name).toBe('Ben');
    expect(benView.you.draft).toBeNull();
    // The organizer's link is no party's.
    expect((await call(server.origin, 'edit', o.organizer, { ops: [] })).json().error).toBe(
      'forbidden',
    );
  });

  it('expired, revoked and unknown links are refused by every endpoint, and nothing changes', async () => {
    const o = await open();
    const routes = [
      'case',
      'answer',
      'draft',
      'edit',
      'confirm',
      'accept',
      'reject',
      'revise',
      'evidence',
      'share',
      'receipt',
      'receipt.pdf',
    ];
    const revoked = await call(server.origin, 'revoke', o.organizer, { party: o.ids.Ben });
    expect(revoked.status).toBe(200);
    const reissued = (
      await call(server.origin, 'reissue', o.organizer, { party: o.ids.Cleo })
    ).json();
    expect(reissued.link).toMatch(/#t=/);
    const before = (await call(server.origin, 'case', o.organizer)).json().version;
    for (const route of routes) {
      const body =
        route === 'case' || route === 'receipt' || route === 'receipt.pdf' ? undefined : {};
      const ben = await call(server.origin, route, o.links.Ben as string, body);
      expect([route, ben.json().error]).toEqual([route, 'revoked']);
      expect((await call(server.origin, route, o.links.Cleo as string, body)).json().error).toBe(
        'revoked',
      );
      expect((await call(server.origin, route, `#t=${'A'.repeat(43)}`, body)).json().error).toBe(
        'not_found',
      );
      expect((await call(server.origin, route, null, body)).status).toBe(404);
    }
    expect((await call(server.origin, 'case', reissued.link)).json().you.name).toBe('Cleo');
    now.t += 72 * 3600;
    for (const route of routes) {
      const body =
        route === 'case' || route === 'receipt' || route === 'receipt.pdf' ? undefined : {};
      const answer = await call(server.origin, route, o.links.Ana as string, body);
      expect([route, answer.status, answer.json().error]).toEqual([route, 401, 'expired']);
    }
    now.t -= 72 * 3600;
    expect((await call(server.origin, 'case', o.organizer)).json().version).toBe(before);
  });

  it('the organizer sees progress and the outbox with the links to hand over, never a private part', async () => {
    const o = await open();
    await call(server.origin, 'answer', o.links.Ana as string, {
      prompt: 'unacceptable',
      text: 'ANA-ANSWER-MARKER',
    });
    const view = await call(server.origin, 'case', o.organizer);
    const body = view.json();
    expect(body.outbox.map((m: { link: string }) => m.link).sort()).toEqual(
      Object.values(o.links).sort(),
    );
    expect(body.outbox.every((m: { text: string }) => !m.text.includes('#t='))).toBe(true);
    expect(view.text).not.toContain('ANA-ANSWER-MARKER');
    // Module 04: a private file's existence is not shown, not even as an event.
    await call(server.origin, 'evidence', o.links.Ana as string, {
      filename: 'private.pdf',
      content: PDF_BYTES.toString('base64'),
    });
    const later = (await call(server.origin, 'case', o.organizer)).json();
    expect(later.events.map((e: { type: string }) => e.type)).toEqual(['created']);
  });

  it('a create with an Idempotency-Key is safe to retry: same case and links, one case, a different body refused', async () => {
    const key = randomBytes(32).toString('base64url');
    const post = (body: unknown, idempotencyKey: string | null) =>
      fetch(`${server.origin}/cases/api/cases`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }),
        },
        body: JSON.stringify(body),
      });
    // Two tries at once (the first answer "lost"), then a third: one case, one answer.
    const tries = await Promise.all([post(NEW_LEASE, key), post(NEW_LEASE, key)]);
    const third = await post(NEW_LEASE, key);
    const answers = await Promise.all([...tries, third].map((r) => r.text()));
    expect([...tries, third].map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(answers).size).toBe(1);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    const made = JSON.parse(answers[0] as string);
    expect(await store.expired(Number.MAX_SAFE_INTEGER)).toEqual([made.case]);
    const view = await call(server.origin, 'case', made.organizer_link);
    expect(view.status).toBe(200);
    // The same key for another case: 409, one sentence, nothing made.
    const other = await post({ ...NEW_LEASE, parties: ['Ana', 'Ben'] }, key);
    expect(other.status).toBe(409);
    expect(await other.json()).toEqual({
      error: 'key_reused',
      message: 'this Idempotency-Key already opened a different case; use a new key for a new case',
    });
    const short = await post(NEW_LEASE, 'abc');
    expect(short.status).toBe(400);
    expect((await short.json()).message).toMatch(/Idempotency-Key must be/);
    expect(await store.expired(Number.MAX_SAFE_INTEGER)).toEqual([made.case]);
    // Without a key, each POST opens a case (scripts that never retry).
    expect((await post(NEW_LEASE, null)).status).toBe(201);
    expect((await post(NEW_LEASE, null)).status).toBe(201);
    expect(await store.expired(Number.MAX_SAFE_INTEGER)).toHaveLength(3);
  });

  it('refuses bad bodies in one sentence', async () => {
    const o = await open();
    const bad = await fetch(`${server.origin}/cases/api/edit`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${o.links.Ana?.split('#t=')[1]}`,
        'content-type': 'text/plain',
      },
      body: '{}',
    });
    expect(bad.status).toBe(400);
    expect(
      (await call(server.origin, 'cases', null, { ...NEW_LEASE, parties: ['solo'] })).json()
        .message,
    ).toMatch(/2 to 5 parties/);
    expect((await call(server.origin, 'nope', o.organizer)).status).toBe(404);
  });

  it('module 02: past the limit of refused links, a client is told to wait (429), a good link included', async () => {
    const limited = await serveHandler(casesApi(new CaseService({ store, now: () => now.t })));
    try {
      const o = await open();
      for (let i = 0; i < MAX_REFUSED_LINKS; i++) {
        expect((await call(limited.origin, 'case', `#t=${'B'.repeat(43)}`)).status).toBe(404);
      }
      const blocked = await call(limited.origin, 'case', o.links.Ana as string);
      expect(blocked.status).toBe(429);
      expect(blocked.json().error).toBe('rate_limited');
      // Another server (another limit) still opens it: the link itself is fine.
      expect((await call(server.origin, 'case', o.links.Ana as string)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('module 10: the mail sender hook', () => {
  it('gets the invitations with their links, then each message a step adds, with no substance', async () => {
    const sent: { to: string; subject: string; text: string; link: string | null }[] = [];
    const service = new CaseService({
      store,
      now: () => now.t,
      mail: {
        send: async (m) => {
          sent.push(m);
        },
      },
    });
    const made = await service.create(NEW_LEASE, 'http://127.0.0.1:1/cases/');
    expect(sent.map((m) => [m.to, m.link])).toEqual(
      Object.entries(made.links.parties).map(([id, link]) => [made.names[id], link]),
    );
    for (const [id, link] of Object.entries(made.links.parties)) {
      const view = (await service.edit(link, RULES[made.names[id] as string])) as {
        you: { draft: { version: string; hard: { id: string }[] } };
      };
      await service.confirm(link, {
        hard: view.you.draft.hard.map((h) => h.id),
        version: view.you.draft.version,
      });
    }
    const ready = sent.slice(3);
    expect(ready.map((m) => m.to)).toEqual(['Ana', 'Ben', 'Cleo']);
    expect(ready.every((m) => m.link === null && m.subject === 'Parley: Our new lease')).toBe(true);
    // Title and action only: no option, no rule, no score.
    expect(JSON.stringify(ready)).not.toMatch(/rent|920|plan/);
    const reissued = await service.reissue(
      made.links.organizer as string,
      Object.keys(made.links.parties)[1] as string,
      'http://127.0.0.1:1/cases/',
    );
    expect(sent.at(-1)).toMatchObject({ to: 'Ben', link: reissued.link });
  });
});
