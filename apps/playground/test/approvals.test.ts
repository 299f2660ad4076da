// @module-tag chromium: runs in this run's Chromium (see packages/test-support)
/**
 * Approval by several people (docs/extensions.md §E4) on the page, in a real browser against the
 * real `parley start`: the page holds three more people's keys, signs a grant whose commits need
 * 2 of the 3, and each person approves in turn: "1 of 2 approvals" after the first, the COMMIT
 * after the second. Screenshots at 1280 and 390 px go to test/output/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ErrorReply, parseFrame, type Reply } from '@parley/protocol';
import { testChromium } from '@parley/test-support';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actOn, pressOn, tabTo } from './fixtures/keyboard.js';
import { type StartedParley, startParley } from './fixtures/parley-start.js';

const OUTPUT = fileURLToPath(new URL('./output/', import.meta.url));
const require = createRequire(import.meta.url);

describe('§E4 approvals by several people on the page', { timeout: 60_000 }, () => {
  let parley: StartedParley;
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];

  const exchanges = () => page.locator('.exchange');
  const step = (story: string, i: number) => `#${story} .step:nth-child(${i}) button`;
  const act = (selector: string, kind: string) => actOn(page, selector, kind);
  const replyOf = async (card: ReturnType<typeof exchanges>) =>
    parseFrame((await card.locator('[data-text="json"]').textContent()) ?? '') as Reply;
  const addPerson = async (name: string) => {
    await tabTo(page, '#approver-name');
    await page.keyboard.type(name);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`.approvers li >> text=${name}`);
  };
  const approvalsLine = () => page.locator('dialog.consent #approvals-title').textContent();

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    parley = await startParley();
    const { executablePath, args, env } = await testChromium();
    browser = await chromium.launch({ executablePath, args, env, headless: true, timeout: 15_000 });
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      reducedMotion: 'reduce',
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(parley.origin);
    await page.fill('#pairing-code', parley.code);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.ok-note >> text=Paired');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await parley?.stop();
  });

  it('holds three people and signs a grant whose commits need 2 of them', async () => {
    // Without people listed, the grant form asks nothing about approvals.
    await expect(page.locator('#grant-approvals').count()).resolves.toBe(0);
    await pressOn(page, '.approvers button[type="submit"]');
    await expect(page.locator('#approver-problem').textContent()).resolves.toBe(
      'Type the person’s name.',
    );
    for (const name of ['Ana', 'Ben', 'Cy']) await addPerson(name);
    await page.fill('#approver-name', 'ana');
    await page.keyboard.press('Enter');
    await expect(page.locator('#approver-problem').textContent()).resolves.toBe(
      'ana is already listed; give each person their own name.',
    );
    await page.fill('#approver-name', '');
    await page.selectOption('#grant-approvals', '2');
    await pressOn(page, '.grant-form button[type="submit"]');
    const grant = page.locator('.grants li').first();
    await grant.waitFor();
    await expect(grant.textContent()).resolves.toContain(
      'each commit needs 2 of 3 to approve: Ana, Ben, Cy',
    );
    // Someone added after the grant was signed is not one of its approvers.
    await addPerson('Dee');
    await page.screenshot({ path: join(OUTPUT, 'a1-approvers-1280.png') });
  });

  it('the first approval is not enough: "1 of 2 approvals"; the second commits', async () => {
    await act(step('story-consent', 1), 'PROPOSALS');
    const asked = await act(step('story-consent', 2), 'ERROR');
    const first = (await replyOf(asked)) as ErrorReply;
    expect(first.code).toBe('consent_required');
    expect(first.message).toMatch(/^0 of 2 approvals/);
    const dialog = page.locator('dialog.consent');
    await dialog.waitFor();
    await expect(approvalsLine()).resolves.toBe(
      'Approvals: 0 of 2 approvals so far, from 3 people listed; each person counts once',
    );
    // One button per listed person this page holds; Dee is not listed, so not asked.
    const buttons = dialog.locator('.approvals button');
    await expect(buttons.allTextContents()).resolves.toEqual([
      'Approve as Ana',
      'Approve as Ben',
      'Approve as Cy',
    ]);
    // The principal does not sign over the rule it set.
    await expect(dialog.locator('button', { hasText: 'Approve and sign' }).count()).resolves.toBe(
      0,
    );

    const again = await act('dialog.consent .approvals li:nth-child(1) button', 'ERROR');
    const second = (await replyOf(again)) as ErrorReply;
    expect(second.code).toBe('consent_required');
    expect(second.message).toBe('1 of 2 approvals: the people listed must approve');
    expect(second.consent?.approvals?.have).toBe(1);
    await dialog.waitFor();
    await expect(approvalsLine()).resolves.toBe(
      'Approvals: 1 of 2 approvals so far, from 3 people listed; each person counts once',
    );
    await expect(dialog.locator('.approvals li.approved').textContent()).resolves.toBe(
      'Ana ✓ approved',
    );
    await expect(buttons.allTextContents()).resolves.toEqual(['Approve as Ben', 'Approve as Cy']);
    await dialog.screenshot({ path: join(OUTPUT, 'a2-one-of-two-1280.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    const box = await dialog.boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 999) <= 390).toBe(true);
    await page.screenshot({ path: join(OUTPUT, 'a3-one-of-two-390.png') });
    await page.setViewportSize({ width: 1280, height: 900 });
    // The people, the grant form with approvals and the open screen: every control labelled.
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
      return (await axe.run()).violations.map((v) => (v as { id: string }).id);
    });
    expect(violations).toEqual([]);

    const done = await act('dialog.consent .approvals li:nth-child(2) button', 'RECEIPT');
    await expect(done.locator('.status').textContent()).resolves.toMatch(/^✓ Order /);
    await expect(dialog.count()).resolves.toBe(0);
    // Both consents were spent by that COMMIT, each shown with who signed it.
    const used = await page.locator('.grants li.consent-grant.used').allTextContents();
    expect(used).toHaveLength(2);
    expect(used.join('\n')).toMatch(/signed by Ana; by receipt r_/);
    expect(used.join('\n')).toMatch(/signed by Ben; by receipt r_/);
    await page.screenshot({ path: join(OUTPUT, 'a4-committed-1280.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(sideways).toBeLessThanOrEqual(390);
    await page.locator('.approvers').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUTPUT, 'a5-approvers-390.png') });
    expect(pageErrors).toEqual([]);
  });
});
