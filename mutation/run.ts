/**
 * `npm run mutate [-- <scope>…] [--force] [--concurrency N]`: StrykerJS over the scopes of
 * scopes.ts, one after another, each with its own report under reports/mutation/. Prints, per
 * scope, how long it took and the score per file, and writes the surviving mutants to
 * reports/mutation/<scope>.survivors.txt.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { relative } from 'node:path';
import type { LogLevel, MutantResult, PartialStrykerOptions } from '@stryker-mutator/api/core';
import { Stryker } from '@stryker-mutator/core';
import { MUTATION_SCOPES, type MutationScope, mutationScopes, type Stretch } from './scopes.js';

const REPORTS = 'reports/mutation';

interface RunArgs {
  scopes: MutationScope[];
  force: boolean;
  concurrency: number;
}

function parseArgs(argv: string[]): RunArgs {
  const names: string[] = [];
  let force = false;
  let concurrency = 2;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--force') force = true;
    else if (arg === '--concurrency') {
      concurrency = Number(argv[++i]);
      if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
        throw new Error('--concurrency needs a whole number of at least 1');
      }
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else names.push(arg);
  }
  const scopes =
    names.length === 0
      ? MUTATION_SCOPES.filter((s) => s.onlyWhenNamed !== true)
      : names.flatMap(mutationScopes);
  return { scopes, force, concurrency };
}

/** `file:first-last` for Stryker's `mutate`, from the lines that open and follow the stretch. */
async function stretchRange(stretch: Stretch): Promise<string> {
  const lines = (await readFile(stretch.file, 'utf8')).split('\n');
  const first = lines.findIndex((line) => line.startsWith(stretch.from));
  const next = lines.findIndex((line, i) => i > first && line.startsWith(stretch.to));
  if (first < 0 || next < 0) {
    throw new Error(
      `${stretch.file} has no line starting "${first < 0 ? stretch.from : stretch.to}" (mutation/scopes.ts)`,
    );
  }
  return `${stretch.file}:${first + 1}-${next}`;
}

async function strykerOptions(scope: MutationScope, args: RunArgs): Promise<PartialStrykerOptions> {
  const ranges = await Promise.all(scope.stretches.map(stretchRange));
  const progress = process.stdout.isTTY ? 'progress' : 'progress-append-only';
  return {
    mutate: [...scope.files, ...ranges],
    testRunner: 'vitest',
    plugins: ['@stryker-mutator/vitest-runner'],
    vitest: { configFile: 'mutation/vitest.config.ts', related: true },
    coverageAnalysis: 'perTest',
    concurrency: args.concurrency,
    // The machine is shared: a slow test is not a timeout of the mutant.
    timeoutMS: 20_000,
    timeoutFactor: 2,
    incremental: true,
    incrementalFile: `${REPORTS}/${scope.name}.incremental.json`,
    force: args.force,
    reporters: ['clear-text', progress, 'html', 'json'],
    htmlReporter: { fileName: `${REPORTS}/${scope.name}.html` },
    jsonReporter: { fileName: `${REPORTS}/${scope.name}.json` },
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
    tempDirName: '.stryker-tmp',
    cleanTempDir: true,
    ignorePatterns: [
      '**/dist',
      'reports',
      '.stryker-tmp',
      '.parley-data',
      'coverage',
      'apps/*/test/output',
      '*.tsbuildinfo',
    ],
    thresholds: { high: 90, low: 75, break: null },
    // A const enum of the API, which a type-stripping loader cannot import as a value.
    logLevel: 'info' as LogLevel.Information,
    fileLogLevel: 'off' as LogLevel.Off,
  };
}

/** Killed and timed-out over every mutant that ran or had no test; Stryker's own score. */
export function mutationScore(results: readonly MutantResult[]): {
  detected: number;
  valid: number;
  survived: number;
  noCoverage: number;
} {
  let detected = 0;
  let survived = 0;
  let noCoverage = 0;
  for (const r of results) {
    if (r.status === 'Killed' || r.status === 'Timeout') detected++;
    else if (r.status === 'Survived') survived++;
    else if (r.status === 'NoCoverage') noCoverage++;
  }
  return { detected, valid: detected + survived + noCoverage, survived, noCoverage };
}

const percent = (detected: number, valid: number): string =>
  valid === 0 ? 'n/a' : `${((100 * detected) / valid).toFixed(1)}%`;

function scoreTable(results: readonly MutantResult[]): string[] {
  const byFile = new Map<string, MutantResult[]>();
  for (const r of results) {
    const file = relative(process.cwd(), r.fileName);
    byFile.set(file, [...(byFile.get(file) ?? []), r]);
  }
  const rows = [...byFile.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const lines: string[] = [];
  for (const [file, fileResults] of [...rows, ['all', results] as const]) {
    const s = mutationScore(fileResults);
    lines.push(
      `${percent(s.detected, s.valid).padStart(7)}  ${String(s.detected).padStart(4)}/${String(s.valid).padEnd(4)}  survived ${String(s.survived).padStart(3)}  no coverage ${String(s.noCoverage).padStart(3)}  ${file}`,
    );
  }
  return lines;
}

function survivorLines(results: readonly MutantResult[]): string[] {
  return results
    .filter((r) => r.status === 'Survived' || r.status === 'NoCoverage')
    .map((r) => {
      const at = `${relative(process.cwd(), r.fileName)}:${r.location.start.line}:${r.location.start.column}`;
      const replacement = (r.replacement ?? '').replace(/\s+/g, ' ').slice(0, 160);
      return `${at}  ${r.status}  ${r.mutatorName}  ${replacement}`;
    });
}

async function runScope(scope: MutationScope, args: RunArgs): Promise<string[]> {
  process.env.PARLEY_MUTATE_SCOPE = scope.name;
  const started = performance.now();
  const results = await new Stryker(await strykerOptions(scope, args)).runMutationTest();
  const seconds = (performance.now() - started) / 1000;
  const survivors = survivorLines(results);
  await writeFile(`${REPORTS}/${scope.name}.survivors.txt`, `${survivors.join('\n')}\n`);
  return [
    `scope ${scope.name}: ${results.length} mutants in ${seconds.toFixed(0)} s`,
    ...scoreTable(results),
    `survivors: ${REPORTS}/${scope.name}.survivors.txt`,
  ];
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  await mkdir(REPORTS, { recursive: true });
  const summary = [
    `node ${process.version}, ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at start, concurrency ${args.concurrency}`,
  ];
  for (const scope of args.scopes) summary.push(...(await runScope(scope, args)));
  summary.push(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at end`,
  );
  process.stdout.write(`\n${summary.join('\n')}\n`);
}

await main();
