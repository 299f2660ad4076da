import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { casesCli, newCaseArgs } from './fixtures/case-cli.js';
import { CHILD_TEST_TIMEOUT_MS } from './fixtures/cli-process.js';

const { folder, cli, ok } = casesCli();
afterAll(() => folder.remove());

describe("parley cases evidence: a party's files from a terminal (module 04)", {
  timeout: CHILD_TEST_TIMEOUT_MS,
}, () => {
  it('adds a private file, shares it only with --confirm, lets the other party save it, withdraws it', async () => {
    const options = join(folder.path, 'options.json');
    writeFileSync(options, JSON.stringify([{ plan: 'A' }, { plan: 'B' }]));
    const made = JSON.parse(await ok(newCaseArgs('Files', options)));
    const [ana, ben] = made.links.map((l: { link: string }) => l.link) as [string, string];
    const pdf = join(folder.path, 'lease offer.pdf');
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from('ANA-FILE-MARKER')]);
    writeFileSync(pdf, bytes);

    const added = await ok(['cases', 'evidence', 'add', ana, pdf]);
    const id = /Added (ev_\S+):/.exec(added)?.[1] as string;
    expect(id).toBeDefined();
    expect(await ok(['cases', 'status', ana])).toMatch(
      new RegExp(`${id} {2}lease offer\\.pdf \\(24 bytes\\), only you see it`),
    );
    // Private by default: the other party sees nothing of it, and cannot read it by its id.
    expect(await ok(['cases', 'status', ben, '--json'])).not.toContain(id);
    const out = join(folder.path, 'saved.pdf');
    const early = await cli(['cases', 'evidence', 'get', ben, id, '--out', out]);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('no such file');

    // Sharing is an explicit act: without --confirm nothing changes.
    const unconfirmed = await cli(['cases', 'evidence', 'share', ana, id]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('run again with --confirm');
    expect(await ok(['cases', 'status', ben, '--json'])).not.toContain(id);

    await ok(['cases', 'evidence', 'share', ana, id, '--confirm']);
    expect(await ok(['cases', 'status', ben])).toContain(
      `Files the others shared:\n  ${id}  lease offer.pdf (24 bytes), from Ana`,
    );
    expect(await ok(['cases', 'evidence', 'get', ben, id, '--out', out])).toContain('24 bytes');
    expect(readFileSync(out)).toEqual(bytes);
    const nowhere = await cli(['cases', 'evidence', 'get', ben, id, '--out', join(out, 'x', 'y')]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/^parley: .*saved\.pdf\/x\/y/);

    await ok(['cases', 'evidence', 'withdraw', ana, id]);
    const status = JSON.parse(await ok(['cases', 'status', ana, '--json']));
    expect(status.you.evidence[0].history.map((h: { act: string }) => h.act)).toEqual([
      'disclosed',
      'withdrawn',
    ]);
    expect((await cli(['cases', 'evidence', 'get', ben, id, '--out', out])).code).toBe(1);
  });

  it('refuses a missing file, a file of another type and an unknown id, each in one sentence', async () => {
    const options = join(folder.path, 'options2.json');
    writeFileSync(options, JSON.stringify([{ plan: 'A' }, { plan: 'B' }]));
    const made = JSON.parse(await ok(newCaseArgs('Bad files', options)));
    const ana = made.links[0].link as string;
    const missing = await cli(['cases', 'evidence', 'add', ana, join(folder.path, 'nope.pdf')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^parley: no file at .*nope\.pdf\n$/);
    const huge = join(folder.path, 'huge.pdf');
    writeFileSync(huge, Buffer.alloc(512 * 1024 + 1, 0x25));
    const tooLarge = await cli(['cases', 'evidence', 'add', ana, huge]);
    expect(tooLarge.code).toBe(2);
    expect(tooLarge.stderr).toMatch(/huge\.pdf is larger than a case takes \(512 KiB\)\n$/);
    const text = join(folder.path, 'notes.txt');
    writeFileSync(text, 'just text');
    const wrongType = await cli(['cases', 'evidence', 'add', ana, text]);
    expect(wrongType.code).toBe(1);
    expect(wrongType.stderr).toContain('only PDF, JPEG, PNG and DOCX files are taken');
    const unknown = await cli(['cases', 'evidence', 'share', ana, 'ev_nothing', '--confirm']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no such file of yours');
    expect(JSON.parse(await ok(['cases', 'status', ana, '--json'])).you.evidence).toEqual([]);
  });
});
