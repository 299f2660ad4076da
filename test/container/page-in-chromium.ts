import assert from 'node:assert/strict';
import { testChromium } from '@parley/test-support';
import { chromium } from 'playwright-core';

/**
 * The page at `origin` in this run's Chromium (packages/test-support), as a person uses it: it
 * loads, asks for the pairing code, and says "Paired" once the code is typed; every request it
 * makes goes to its own origin, and no script error is thrown on the way.
 */
export async function pairInChromium(origin: string, code: string): Promise<void> {
  const { executablePath, args, env } = await testChromium();
  const browser = await chromium.launch({ executablePath, args, env, headless: true });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    const origins = new Set<string>();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => origins.add(new URL(request.url()).origin));
    await page.goto(origin);
    await page.fill('#pairing-code', code);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.ok-note >> text=Paired');
    assert.deepEqual(errors, [], 'the page throws no error');
    assert.deepEqual([...origins], [origin], 'the page calls its own origin alone');
  } finally {
    await browser.close();
  }
}
