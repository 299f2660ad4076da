import { createHash } from 'node:crypto';
import { type PyValue, pyDumps } from '@parley/consensus';
import { describe, expect, it } from 'vitest';
import {
  type CaseRecord,
  CaseService,
  type CaseStore,
  createCase,
  expiresAt,
  hashToken,
  tokenOfLink,
} from '../src/index.js';
import { NEW_LEASE, RULES, testClock } from './fixture.js';

/** One store under test: two handles on the same data (two "instances"), and its raw bytes. */
export interface StoreUnderTest {
  readonly first: CaseStore;
  readonly second: CaseStore;
  /** Everything the database holds, as text, to search for what must not be there. */
  raw(): Promise<string>;
  cleanup(): Promise<void>;
}

const BASE = 'http://127.0.0.1:1/cases/';
/** A client's idempotency key: 32 random bytes as base64url. */
const KEY = 'k8Qz1vN3mW5xR7tY9uB2cD4eF6gH8iJ0kL2mN4oP6qA';

function requestHashOf(key: string): string {
  return createHash('sha256').update(`parley-cases/idempotency-key:${key}`).digest('hex');
}

function same(a: unknown, b: unknown): void {
  expect(pyDumps(a as PyValue)).toBe(pyDumps(b as PyValue));
}

/** Every party writes their rules and confirms through the service, by their own link. */
async function runToProposal(
  service: CaseService,
  links: Record<string, string>,
  names: Record<string, string>,
) {
  for (const [party, link] of Object.entries(links)) {
    const name = names[party] as string;
    const view = (await service.edit(link, RULES[name])) as {
      you: { draft: { version: string; hard: { id: string }[] } };
    };
    await service.confirm(link, {
      hard: view.you.draft.hard.map((h) => h.id),
      version: view.you.draft.version,
    });
  }
}

/** The contract every CaseStore passes (module 09). */
export function describeCaseStoreContract(name: string, make: () => Promise<StoreUnderTest>): void {
  describe(`${name}: CaseStore contract (module 09)`, () => {
    it('stores a case and loads it back exactly; a link hash finds its case', async () => {
      const s = await make();
      try {
        const { record, links } = await createCase(NEW_LEASE, BASE, testClock('roundtrip'));
        await s.first.insert(record, expiresAt(record));
        same(await s.second.load(record.shared.id), record);
        const token = tokenOfLink(links.organizer as string) as string;
        expect(await s.second.caseOfLink(hashToken(token))).toBe(record.shared.id);
        expect(await s.second.caseOfLink(hashToken('z'.repeat(43)))).toBeNull();
        expect(await s.second.load('case_none')).toBeNull();
      } finally {
        await s.cleanup();
      }
    });

    it('save writes only at the expected version: a stale write changes nothing', async () => {
      const s = await make();
      try {
        const clock = testClock('stale');
        const { record } = await createCase(NEW_LEASE, BASE, clock);
        await s.first.insert(record, expiresAt(record));
        const moved: CaseRecord = {
          ...record,
          shared: { ...record.shared, version: 2, title: 'moved' },
        };
        expect(await s.first.save(moved, 1, 0)).toBe(true);
        const stale: CaseRecord = {
          ...record,
          shared: { ...record.shared, version: 2, title: 'stale' },
        };
        expect(await s.second.save(stale, 1, 0)).toBe(false);
        expect((await s.second.load(record.shared.id))?.shared.title).toBe('moved');
      } finally {
        await s.cleanup();
      }
    });

    it('private parts are sealed at rest: no answer, rule or key seed is in the database', async () => {
      const s = await make();
      try {
        const service = new CaseService({ store: s.first });
        const { links, names } = await service.create(NEW_LEASE, BASE);
        const ana = Object.keys(names).find((id) => names[id] === 'Ana') as string;
        await service.answer(
          links.parties[ana] as string,
          'unacceptable',
          'ANA-ANSWER-MARKER never above 1000',
        );
        await service.edit(links.parties[ana] as string, RULES.Ana);
        const raw = await s.raw();
        expect(raw).toContain('Our new lease');
        expect(raw).not.toContain('ANA-ANSWER-MARKER');
        expect(raw).not.toContain('ANA-PRIVATE-MARKER');
        for (const link of Object.values(links.parties))
          expect(raw).not.toContain(tokenOfLink(link) as string);
      } finally {
        await s.cleanup();
      }
    });

    it('two instances: concurrent final acceptances finalize exactly once', async () => {
      const s = await make();
      try {
        const one = new CaseService({ store: s.first });
        const two = new CaseService({ store: s.second });
        const { caseId, links, names } = await one.create(NEW_LEASE, BASE);
        await runToProposal(two, links.parties as Record<string, string>, names);
        const proposal = (
          (await one.view(links.organizer as string)) as { proposal: { transcript_sha256: string } }
        ).proposal;
        await Promise.all(
          Object.values(links.parties).map((link, i) =>
            (i % 2 === 0 ? one : two).accept(link, proposal.transcript_sha256),
          ),
        );
        const record = (await one.load(caseId)) as CaseRecord;
        expect(record.shared.state).toBe('agreed');
        expect(record.shared.events.filter((e) => e.type === 'agreed')).toHaveLength(1);
        expect(record.shared.acceptances).toHaveLength(3);
        // A retried acceptance finds its work done.
        const again = (await two.accept(
          Object.values(links.parties)[0] as string,
          proposal.transcript_sha256,
        )) as { version: number };
        expect(again.version).toBe(record.shared.version);
      } finally {
        await s.cleanup();
      }
    });

    it('a keyed create is idempotent: a retry, on another instance too, gets the same case and links', async () => {
      const s = await make();
      try {
        const one = new CaseService({ store: s.first });
        const two = new CaseService({ store: s.second });
        const first = await one.create(NEW_LEASE, BASE, KEY);
        expect(first.replayed).toBe(false);
        // The answer was lost; the client sends the same request again (spaces differ: the same
        // case once checked), and another instance answers it.
        const again = await two.create({ ...NEW_LEASE, title: ' Our new lease ' }, BASE, KEY);
        expect(again).toEqual({ ...first, replayed: true });
        expect(Object.keys(again.links.parties)).toEqual(Object.keys(first.links.parties));
        expect(await s.first.expired(Number.MAX_SAFE_INTEGER)).toEqual([first.caseId]);
        // The replayed links open the case.
        expect(await two.view(again.links.organizer as string)).toMatchObject({ id: first.caseId });
        // At rest neither the key nor a token is readable.
        const raw = await s.raw();
        expect(raw).not.toContain(KEY);
        for (const l of [first.links.organizer as string, ...Object.values(first.links.parties)]) {
          expect(raw).not.toContain(tokenOfLink(l) as string);
        }
        // The same key for a different case is refused, and changes nothing.
        await expect(
          two.create({ ...NEW_LEASE, title: 'Another lease' }, BASE, KEY),
        ).rejects.toMatchObject({ code: 'key_reused' });
        await expect(one.create(NEW_LEASE, BASE, 'short')).rejects.toMatchObject({
          code: 'bad_input',
        });
        expect(await s.first.expired(Number.MAX_SAFE_INTEGER)).toEqual([first.caseId]);
        // Without a key every create opens a case (kept for scripts); a new key, a new case.
        await one.create(NEW_LEASE, BASE);
        await one.create(NEW_LEASE, BASE, `${KEY.slice(0, -1)}B`);
        expect(await s.first.expired(Number.MAX_SAFE_INTEGER)).toHaveLength(3);
        // Deleting the case deletes what its key kept.
        await one.delete(first.caseId);
        expect(await s.second.requestOf(requestHashOf(KEY))).toBeNull();
      } finally {
        await s.cleanup();
      }
    });

    it('two concurrent creates with one key, on two instances, make one case', async () => {
      const s = await make();
      try {
        const one = new CaseService({ store: s.first });
        const two = new CaseService({ store: s.second });
        const made = await Promise.all(
          [one, two, one, two].map((service) => service.create(NEW_LEASE, BASE, KEY)),
        );
        const ids = await s.first.expired(Number.MAX_SAFE_INTEGER);
        expect(ids).toHaveLength(1);
        expect(made.map((m) => m.caseId)).toEqual(Array(4).fill(ids[0]));
        expect(made.filter((m) => !m.replayed)).toHaveLength(1);
        for (const m of made) expect(m.links).toEqual(made[0]?.links);
      } finally {
        await s.cleanup();
      }
    });

    it('delete leaves nothing of the case; retention lists cases past their time', async () => {
      const s = await make();
      try {
        const now = { t: 1_800_000_000 };
        const service = new CaseService({ store: s.first, now: () => now.t });
        const kept = await service.create({ ...NEW_LEASE, title: 'KEPT-CASE' }, BASE);
        const gone = await service.create({ ...NEW_LEASE, title: 'GONE-CASE-MARKER' }, BASE);
        const link = Object.values(gone.links.parties)[0] as string;
        await service.answer(link, 'unacceptable', 'GONE-ANSWER-MARKER');
        expect(await s.first.expired(now.t)).toEqual([]);
        const ids = await s.first.expired(now.t + 30 * 86_400);
        expect(ids.sort()).toEqual([kept.caseId, gone.caseId].sort());
        expect(await service.delete(gone.caseId)).toBe(true);
        expect(await s.second.load(gone.caseId)).toBeNull();
        const raw = await s.raw();
        expect(raw).toContain('KEPT-CASE');
        expect(raw).not.toContain('GONE-CASE-MARKER');
        expect(raw).not.toContain(gone.caseId);
        for (const l of [gone.links.organizer as string, ...Object.values(gone.links.parties)]) {
          expect(raw).not.toContain(hashToken(tokenOfLink(l) as string));
        }
        await expect(service.view(link)).rejects.toThrow(/opens nothing/);
        // Retention (module 09): 30 days after the last change, an unfinished case is swept.
        expect(await service.sweep()).toEqual([]);
        now.t += 30 * 86_400;
        expect(await service.sweep()).toEqual([kept.caseId]);
        expect(await s.second.load(kept.caseId)).toBeNull();
      } finally {
        await s.cleanup();
      }
    });
  });
}
