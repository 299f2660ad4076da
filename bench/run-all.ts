/**
 * Runs every benchmark of the repository, one after another (they measure the machine: running
 * them side by side would measure each other). Each prints its own tables; bench/RESULTS.md holds
 * the figures of record and how each was made.
 *
 *   npm run bench                         (or: node --import tsx bench/run-all.ts [name…])
 *
 * The soak (issue 10: minutes of hostile traffic against `parley serve`) and ask-across-processes
 * (issue 15: ASK against `parley serve calendar` in its own process) run the built CLI, so build
 * first; alone the soak is `npm run soak`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BENCHES = [
  'protocol',
  'transport',
  'transport-vs-mcp',
  'ask-across-processes',
  'service',
  'postgres',
  'sweep',
  'consensus',
  'receipt',
  'consensus-net',
  'delegate-cpu',
  'python-bots',
  'mcp',
  'amplification',
  'soak',
] as const;

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(BENCHES as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(`no benchmark named ${unknown.join(', ')}; choose from ${BENCHES.join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const name of wanted.length > 0 ? wanted : BENCHES) {
  const file = fileURLToPath(new URL(`./${name}.bench.ts`, import.meta.url));
  console.log(`\n=== ${name} (${file})\n`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
