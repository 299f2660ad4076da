// @module-tag chromium: runs in this run's Chromium (see packages/test-support)
// @module-tag postgres: runs against this run's PostgreSQL (see packages/test-support)
/**
 * Two `parley start` instances over one PostgreSQL serve the same case (issue 24, "several
 * instances share one case"): Ana on the first, Ben and Cleo on the second, each in their own
 * browser context; the last acceptances land at the same moment on both and the case is agreed
 * exactly once. Both instances share the home folder, so the same key opens the private parts.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropTestSchema, freshTestSchema, testChromium, withSchema } from '@parley/test-support';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAs, type Person, shoot, writeAndConfirm } from './fixtures/case-pages.js';
import { runCli, type StartedParley, startParley } from './fixtures/parley-start.js';

const OUTPUT = fileURLToPath(new URL('./output/', import.meta.url));

describe('two instances on PostgreSQL serve one case', { timeout: 180_000 }, () => {
  let home: string;
  let one: StartedParley;
  let two: StartedParley;
  let browser: Browser;
  const people: Person[] = [];
  // A schema of this file's own: no parallel worker or concurrent run shares its tables.
  const schema = freshTestSchema('cases');

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    home = mkdtempSync(join(tmpdir(), 'parley-cases-home-'));
    const env = {
      PARLEY_HOME: home,
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_BASE_URL: '',
    };
    const args = ['--cases-store', withSchema(schema)];
    one = await startParley({ args, env });
    two = await startParley({ args, env });
    const { executablePath, args: chromeArgs, env: chromeEnv } = await testChromium();
    browser = await chromium.launch({
      executablePath,
      args: chromeArgs,
      env: chromeEnv,
      headless: true,
      timeout: 15_000,
    });
  }, 90_000);

  afterAll(async () => {
    for (const p of people) await p.context.close();
    await browser?.close();
    await one?.stop();
    await two?.stop();
    await dropTestSchema(schema);
    rmSync(home, { recursive: true, force: true });
  });

  it('Ana on one instance, Ben and Cleo on the other, to one agreement', async () => {
    const made = await fetch(`${one.origin}/cases/api/cases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Shared across instances',
        decision: 'Which lease?',
        organizer: 'Ana',
        parties: ['Ana', 'Ben', 'Cleo'],
        options: [
          { plan: 'A', rent: 950, weeks: 4 },
          { plan: 'E', rent: 920, weeks: 5 },
        ],
      }),
    });
    const body = (await made.json()) as {
      organizer_link: string;
      links: { name: string; link: string }[];
    };
    const token = Object.fromEntries(
      body.links.map((l) => [l.name, l.link.split('#t=')[1]]),
    ) as Record<string, string>;
    const ana = await openAs(browser, `${one.origin}/cases/#t=${token.Ana}`, 360);
    const ben = await openAs(browser, `${two.origin}/cases/#t=${token.Ben}`, 1280);
    const cleo = await openAs(browser, `${two.origin}/cases/#t=${token.Cleo}`, 1280);
    people.push(ana, ben, cleo);
    await writeAndConfirm(ana.page, ['rent <= 1000']);
    await writeAndConfirm(ben.page, ['weeks >= 4']);
    await writeAndConfirm(cleo.page, ['prefer lower rent 900..1000']);
    for (const p of [ana, ben, cleo]) await p.page.waitForSelector('.proposal .option');
    await ana.page.click('.proposal button.accept');
    await ana.page.waitForSelector('text=You accepted');
    await Promise.all([
      ben.page.click('.proposal button.accept'),
      cleo.page.click('.proposal button.accept'),
    ]);
    for (const p of [ana, ben, cleo])
      await p.page.waitForSelector('.receipt .status-words:has-text("AGREED")');
    await shoot(ben.page, OUTPUT, 'cases-11-two-instances-desktop');
    const organizer = body.organizer_link.split('#t=')[1];
    const view = (await (
      await fetch(`${two.origin}/cases/api/case`, {
        headers: { authorization: `Bearer ${organizer}` },
      })
    ).json()) as {
      state: string;
      events: { type: string }[];
    };
    expect(view.state).toBe('agreed');
    expect(view.events.filter((e) => e.type === 'agreed')).toHaveLength(1);
    const [download] = await Promise.all([
      ana.page.waitForEvent('download'),
      ana.page.click('button:has-text("Download the transcript")'),
    ]);
    const file = join(home, 'receipt.json');
    await download.saveAs(file);
    expect(readFileSync(file, 'utf8')).toContain('"unanimous_acceptance": true');
    expect(await runCli(['verify-receipt', file])).toContain('Result: VERIFIED');
    for (const p of people) expect(p.errors).toEqual([]);
    // The case lived in the schema the URL named (cases, privates, links, requests).
    expect(await dropTestSchema(schema)).toBe(4);
  });
});
