// @module-tag chromium: runs in this run's Chromium (see packages/test-support)
/**
 * The page `npm start` serves, in a real browser against the real `parley start` (a child
 * process, on free ports): pairing, the "Ambiguous request" story to UNDO by keyboard alone, the
 * consent screen, budgets and EXPAND, Lens and JSON counted as Node counts them, the consensus
 * demo against `parley decide`, the private check (watching the network), the proof card, and
 * axe-core over both tabs. Screenshots of each screen go to test/output/.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  type AnswerReply,
  type Consent,
  consentLines,
  estimateTokens,
  type Proposal,
  parseFrame,
  type Reply,
  renderConsent,
  renderLens,
} from '@parley/protocol';
import { testChromium } from '@parley/test-support';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { type Browser, chromium, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actOn, pressOn, tabTo } from './fixtures/keyboard.js';
import { PAGE, runCli, type StartedParley, startParley } from './fixtures/parley-start.js';

const OUTPUT = fileURLToPath(new URL('./output/', import.meta.url));
const RECIPE = fileURLToPath(
  new URL('../../../packages/consensus/recipes/recipe_committee.json', import.meta.url),
);

describe('the playground page in Chromium, served by parley start', { timeout: 30_000 }, () => {
  let parley: StartedParley;
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];
  const requests: Request[] = [];

  const shoot = (name: string) =>
    page.screenshot({ path: join(OUTPUT, `${name}.png`), fullPage: false });
  const exchanges = () => page.locator('.exchange');
  const act = (selector: string, kind: string) => actOn(page, selector, kind);
  const replyOf = async (card: ReturnType<typeof exchanges>) =>
    parseFrame((await card.locator('[data-text="json"]').textContent()) ?? '') as Reply;
  const step = (story: string, i: number) => `#${story} .step:nth-child(${i}) button`;

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    parley = await startParley();
    const { executablePath, args, env } = await testChromium();
    browser = await chromium.launch({ executablePath, args, env, headless: true, timeout: 15_000 });
    const context = await browser.newContext({
      viewport: { width: 1440, height: 960 },
      acceptDownloads: true,
      // No smooth scrolling, so screenshots are taken of a page at rest.
      reducedMotion: 'reduce',
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => requests.push(request));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await parley?.stop();
  });

  it('loads from its own origin alone; bundle size and first-load time are measured', async () => {
    const started = Date.now();
    await page.goto(parley.origin);
    await page.waitForSelector('#pairing-code');
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return {
        domContentLoaded: Math.round(nav.domContentLoadedEventEnd),
        load: Math.round(nav.loadEventEnd),
        interactive: Math.round(performance.now()),
      };
    });
    // Every request the page made went to the page's own origin: no CDN, no outside fonts.
    expect(requests.map((r) => new URL(r.url()).origin)).toEqual(requests.map(() => parley.origin));
    // What the first load fetches, and the tokenizer's chunk that comes with the first reply.
    const assets = readFileSync(join(PAGE, 'index.html'), 'utf8').match(/assets\/[^"]+/g) ?? [];
    const sizes = (file: string) => {
      const body = readFileSync(join(PAGE, file));
      return { file, bytes: body.length, gzip: gzipSync(body).length };
    };
    const initial = ['index.html', ...assets].map(sizes);
    const tokenizer = readdirSync(join(PAGE, 'assets'))
      .filter((f) => f.startsWith('o200k'))
      .map((f) => sizes(`assets/${f}`));
    const measured = {
      initial,
      initialBytes: initial.reduce((sum, f) => sum + f.bytes, 0),
      initialGzip: initial.reduce((sum, f) => sum + f.gzip, 0),
      tokenizer,
      ...timing,
      wallMs: Date.now() - started,
    };
    writeFileSync(join(OUTPUT, 'first-load.json'), `${JSON.stringify(measured, null, 2)}\n`);
    console.log('first load (reported, not asserted):', JSON.stringify(measured));
    await shoot('01-first-run');
  });

  it('pairs only with the code npm start printed, by keyboard, and remembers it on disk', async () => {
    await tabTo(page, '#pairing-code');
    await page.keyboard.type('ZZZZ-ZZZZ');
    await page.keyboard.press('Enter');
    await expect(page.locator('#pairing-problem').textContent()).resolves.toMatch(
      /not the pairing code in the terminal where npm start runs/,
    );
    await shoot('02-wrong-code');
    await page.fill('#pairing-code', parley.code.toLowerCase());
    await page.keyboard.press('Enter');
    await page.waitForSelector('.ok-note >> text=Paired');
    const file = JSON.parse(readFileSync(join(parley.data, 'paired-principals.json'), 'utf8'));
    expect(file.principals).toHaveLength(1);
    expect(parley.output()).toMatch(/paired a page: the services trust its principal ed25519:/);
    // The code was used once; it pairs nothing again.
    const again = await page.evaluate(async (code) => {
      const response = await fetch('/pairing', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ principal: `ed25519:${'A'.repeat(43)}`, code }),
      });
      return response.status;
    }, parley.code);
    expect(again).toBe(403);
    // The principal signs a grant with the caveats of the form, by keyboard.
    await pressOn(page, '.grant-form button[type="submit"]');
    await page.waitForSelector('.grants li');
    await expect(page.locator('.grants').textContent()).resolves.toMatch(
      /services: cal\.example\.com, shop\.example.*each commit ≤ 30\.00 USD.*in total ≤ 200\.00 USD/,
    );
    await shoot('03-paired-and-granted');
  });

  it('"Ambiguous request" by keyboard alone: HELLO, ASK, CLARIFY, pick, COMMIT, UNDO', async () => {
    await act(step('story-ambiguous', 1), 'BRIEF');
    const found = await act(step('story-ambiguous', 2), 'ANSWER');
    await expect(found.textContent()).resolves.toContain('Ana Ruiz');
    const clarify = await act(step('story-ambiguous', 3), 'CLARIFY');
    await expect(clarify.locator('.question').textContent()).resolves.toBe('? Which Ana?');
    await expect(clarify.locator('.options button').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^1\. Ana Ruiz \(design\)/),
      expect.stringMatching(/^2\. Ana Li \(sales\)/),
    ]);
    await shoot('04-clarify');
    // The option button in the reply itself, reached by Tab like the rest.
    const proposals = await act('.log > .exchange:last-child .options button', 'PROPOSALS');
    await expect(proposals.locator('.effects').textContent()).resolves.toMatch(
      /update event\/e42\.start.*send ana\.ruiz@example\.com/,
    );
    const receipt = await act(step('story-ambiguous', 5), 'RECEIPT');
    await expect(receipt.locator('.status').textContent()).resolves.toMatch(
      /^✓ Move "1:1 with Ana"/,
    );
    // docs/extensions.md §E1: parley start signs receipts; the client checked the signature.
    await expect(receipt.locator('.signed').textContent()).resolves.toBe(
      '🔏 signed by cal.example.com',
    );
    const undone = await act(step('story-ambiguous', 6), 'RECEIPT');
    await expect(undone.locator('.status').textContent()).resolves.toMatch(/^↶ Undid r_/);
    await expect(undone.locator('.signed').textContent()).resolves.toBe(
      '🔏 signed by cal.example.com',
    );
    const rows = await undone.locator('.undo-table tbody tr').allTextContents();
    expect(rows[0]).toMatch(/update event\/e42\.start.*reversed/);
    expect(rows[1]).toMatch(/send ana\.ruiz@example\.com.*not undone.*a message cannot be unsent/);
    await expect(page.locator('#story-ambiguous .step-done').count()).resolves.toBe(6);
    await undone.scrollIntoViewIfNeeded();
    await undone.screenshot({ path: join(OUTPUT, '05-undo.png') });
  });

  it('beside every reply, its Lens and JSON, counted exactly as Node counts them', async () => {
    const cards = await exchanges().count();
    expect(cards).toBeGreaterThanOrEqual(6);
    for (let i = 0; i < cards; i++) {
      const card = exchanges().nth(i);
      await card.locator('[data-count="o200k"]:not([data-value=""])').first().waitFor();
      const lens = (await card.locator('[data-text="lens"]').textContent()) ?? '';
      const json = (await card.locator('[data-text="json"]').textContent()) ?? '';
      const reply = parseFrame(json) as Reply;
      // The JSON pane is the reply as it came; the Lens pane is that reply rendered (§9).
      expect(lens).toBe(renderLens(reply));
      const shown = await card
        .locator('[data-count]')
        .evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-value'))));
      expect(shown).toEqual([
        countTokens(lens),
        estimateTokens(lens),
        countTokens(json),
        estimateTokens(json),
      ]);
    }
    const proposals = exchanges()
      .filter({ has: page.locator('.reply-proposals') })
      .first();
    await proposals.scrollIntoViewIfNeeded();
    await proposals.screenshot({ path: join(OUTPUT, '06-lens-json.png') });
  });

  it('the consent screen shows what parley approve shows, and approving signs a one-shot grant', async () => {
    const offered = await act(step('story-consent', 1), 'PROPOSALS');
    await expect(offered.locator('.proposal h4').allTextContents()).resolves.toEqual([
      'Order 1 item, standard delivery',
      'Order 1 item, express delivery',
    ]);
    const express = ((await replyOf(offered)) as { proposals: Proposal[] })
      .proposals[1] as Proposal;
    const asked = await act(step('story-consent', 2), 'ERROR');
    const error = (await replyOf(asked)) as { consent: Consent; message: string };
    const dialog = page.locator('dialog.consent');
    await dialog.waitFor();
    const agent = await page.locator('.keys code').nth(1).getAttribute('title');
    // The same facts the CLI's approve screen prints, from the same rendering.
    const lines = consentLines(
      renderConsent(
        {
          consent: error.consent,
          proposal: express,
          service: 'shop.example',
          url: `${parley.origin}/shop/parley`,
          agent: agent ?? '',
          message: error.message,
        },
        Math.floor(Date.now() / 1000),
      ),
    );
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, label and value apart
    const shown = (await dialog.innerText()).replace(/\s+/g, ' ');
    for (const line of lines.map((l) => l.trim()).filter((l) => l !== '')) {
      const fact = line
        .replace(/^(Cost|Risk|Undo|Expires):\s+/, '')
        .replace(/ \(in \d+m\)$/, '')
        .replace(/:$/, '');
      expect(shown, line).toContain(fact.replace(/\s+/g, ' '));
    }
    await dialog.screenshot({ path: join(OUTPUT, '07-consent.png') });
    // Approve by keyboard: the dialog holds the focus, Tab reaches its buttons.
    const receipt = await act('dialog.consent button.primary', 'RECEIPT');
    await expect(receipt.locator('.status').textContent()).resolves.toMatch(
      /^✓ Order 1 item, express delivery/,
    );
    // §6.6: spent by that COMMIT, the consent is listed as used, with nothing to remove.
    await expect(page.locator('.grants .consent-grant.used').textContent()).resolves.toMatch(
      /^Used .*by receipt r_/,
    );
    const cancelled = await act(step('story-consent', 4), 'RECEIPT');
    const rows = await cancelled.locator('.undo-table tbody tr').allTextContents();
    expect(rows.join('\n')).toMatch(/charge card ••4242.*compensated.*refund 104\.98 USD/);
  });

  it('a budget cuts a reply and leaves EXPAND handles; EXPAND fetches the rest', async () => {
    await act(step('story-budget', 1), 'ANSWER');
    const cut = await act(step('story-budget', 2), 'ANSWER');
    await expect(cut.locator('.request-line + .tag').textContent()).resolves.toBe('budget 80');
    // §8: the cut keeps what fits, at least the first event here, and stays within the budget.
    const fitted = await replyOf(cut);
    expect(
      (fitted as AnswerReply & { data: { events: unknown[] } }).data.events.length,
    ).toBeGreaterThanOrEqual(1);
    expect(estimateTokens(renderLens(fitted))).toBeLessThanOrEqual(80);
    await expect(cut.locator('.more-item').first().textContent()).resolves.toMatch(
      /more at data\.events — handle h_/,
    );
    await cut.scrollIntoViewIfNeeded();
    await cut.screenshot({ path: join(OUTPUT, '08-budget.png') });
    const rest = await act(step('story-budget', 3), 'ANSWER');
    await expect(rest.locator('.request-line').textContent()).resolves.toMatch(/^EXPAND h_/);
    await expect(rest.locator('[data-text="lens"]').textContent()).resolves.toMatch(/items\[\d+\]/);
    expect(pageErrors).toEqual([]);
  });

  it('a recipe run hashes as `parley decide` does, and the browser recomputes it with WebCrypto', async () => {
    // The tabs are one stop for Tab; the arrow keys move between them (ARIA tabs pattern).
    await tabTo(page, '[role="tab"][aria-selected="true"]');
    await page.keyboard.press('ArrowRight');
    await expect(page.locator('#tab-consensus').getAttribute('aria-selected')).resolves.toBe(
      'true',
    );
    await page.waitForSelector('#recipe');
    await shoot('09-consensus');
    await pressOn(page, '.run-bar button');
    await page.waitForSelector('[data-match]');
    const engine = await page.locator('[data-hash="engine"]').textContent();
    const recomputed = await page.locator('[data-hash="browser"]').textContent();
    const cli = JSON.parse(await runCli(['decide', RECIPE, '--json'])) as {
      transcript_sha256: string;
    };
    expect(engine).toBe(cli.transcript_sha256);
    expect(recomputed).toBe(cli.transcript_sha256);
    await expect(page.locator('[data-match]').getAttribute('data-match')).resolves.toBe('true');
    await expect(page.locator('.consensus-result h3').textContent()).resolves.toBe(
      'Agreed: fund-biotech',
    );
    await expect(page.locator('tr.blocked').textContent()).resolves.toMatch(
      /rubber-stamp.*blocked by a red line/,
    );
    // Never whose: the blocked row names no party.
    for (const owner of ['Impact', 'Budget', 'Novelty']) {
      await expect(page.locator('tr.blocked').textContent()).resolves.not.toContain(owner);
    }
    await page
      .locator('.consensus-result')
      .screenshot({ path: join(OUTPUT, '10-consensus-result.png') });
  });

  it('each party’s private check, true and false, sends nothing anywhere', async () => {
    const before = requests.length;
    await page.selectOption('#private-owner', 'Budget');
    await pressOn(page, '.private-check button.primary');
    await expect(
      page.locator('.private-result [data-holds]').getAttribute('data-holds'),
    ).resolves.toBe('true');
    // Budget adds a red line of its own that the decision crosses: cost at most 10.
    const sheet = (await page.locator('#private-sheet').inputValue()).replace(
      '"hard": [',
      '"hard": [\n    {"attr": "cost", "op": "<=", "value": 10},',
    );
    await page.fill('#private-sheet', sheet);
    await pressOn(page, '.private-check button.primary');
    await expect(page.locator('.private-result').textContent()).resolves.toMatch(
      /Budget: this decision crosses your red line “cost <= 10”/,
    );
    await expect(
      page.locator('.private-result [data-holds]').getAttribute('data-holds'),
    ).resolves.toBe('false');
    expect(requests.slice(before).map((r) => r.url())).toEqual([]);
    await page.locator('.private-check').screenshot({ path: join(OUTPUT, '11-private-check.png') });
  });

  it('the proof card downloads as one self-contained HTML file', async () => {
    const engine = (await page.locator('[data-hash="engine"]').textContent()) ?? '';
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      pressOn(page, '.proof-section button.primary'),
    ]);
    const saved = join(OUTPUT, download.suggestedFilename());
    await download.saveAs(saved);
    expect(download.suggestedFilename()).toBe(`proof-card-${engine.slice(0, 12)}.html`);
    const html = readFileSync(saved, 'utf8');
    expect(html).toContain(engine);
    expect(html).toContain('Fund a grant proposal (committee vote)');
    expect(html).toMatch(/What it does not prove/);
    expect(html).not.toMatch(/<script|https?:\/\/(?!127)/);
    const card = await page.context().newPage();
    await card.setContent(html);
    await card.setViewportSize({ width: 900, height: 1000 });
    await card.screenshot({ path: join(OUTPUT, '12-proof-card.png'), fullPage: true });
    await card.close();
  });

  it('the honest deadlock recipe forces nothing on anyone', async () => {
    const deadlock = await page
      .locator('#recipe option')
      .evaluateAll((options) =>
        options.map((o) => (o as HTMLOptionElement).value).find((v) => v.includes('deadlock')),
      );
    await page.selectOption('#recipe', deadlock ?? '');
    await pressOn(page, '.run-bar button');
    await expect(page.locator('.consensus-result h3').textContent()).resolves.toBe(
      'Deadlock: no option is acceptable to every party',
    );
    await expect(page.locator('tr.blocked').count()).resolves.toBe(3);
    await page.locator('.consensus-result').screenshot({ path: join(OUTPUT, '13-deadlock.png') });
  });

  it('an uploaded spec file runs too; a malformed one is refused with the path at fault', async () => {
    await page.setInputFiles('#upload', RECIPE);
    await page.waitForFunction(
      () => (document.querySelector('#recipe') as HTMLSelectElement | null)?.value === '',
    );
    await pressOn(page, '.run-bar button');
    await page.waitForSelector('[data-match="true"]');
    await page.setInputFiles('#upload', {
      name: 'broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"title": "x", "options": [{"a": 1}], "parties": [{"owner": ""}]}'),
    });
    await expect(page.locator('.chooser .problem').textContent()).resolves.toMatch(
      /^broken\.json is not a decision spec: .*owner/,
    );
    await shoot('14-upload-error');
  });

  it('every control is labelled and both tabs pass axe-core', async () => {
    const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(axe);
    const audit = async () =>
      page.evaluate(async () => {
        const result = await (
          window as unknown as {
            axe: { run(): Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
          }
        ).axe.run();
        return result.violations.map(
          (v) =>
            `${v.id}: ${JSON.stringify(v.nodes.map((n) => (n as { target: unknown }).target))}`,
        );
      });
    expect(await audit()).toEqual([]);
    await tabTo(page, '[role="tab"][aria-selected="true"]');
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector('#panel-protocol:not([hidden])');
    expect(await audit()).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
