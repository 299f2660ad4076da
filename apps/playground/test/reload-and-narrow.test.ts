// @module-tag chromium: runs in this run's Chromium (see packages/test-support)
/**
 * What a new user found on the page (issue 21, item 17), in a real browser against the real
 * `parley start`: a used one-shot consent is shown as used and cannot be removed (§6.6), the
 * history survives a reload, at 390 px both tabs are whole on screen, and the deadlock recipe
 * says plainly why nothing was decided. Screenshots at 390 px and desktop go to test/output/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { estimateTokens } from '@parley/protocol';
import { testChromium } from '@parley/test-support';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actOn, pressOn, tabTo } from './fixtures/keyboard.js';
import { type StartedParley, startParley } from './fixtures/parley-start.js';

const OUTPUT = fileURLToPath(new URL('./output/', import.meta.url));

describe('the page after a used consent, a reload, and at 390 px', { timeout: 30_000 }, () => {
  let parley: StartedParley;
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];

  const step = (story: string, i: number) => `#${story} .step:nth-child(${i}) button`;
  const act = (selector: string, kind: string) => actOn(page, selector, kind);
  /** The text of every exchange card, in order: what a reload must show again. */
  const history = () =>
    page.locator('.exchange .request-line').evaluateAll((lines) => lines.map((l) => l.textContent));

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    parley = await startParley();
    const { executablePath, args, env } = await testChromium();
    browser = await chromium.launch({ executablePath, args, env, headless: true, timeout: 15_000 });
    const context = await browser.newContext({
      viewport: { width: 1440, height: 960 },
      reducedMotion: 'reduce',
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(parley.origin);
    await page.fill('#pairing-code', parley.code);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.ok-note >> text=Paired');
    await pressOn(page, '.grant-form button[type="submit"]');
    await page.waitForSelector('.grants li');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await parley?.stop();
  });

  it('§6.6 a one-shot consent, once its COMMIT went through, is shown as used, with no remove', async () => {
    await act(step('story-consent', 1), 'PROPOSALS');
    await act(step('story-consent', 2), 'ERROR');
    await page.locator('dialog.consent').waitFor();
    // While it waits for its COMMIT, the consent is a live grant like any other.
    const receipt = await act('dialog.consent button.primary', 'RECEIPT');
    const receiptId = (await receipt.locator('.status').textContent())?.match(/r_[\w-]+/)?.[0];
    const used = page.locator('.grants li.consent-grant.used');
    await expect(used.count()).resolves.toBe(1);
    await expect(used.textContent()).resolves.toMatch(/^Used .*by receipt r_/);
    if (receiptId !== undefined) await expect(used.textContent()).resolves.toContain(receiptId);
    // Nothing spent can be removed, and no live grant is a one-shot consent any more.
    await expect(used.locator('button').count()).resolves.toBe(0);
    await expect(page.locator('.grants li.consent-grant:not(.used)').count()).resolves.toBe(0);
    await expect(page.locator('.grants li button', { hasText: 'remove' }).count()).resolves.toBe(1);
    await page.locator('.grants').screenshot({ path: join(OUTPUT, 'r1-used-consent.png') });
  });

  it('the history of requests and replies survives a reload, and the used consent stays used', async () => {
    await act(step('story-budget', 1), 'ANSWER');
    const cut = await act(step('story-budget', 2), 'ANSWER');
    // §8: the reply re-asked at 80 fits 80 (what it keeps is fit-reply.test.ts's to check).
    const lens = (await cut.locator('[data-text="lens"]').textContent()) ?? '';
    expect(estimateTokens(lens)).toBeLessThanOrEqual(80);
    const before = await history();
    expect(before.length).toBeGreaterThanOrEqual(5);
    await page.reload();
    await page.waitForSelector('.exchange');
    await expect(history()).resolves.toEqual(before);
    await expect(
      page.locator('.exchange').last().locator('[data-text="lens"]').textContent(),
    ).resolves.toBe(lens);
    await expect(page.locator('.grants li.consent-grant.used').count()).resolves.toBe(1);
    await expect(page.locator('.grants li.consent-grant.used button').count()).resolves.toBe(0);
    // The story steps read the history: those done before the reload are done after it.
    await expect(page.locator('#story-budget .step-done').count()).resolves.toBeGreaterThanOrEqual(
      2,
    );
    // A new exchange after the reload goes on from the kept ones.
    await act(step('story-budget', 1), 'ANSWER');
    // (the new client may say HELLO on its own first).
    const after = await history();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.at(-1)).toBe(before.at(-2));
    await page.screenshot({ path: join(OUTPUT, 'r2-after-reload-desktop.png') });
    expect(pageErrors).toEqual([]);
  });

  it('at 390 px both tabs are whole on screen, each on one line, and whole in a wider font', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    /** Where each tab is, whether its label is clipped, and on how many lines it is set. */
    const tabs = () =>
      page.locator('[role="tab"]').evaluateAll((all) =>
        all.map((tab) => {
          const box = tab.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(tab);
          const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
          return {
            label: tab.textContent,
            left: box.left,
            right: box.right,
            clipped: tab.scrollWidth > tab.clientWidth || tab.scrollHeight > tab.clientHeight,
            lines,
          };
        }),
      );
    const whole = (label: string) => ({
      label,
      left: expect.toSatisfy((x: number) => x >= 0),
      right: expect.toSatisfy((x: number) => x <= 390),
      clipped: false,
      lines: 1,
    });
    const expected = [whole('Protocol playground'), whole('Consensus demo')];
    await expect(tabs()).resolves.toEqual(expected);
    // A phone's own font may be wider than this machine's: the tabs still fit.
    const wide = await page.addStyleTag({
      content: '.top, .top * { font-family: monospace !important; font-size: 17px !important; }',
    });
    // (set on two lines if it must, but never cut off).
    await expect(tabs()).resolves.toEqual(
      expected.map((tab) => ({ ...tab, lines: expect.toSatisfy((n: number) => n <= 2) })),
    );
    await page.screenshot({ path: join(OUTPUT, 'r3-protocol-390px-wide-font.png') });
    await wide.evaluate((style) => (style as HTMLStyleElement).remove());
    const sideways = await page.evaluate(() => document.querySelector('.top')?.scrollWidth ?? 0);
    expect(sideways).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(OUTPUT, 'r3-protocol-390px.png') });
    // The tabs are one stop for Tab; the arrow keys move between them (ARIA tabs pattern).
    await tabTo(page, '[role="tab"][aria-selected="true"]');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#panel-consensus:not([hidden])');
    await page.screenshot({ path: join(OUTPUT, 'r4-consensus-390px.png') });
  });

  it('the deadlock recipe says why plainly, without a double negative', async () => {
    await page.waitForSelector('#panel-consensus:not([hidden])');
    const deadlock = await page
      .locator('#recipe option')
      .evaluateAll((options) =>
        options.map((o) => (o as HTMLOptionElement).value).find((v) => v.includes('deadlock')),
      );
    await page.selectOption('#recipe', deadlock ?? '');
    const panel = page.locator('#panel-consensus');
    await expect(panel.textContent()).resolves.toContain(
      "Every option crosses at least one person's red line, so the honest answer is a deadlock",
    );
    await expect(panel.textContent()).resolves.not.toMatch(/nobody's red line/);
    await page.setViewportSize({ width: 1440, height: 960 });
    await page.screenshot({ path: join(OUTPUT, 'r5-deadlock-desktop.png') });
  });
});
