// @module-tag chromium: runs in this run's Chromium (see packages/test-support)
/**
 * The interview panel in a real browser against the real `parley start`: the six prompts, the
 * draft as rules beside the answers they came from, a question back, fix and add, confirmation
 * by every red line of the exact version, the party file downloaded; the scripted elicitor, then
 * a model behind an OpenAI-compatible URL whose key never reaches the page. Screenshots at
 * 390 px and desktop go to test/output/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testChromium } from '@parley/test-support';
import { type Browser, chromium, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedParley, startParley } from './fixtures/parley-start.js';

const OUTPUT = fileURLToPath(new URL('./output/', import.meta.url));
const ANSWERS = {
  desired_outcome: 'Fund something new that we can defend.',
  unacceptable: 'Anything not reviewed is out. A cost over 60 is unacceptable.',
  acceptable_costs: 'Less impact is fine.',
  priorities: 'Lower cost first.',
};

async function openPanel(browser: Browser, origin: string, width: number) {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    acceptDownloads: true,
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  const requests: Request[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(request));
  await page.goto(`${origin}/#consensus`);
  await page.waitForSelector('.elicitor[data-model="true"], .elicitor[data-model="false"]');
  return { page, errors, requests };
}

async function answer(page: Page): Promise<void> {
  await page.fill('#interview-name', 'Dana');
  for (const [id, text] of Object.entries(ANSWERS)) await page.fill(`#prompt-${id}`, text);
  await page.click('.draft-button');
  await page.waitForSelector('.draft-review');
}

/** Sends a request to the page server with the given Host and Origin, as another page would. */
function rawPost(origin: string, headers: Record<string, string>): Promise<number> {
  const url = new URL('/elicit', origin);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    sent.on('error', reject);
    sent.end(JSON.stringify({ answers: ANSWERS, options: [{ cost: 1 }] }));
  });
}

describe('the interview panel in Chromium, served by parley start', { timeout: 60_000 }, () => {
  let parley: StartedParley;
  let browser: Browser | undefined;

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
    await browser?.close();
    await parley?.stop();
  });

  it('from six answers to a confirmed, downloaded party file, on a desktop', async () => {
    const { page, errors, requests } = await openPanel(browser as Browser, parley.origin, 1440);
    await expect(page.locator('.elicitor').textContent()).resolves.toMatch(
      /Drafting with: the scripted elicitor \(fixed rules, no model\) \(no model is configured on the server/,
    );
    await answer(page);
    const rules = () => page.locator('.rules.hard .rule-text').allTextContents();
    await expect(rules()).resolves.toEqual([
      'h1 must hold: reviewed == true',
      'h2 must hold: cost <= 60',
    ]);
    // Under the red lines: how many of the committee's four options they leave.
    await expect(page.locator('.options-left').textContent()).resolves.toBe(
      'Your red lines leave 2 of the 4 options.',
    );
    await expect(
      page.locator('.rules.hard [data-id="h2"] .source').textContent(),
    ).resolves.toContain('A cost over 60 is unacceptable.');
    await expect(page.locator('.rules.soft .rule-text').allTextContents()).resolves.toEqual([
      's1 prefer lower cost (from 5 to 90), weight 3',
    ]);
    await expect(page.locator('.questions [data-id="q1"]').textContent()).resolves.toMatch(
      /You mention impact/,
    );
    const confirmButton = page.locator('.confirm button.primary');
    await expect(confirmButton.isDisabled()).resolves.toBe(true);
    await page.locator('.interview').screenshot({ path: join(OUTPUT, 'interview-01-draft.png') });
    // A question back: skipped. A red line fixed. A rule naming no attribute is refused.
    await page.click('.questions [data-id="q1"] button:has-text("Skip")');
    await page.click('[aria-label="Fix h2"]');
    await page.fill('#fix-h2', 'cost <= 50');
    await page.click('.rules.hard [data-id="h2"] button:has-text("Save")');
    await expect(rules()).resolves.toEqual([
      'h1 must hold: reviewed == true',
      'h2 must hold: cost <= 50',
    ]);
    await page.fill('#add-rule', 'mood == happy');
    await page.click('.add-rule button');
    await expect(page.locator('.draft-review > .problem').textContent()).resolves.toMatch(
      /^no option has the attribute "mood" \(the options have: impact, cost, novelty, reviewed\)/,
    );
    await page.fill('#add-rule', 'prefer higher novelty');
    await page.click('.add-rule button');
    await page.waitForSelector('.rules.soft [data-id="s2"]');
    // Every red line ticked, this version: only then it binds.
    await page.check('.confirm label:has-text("h1 must hold") input');
    await expect(confirmButton.isDisabled()).resolves.toBe(true);
    await page.check('.confirm label:has-text("h2 must hold") input');
    const version = await page.locator('.draft-review').getAttribute('data-version');
    await confirmButton.click();
    await expect(page.locator('.confirmed .ok-note').textContent()).resolves.toBe(
      `✓ Confirmed: 2 red lines and 2 preferences, version ${version?.slice(0, 12)}.`,
    );
    await page
      .locator('.interview')
      .screenshot({ path: join(OUTPUT, 'interview-02-confirmed.png') });
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.click('.confirmed button.primary'),
    ]);
    expect(file.suggestedFilename()).toBe('Dana.party.json');
    const saved = join(OUTPUT, 'Dana.party.json');
    await file.saveAs(saved);
    const party = JSON.parse(readFileSync(saved, 'utf8'));
    expect(party).toMatchObject({
      owner: 'Dana',
      hard: [
        { attr: 'reviewed', op: '==', value: true },
        { attr: 'cost', op: '<=', value: 50 },
      ],
      sheet: { version },
    });
    // Only the answers and the options went to the server, once; nothing after the draft.
    const posted = requests.filter((r) => r.method() === 'POST');
    expect(posted.map((r) => new URL(r.url()).pathname)).toEqual(['/elicit']);
    expect(Object.keys(JSON.parse(posted[0]?.postData() ?? '{}'))).toEqual(['answers', 'options']);
    expect(errors).toEqual([]);
  });

  it('at 390 px the panel reads without sideways scrolling', async () => {
    const { page, errors } = await openPanel(browser as Browser, parley.origin, 390);
    await answer(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await page.locator('.interview').screenshot({ path: join(OUTPUT, 'interview-03-390px.png') });
    expect(errors).toEqual([]);
  });

  it('keeps the page server’s Host and Origin checks, and its CSP', async () => {
    const host = new URL(parley.origin).host;
    const json = { 'content-type': 'application/json' };
    expect(await rawPost(parley.origin, { ...json, host, origin: parley.origin })).toBe(200);
    expect(await rawPost(parley.origin, { ...json, host, origin: 'http://evil.example' })).toBe(
      403,
    );
    expect(
      await rawPost(parley.origin, { ...json, host: 'evil.example', origin: parley.origin }),
    ).toBe(403);
    expect(await rawPost(parley.origin, { host, 'content-type': 'text/plain' })).toBe(415);
    const response = await fetch(`${parley.origin}/elicit`);
    expect(response.headers.get('content-security-policy')).toMatch(
      /default-src 'self'.*frame-ancestors 'none'/,
    );
  });
});

describe('the panel with a model on the server', { timeout: 60_000 }, () => {
  const KEY = 'sk-page-test-77aa88bb99cc00dd11ee';
  let model: Server;
  let parley: StartedParley;
  let browser: Browser | undefined;
  const seen: { authorization: string | undefined; body: string }[] = [];

  beforeAll(async () => {
    model = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        seen.push({ authorization: request.headers.authorization, body });
        const draft = {
          claims: ['We want it settled by June.', 'Our real ceiling is 80.'],
          hard: [{ attr: 'cost', op: '<=', value: 40, source_prompt_id: 'unacceptable' }],
        };
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 0,
            model: 'local-model',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: JSON.stringify(draft) },
                finish_reason: 'stop',
              },
            ],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
    parley = await startParley({
      args: ['--provider', 'openai', '--base-url', baseUrl, '--model', 'local-model'],
      env: { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: '' },
    });
    const { executablePath, args, env } = await testChromium();
    browser = await chromium.launch({ executablePath, args, env, headless: true, timeout: 15_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await parley?.stop();
    await new Promise<void>((resolve) => model.close(() => resolve()));
  });

  it('says which model drafts; the key stays on the server', async () => {
    const { page, errors, requests } = await openPanel(browser as Browser, parley.origin, 1440);
    await expect(page.locator('.elicitor').getAttribute('data-model')).resolves.toBe('true');
    await expect(page.locator('.elicitor strong').textContent()).resolves.toMatch(
      /^openai-compatible model local-model at http:\/\/127\.0\.0\.1:\d+\/v1$/,
    );
    await answer(page);
    await expect(page.locator('.rules.hard .rule-text').allTextContents()).resolves.toEqual([
      'h1 must hold: cost <= 40',
    ]);
    expect(seen.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
    expect(seen.at(-1)?.body).toContain('A cost over 60 is unacceptable.');
    for (const request of requests) {
      expect(`${request.url()} ${request.postData() ?? ''}`).not.toContain(KEY);
    }
    const bodies = await Promise.all(
      requests.map(async (r) => (await r.response())?.text().catch(() => '') ?? ''),
    );
    for (const body of bodies) expect(body).not.toContain(KEY);
    expect(parley.output()).not.toContain(KEY);
    await page.locator('.interview').screenshot({ path: join(OUTPUT, 'interview-04-model.png') });
    // The claims the model proposed are shown, and one the person would not share is dropped:
    // the party file records the claims confirmed, and only those.
    const claims = page.locator('.rules.claims .rule-text');
    await expect(claims.allTextContents()).resolves.toEqual([
      'We want it settled by June.',
      'Our real ceiling is 80.',
    ]);
    await page.click('button[aria-label="Drop claim c2"]');
    await page.waitForFunction(
      () => document.querySelectorAll('.rules.claims .rule-text').length === 1,
    );
    await page.check('.confirm label:has-text("h1 must hold") input');
    await page.click('.confirm button.primary');
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.click('.confirmed button.primary'),
    ]);
    const saved = join(OUTPUT, 'Dana-model.party.json');
    await file.saveAs(saved);
    expect(JSON.parse(readFileSync(saved, 'utf8')).sheet.claims).toEqual([
      'We want it settled by June.',
    ]);
    expect(errors).toEqual([]);
  });
});
