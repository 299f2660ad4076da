// @module-tag chromium: runs in this run's Chromium (see packages/test-support)
/**
 * The cases pages (issue 24) in a real Chromium against the real `parley start`: three people,
 * each in their own browser context, from the invitation to a receipt each downloads and checks
 * with `parley verify-receipt`; an honest deadlock; a revision that changes the proposal and
 * voids an acceptance; a link used where it does not belong. axe-core on every screen, 360 px
 * and desktop. Screenshots go to test/output/cases-*.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testChromium } from '@parley/test-support';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  axeViolations,
  fitsWidth,
  openAs,
  type Person,
  shoot,
  writeAndConfirm,
} from './fixtures/case-pages.js';
import { pressOn } from './fixtures/keyboard.js';
import { runCli, type StartedParley, startParley } from './fixtures/parley-start.js';

const OUTPUT = fileURLToPath(new URL('./output/', import.meta.url));
const RULES: Record<string, string[]> = {
  Ana: ['rent <= 1000', 'prefer lower rent 800..1100'],
  Ben: ['weeks >= 4', 'prefer higher weeks 2..8'],
  Cleo: ['rent <= 1050'],
};

/** Opens a case through the API as a script would; the links by name. */
async function openCase(origin: string, title: string) {
  const made = await fetch(`${origin}/cases/api/cases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      title,
      decision: 'Which lease do we sign?',
      organizer: 'Ana',
      parties: ['Ana', 'Ben', 'Cleo'],
      options: [
        { plan: 'A', rent: 950, weeks: 4 },
        { plan: 'B', rent: 1100, weeks: 6 },
        { plan: 'E', rent: 920, weeks: 5 },
      ],
    }),
  });
  const body = (await made.json()) as {
    organizer_link: string;
    links: { name: string; link: string }[];
  };
  return {
    organizer: body.organizer_link,
    link: Object.fromEntries(body.links.map((l) => [l.name, l.link])) as Record<string, string>,
  };
}

describe('the cases pages in Chromium, served by parley start', { timeout: 180_000 }, () => {
  let parley: StartedParley;
  let browser: Browser;
  const people: Person[] = [];

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    parley = await startParley({
      env: {
        OPENAI_API_KEY: '',
        OPENAI_BASE_URL: '',
        ANTHROPIC_API_KEY: '',
        ANTHROPIC_BASE_URL: '',
      },
    });
    const { executablePath, args, env } = await testChromium();
    browser = await chromium.launch({ executablePath, args, env, headless: true, timeout: 15_000 });
  }, 60_000);

  afterAll(async () => {
    for (const p of people) await p.context.close();
    await browser?.close();
    await parley?.stop();
  });

  it('three people, three browsers: invitation, interview, proposal, unanimous acceptance, a receipt each verifies', async () => {
    // The initiator starts the case on a phone.
    const ana0 = await openAs(browser, `${parley.origin}/cases/`, 360);
    people.push(ana0);
    expect(await axeViolations(ana0.page)).toEqual([]);
    expect(await fitsWidth(ana0.page)).toBe(true);
    await shoot(ana0.page, OUTPUT, 'cases-01-start-360');
    await ana0.page.fill('#case-title', 'Our new lease');
    await ana0.page.fill('#case-decision', 'Which lease do we sign?');
    await ana0.page.fill('#case-organizer', 'Ana');
    for (const [i, name] of ['Ana', 'Ben', 'Cleo'].entries())
      await ana0.page.fill(`#party-${i}`, name);
    // The first answer is lost after the server made the case: the page says so, and sending
    // again (same form, same Idempotency-Key) shows that same case, not a second one.
    const keys: string[] = [];
    ana0.page.on('request', (r) => {
      if (r.url().endsWith('/cases/api/cases')) keys.push(r.headers()['idempotency-key'] ?? '');
    });
    let lost = '';
    await ana0.page.route(
      '**/cases/api/cases',
      async (route) => {
        lost = ((await (await route.fetch()).json()) as { organizer_link: string }).organizer_link;
        await route.abort('connectionreset');
      },
      { times: 1 },
    );
    await pressOn(ana0.page, 'button[type="submit"]');
    await ana0.page.waitForSelector('.problem[role="alert"]');
    await pressOn(ana0.page, 'button[type="submit"]');
    await ana0.page.waitForSelector('#made-title');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(await ana0.page.getAttribute('a.button.primary', 'href')).toBe(lost);
    const link = Object.fromEntries(
      await Promise.all(
        ['Ana', 'Ben', 'Cleo'].map(async (n) => [
          n,
          await ana0.page.inputValue(`[aria-label="Link for ${n}"]`),
        ]),
      ),
    ) as Record<string, string>;
    const organizer = (await ana0.page.getAttribute('a.button.primary', 'href')) as string;
    expect(link.Ben).toMatch(/\/cases\/#t=[A-Za-z0-9_-]{43}$/);
    await shoot(ana0.page, OUTPUT, 'cases-02-links-360');
    expect(await axeViolations(ana0.page)).toEqual([]);

    // Each person in their own browser context: Ana on a phone, Ben and Cleo on desktops.
    const ana = await openAs(browser, link.Ana as string, 360);
    const ben = await openAs(browser, link.Ben as string, 1280);
    const cleo = await openAs(browser, link.Cleo as string, 1280);
    people.push(ana, ben, cleo);
    await ana.page.waitForSelector('#interview-title');
    await ana.page.fill('#prompt-unacceptable', 'ANA-SECRET-MARKER: never above 1000 a month');
    await ana.page.click('#rule-text');
    await ana.page.waitForSelector('.note:has-text("Answer saved")');
    await ana.page.fill('#rule-text', RULES.Ana?.[0] as string);
    await ana.page.click('.add-rule button[type="submit"]');
    await ana.page.waitForSelector('.rules.hard li');
    expect(await axeViolations(ana.page)).toEqual([]);
    expect(await fitsWidth(ana.page)).toBe(true);
    await shoot(ana.page, OUTPUT, 'cases-03-interview-360');
    await writeAndConfirm(ana.page, (RULES.Ana as string[]).slice(1));
    await writeAndConfirm(ben.page, RULES.Ben as string[]);
    await shoot(ben.page, OUTPUT, 'cases-04-confirmed-desktop');
    await writeAndConfirm(cleo.page, RULES.Cleo as string[]);

    // The proposal reaches every page; nobody sees anyone else's words.
    for (const p of [ana, ben, cleo]) await p.page.waitForSelector('.proposal .option');
    expect(await ben.page.textContent('.proposal .option')).toBe('plan E, rent 920, weeks 5');
    for (const p of [ben, cleo]) expect(await p.page.content()).not.toContain('ANA-SECRET-MARKER');
    expect(await axeViolations(ana.page)).toEqual([]);
    await shoot(ana.page, OUTPUT, 'cases-05-proposal-360');
    await shoot(ben.page, OUTPUT, 'cases-05-proposal-desktop');

    await pressOn(ana.page, '.proposal button.accept');
    await ana.page.waitForSelector('text=You accepted');
    await ben.page.click('button:has-text("I accept this proposal")');
    await cleo.page.click('button:has-text("I accept this proposal")');
    for (const p of [ana, ben, cleo])
      await p.page.waitForSelector('.receipt .status-words:has-text("AGREED")');
    expect(await axeViolations(cleo.page)).toEqual([]);
    await shoot(cleo.page, OUTPUT, 'cases-06-receipt-desktop');
    await shoot(ana.page, OUTPUT, 'cases-06-receipt-360');
    expect(await fitsWidth(ana.page)).toBe(true);

    // Each downloads the transcript and checks it offline; the PDF is a PDF.
    for (const [i, p] of [ana, ben, cleo].entries()) {
      const [download] = await Promise.all([
        p.page.waitForEvent('download'),
        p.page.click('button:has-text("Download the transcript")'),
      ]);
      const file = join(parley.data, `receipt-${i}.json`);
      await download.saveAs(file);
      expect(readFileSync(file, 'utf8')).not.toContain('ANA-SECRET-MARKER');
      expect(await runCli(['verify-receipt', file])).toContain('Result: VERIFIED');
    }
    const [pdf] = await Promise.all([
      ben.page.waitForEvent('download'),
      ben.page.click('button:has-text("Download as PDF")'),
    ]);
    const pdfFile = join(parley.data, 'receipt.pdf');
    await pdf.saveAs(pdfFile);
    expect(readFileSync(pdfFile).subarray(0, 5).toString()).toBe('%PDF-');

    // The initiator's page: progress and the receipt, no private part.
    const org = await openAs(browser, organizer, 1280);
    people.push(org);
    await org.page.waitForSelector('#progress-title');
    expect(await org.page.content()).not.toContain('ANA-SECRET-MARKER');
    expect(await axeViolations(org.page)).toEqual([]);
    await shoot(org.page, OUTPUT, 'cases-07-organizer-desktop');
    for (const p of people) expect(p.errors).toEqual([]);
  });

  it('an honest deadlock, then a revision that changes the proposal and voids an acceptance', async () => {
    const { link, organizer } = await openCase(parley.origin, 'Deadlock then revise');
    const [ana, ben, cleo] = await Promise.all(
      ['Ana', 'Ben', 'Cleo'].map((n, i) =>
        openAs(browser, link[n] as string, i === 0 ? 360 : 1280),
      ),
    );
    people.push(ana as Person, ben as Person, cleo as Person);
    await writeAndConfirm((ana as Person).page, ['rent <= 930']);
    await writeAndConfirm((ben as Person).page, ['weeks >= 6']);
    await writeAndConfirm((cleo as Person).page, ['rent <= 1050']);
    // No option meets every limit: the page says so, and blames nobody.
    await (ana as Person).page.waitForSelector('h2:has-text("This round ended")');
    expect(await (ana as Person).page.textContent('.state-words')).toMatch(
      /no option met everyone's limits/,
    );
    // Her own limit left one lease (E, at 920): loosening hers alone may not help. From her
    // sheet and the public options only, so it says nothing of the others' (module 06).
    expect(await (ana as Person).page.textContent('.options-left')).toBe(
      'Your confirmed limits leave 1 of the 3 options.',
    );
    expect(await axeViolations((ana as Person).page)).toEqual([]);
    await shoot((ana as Person).page, OUTPUT, 'cases-08-deadlock-360');
    // Ben changes his own rules privately: round 2.
    await (ben as Person).page.click('h2:has-text("This round ended") ~ button');
    await (ben as Person).page.waitForSelector('#interview-title');
    await (ben as Person).page.click('.rules.hard button:has-text("Remove")');
    await (ben as Person).page.waitForFunction(
      () => document.querySelectorAll('.rules.hard li').length === 0,
    );
    await writeAndConfirm((ben as Person).page, ['weeks >= 5']);
    await (ana as Person).page.waitForSelector('.proposal .option');
    expect(await (ana as Person).page.textContent('.proposal .option')).toBe(
      'plan E, rent 920, weeks 5',
    );
    await (ana as Person).page.click('button:has-text("I accept this proposal")');
    await (ana as Person).page.waitForSelector('text=You accepted');
    // Cleo revises privately instead of answering: Ana's acceptance is void, round 3.
    await (cleo as Person).page.click('button:has-text("Change my rules privately")');
    await (cleo as Person).page.waitForSelector('#interview-title');
    await (ana as Person).page.waitForSelector('.progress li[data-answer="accepted"]', {
      state: 'detached',
    });
    await (cleo as Person).page.click('.rules.hard button:has-text("Remove")');
    await (cleo as Person).page.waitForFunction(
      () => document.querySelectorAll('.rules.hard li').length === 0,
    );
    await writeAndConfirm((cleo as Person).page, ['plan != "E"']);
    // Round 3: E is out; nothing else passes Ana's and Ben's limits: an honest deadlock, final.
    await (ana as Person).page.waitForSelector('.receipt');
    expect(await (ana as Person).page.textContent('.receipt .status-words')).toContain(
      'NO AGREEMENT',
    );
    const view = await (
      await fetch(`${parley.origin}/cases/api/case`, {
        headers: { authorization: `Bearer ${organizer.split('#t=')[1]}` },
      })
    ).json();
    expect(view).toMatchObject({ state: 'deadlocked', round: 3 });
    await shoot((cleo as Person).page, OUTPUT, 'cases-09-final-deadlock-desktop');
  });

  it("drafting from answers with the server's elicitor, and a document shared only on purpose", async () => {
    const { link } = await openCase(parley.origin, 'Draft and documents');
    const ben = await openAs(browser, link.Ben as string, 360);
    const cleo = await openAs(browser, link.Cleo as string, 1280);
    people.push(ben, cleo);
    await ben.page.waitForSelector('#interview-title');
    await ben.page.fill('#prompt-unacceptable', 'A rent over 1000 is unacceptable.');
    await ben.page.click('button:has-text("Draft my rules from my answers")');
    await ben.page.waitForSelector('.rules.hard li');
    expect(await ben.page.locator('.rules.hard .rule-text').allTextContents()).toEqual([
      'I confirm: rent <= 1000',
    ]);
    // Nothing binds until every limit is checked.
    expect(await ben.page.isDisabled('button:has-text("Confirm my rules")')).toBe(true);
    await ben.page.setInputFiles('#evidence-file', {
      name: 'ben-lease-offer.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\nBEN-DOCUMENT\n%%EOF\n'),
    });
    await ben.page.waitForSelector('.files li:has-text("ben-lease-offer.pdf")');
    await cleo.page.waitForSelector('#evidence-title');
    await cleo.page.reload();
    await cleo.page.waitForSelector('#evidence-title');
    expect(await cleo.page.content()).not.toContain('ben-lease-offer');
    await ben.page.click('button:has-text("Share with the others")');
    expect(await ben.page.isDisabled('.share-confirm button')).toBe(true);
    await ben.page.check('.share-confirm input[type="checkbox"]');
    await ben.page.click('.share-confirm button');
    await ben.page.waitForSelector('.files li:has-text("shared")');
    expect(await axeViolations(ben.page)).toEqual([]);
    await shoot(ben.page, OUTPUT, 'cases-12-draft-and-document-360');
    await cleo.page.waitForSelector('button:has-text("ben-lease-offer.pdf")');
    const [download] = await Promise.all([
      cleo.page.waitForEvent('download'),
      cleo.page.click('button:has-text("ben-lease-offer.pdf")'),
    ]);
    const file = join(parley.data, 'shared.pdf');
    await download.saveAs(file);
    expect(readFileSync(file, 'utf8')).toContain('BEN-DOCUMENT');
  });

  it("a link used where it does not belong opens nothing of another's", async () => {
    const { link, organizer } = await openCase(parley.origin, 'Wrong links');
    const benToken = (link.Ben as string).split('#t=')[1];
    // Ben's link on the initiator's page: Ben's own view, never the outbox.
    const ben = await openAs(browser, `${parley.origin}/cases/#t=${benToken}`, 360);
    people.push(ben);
    await ben.page.waitForSelector('#interview-title');
    expect(await ben.page.content()).not.toContain('Links to hand over');
    // Revoked: the page says so.
    const orgToken = organizer.split('#t=')[1];
    const parties = (
      await (
        await fetch(`${parley.origin}/cases/api/case`, {
          headers: { authorization: `Bearer ${orgToken}` },
        })
      ).json()
    ).links as { party: string; name: string }[];
    await fetch(`${parley.origin}/cases/api/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${orgToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ party: parties.find((p) => p.name === 'Ben')?.party }),
    });
    await ben.page.reload();
    await ben.page.waitForSelector('[role="alert"]:has-text("revoked")');
    expect(await axeViolations(ben.page)).toEqual([]);
    await shoot(ben.page, OUTPUT, 'cases-10-revoked-360');
  });
});
