// @module-tag chromium: runs in this run's Chromium (see packages/test-support)
/**
 * A party's review screen on the cases pages, with a model on the server (an OpenAI-compatible
 * one over real HTTP on 127.0.0.1): the claims the model extracted from the answers are shown,
 * and one the person would not share is dropped before confirming (03-private-elicitation:
 * every extracted item can be removed). The confirmed sheet holds the kept claim only. Also:
 * what the model proposed that names nothing in the options is shown as not used, and the rule
 * examples name the case's own attributes. Screenshots at 1280 and 390 px go to
 * test/output/cases-claims-*.png.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { testChromium } from '@parley/test-support';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, fitsWidth, openAs, type Person } from './fixtures/case-pages.js';
import type { StartedParley } from './fixtures/parley-start.js';
import { leaseCase, type ParleyWithModel, parleyWithModel } from './fixtures/parley-with-model.js';

const OUTPUT = fileURLToPath(new URL('./output/', import.meta.url));
const KEPT = 'We need to move in by June.';
const DROPPED = 'DROPPED-CLAIM Our real ceiling is 1200.';

/** What the model drafts from anything it is shown. */
const DRAFT = {
  claims: [KEPT, DROPPED],
  hard: [
    { attr: 'rent', op: '<=', value: 1000, source_prompt_id: 'unacceptable' },
    { attr: 'parking', op: '==', value: true, source_prompt_id: 'unacceptable' },
  ],
  utility: [],
  unclear: [],
};

describe('a party drops an extracted claim on the cases review screen', {
  timeout: 120_000,
}, () => {
  let served: ParleyWithModel;
  let parley: StartedParley;
  let browser: Browser | undefined;
  const people: Person[] = [];

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    served = await parleyWithModel(DRAFT, 'sk-cases-claims-test-0123456789');
    parley = served.parley;
    const { executablePath, args, env } = await testChromium();
    browser = await chromium.launch({ executablePath, args, env, headless: true, timeout: 15_000 });
  }, 60_000);

  afterAll(async () => {
    for (const p of people) await p.context.close();
    await browser?.close();
    await served?.close();
  });

  it('sees the claims, drops one, confirms, and the dropped claim is gone', async () => {
    const anaLink = (await leaseCase(parley.origin, 'Claims on review')).Ana as string;
    const ana = await openAs(browser as Browser, anaLink, 1280);
    people.push(ana);
    const { page } = ana;
    await page.waitForSelector('#interview-title');
    // The examples are written with this case's attributes (ruleExamples), none of another's.
    const help = (await page.locator('label[for="rule-text"]').textContent()) ?? '';
    expect(help).toContain('rent <= ');
    expect(help).toContain('plan != "A"');
    await page.fill('#prompt-unacceptable', 'A rent over 1000 is unacceptable.');
    await page.click('button:has-text("Draft my rules from my answers")');
    await page.waitForSelector('.rules.claims li');
    const claims = page.locator('.rules.claims .rule-text');
    await expect(claims.allTextContents()).resolves.toEqual([KEPT, DROPPED]);
    // What the model proposed that names nothing in the options is shown, never used.
    await page.click('details.rejected summary');
    await expect(page.locator('details.rejected li').allTextContents()).resolves.toEqual([
      expect.stringContaining('parking'),
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('.interview').screenshot({ path: `${OUTPUT}cases-claims-1280.png` });
    await page.setViewportSize({ width: 390, height: 860 });
    expect(await fitsWidth(page)).toBe(true);
    await page.locator('.interview').screenshot({ path: `${OUTPUT}cases-claims-390.png` });
    await page.click('button[aria-label="Drop claim c2"]');
    await page.waitForFunction(
      () => document.querySelectorAll('.rules.claims .rule-text').length === 1,
    );
    await expect(claims.allTextContents()).resolves.toEqual([KEPT]);
    await page.check('.rules.hard input[type="checkbox"]');
    await page.click('button:has-text("Confirm my rules")');
    await page.waitForSelector('h2:has-text("Your rules are confirmed")');
    const sheet = (await page.locator('pre.own-rules').textContent()) ?? '';
    expect(sheet).toContain(KEPT);
    expect(sheet).not.toContain('DROPPED-CLAIM');
    await page.screenshot({ path: `${OUTPUT}cases-claims-confirmed-390.png`, fullPage: true });
    // What the server holds for Ana says the same.
    const view = (await (
      await fetch(`${parley.origin}/cases/api/case`, {
        headers: { authorization: `Bearer ${anaLink.split('#t=')[1]}` },
      })
    ).json()) as { you: { sheet: string; sheet_confirmed: { rendered: string } } };
    expect(view.you.sheet).toBe('confirmed');
    expect(view.you.sheet_confirmed.rendered).toContain(KEPT);
    expect(view.you.sheet_confirmed.rendered).not.toContain('DROPPED-CLAIM');
    expect(ana.errors).toEqual([]);
  });
});
