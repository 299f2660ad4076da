/**
 * `npm run test:container`: the image as a user runs it. Builds the Dockerfile at the root, runs
 * it as `docker run -p 127.0.0.1:PORT:8080 -v VOLUME:/data IMAGE` would, waits for its
 * HEALTHCHECK, opens the page in Chromium and pairs it with the code from the container's log,
 * pairs a principal made on this host with the next code, and drives one INTENT and its COMMIT
 * through the published port with the repo's own CLI; then stops the container (SIGTERM, exit 0),
 * starts a new one on the same volume and finds the keys (same principal, none created), both
 * paired principals, and the receipt (the COMMIT again is its replay, §4.4) again.
 * Then compose.yaml's shape: two containers of `IMAGE parley serve shop --store postgres://…` on
 * one schema of this machine's PostgreSQL, a proposal made by one committed through the other.
 * Everything it made (containers, volume, image, schema, temp folder) is removed at the end, and
 * nothing else is touched (the build cache of its layers stays, as `docker build` keeps its own).
 *
 * Not part of `npm test`: a cold build takes minutes. Environment:
 * - PARLEY_CONTAINER_ENGINE: podman (default: buildah builds, podman runs) or docker.
 * - PARLEY_CONTAINER_BASE: the base image (--build-arg BASE); by default
 * localhost/node22-slim-local
 *   when that image exists (the stand-in for node:22-bookworm-slim where no registry is
 *   reachable), else the Dockerfile's own default.
 * - `--keep-image`: keep the built image (and its layers) for a faster next run.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ContainerEngine, containerEngine, runCommand } from './container-engine.js';
import {
  containerLog,
  elapsed,
  engineRun,
  type Frame,
  freePort,
  hostCli,
  MadeThings,
  ROOT,
  runHealthy,
  say,
} from './container-steps.js';
import { pairInChromium } from './page-in-chromium.js';
import { twoInstancesOnPostgres } from './two-instances.js';

const STAND_IN_BASE = 'localhost/node22-slim-local';
/** What `parley start` prints in the container (packages/cli/src/commands/start.ts). */
const PAIRING_LINE = /Pairing code for the page: (\S+)/;
const NEXT_CODE_LINE = /pairing code for another browser: ([\w-]+)/;
const KEYS_CREATED = 'created the local keys';
/** The image's user (Dockerfile: useradd --uid 10001). */
const IMAGE_UID = '10001';
const BUILD_LIMIT_MS = 30 * 60_000;

const made = new MadeThings();

async function main(): Promise<void> {
  const keepImage = process.argv.includes('--keep-image');
  if (!existsSync(join(ROOT, 'packages/cli/dist/bin.js'))) {
    throw new Error('the CLI is not built on this host (packages/cli/dist): run npm run build');
  }
  const engine = containerEngine(process.env.PARLEY_CONTAINER_ENGINE);
  const base = await chooseBase(engine);
  const id = `${process.pid}-${Date.now().toString(36)}`;
  const image = `localhost/parley-container-test:${id}`;
  const volume = `parley-container-test-${id}`;
  const work = mkdtempSync(join(tmpdir(), 'parley-container-test-'));
  made.add(`folder ${work}`, async () => rmSync(work, { recursive: true }));

  say(`building ${image} with ${engine.name}${base === undefined ? '' : ` on ${base}`}`);
  const [buildCommand, buildArgs] = engine.build(ROOT, image, base);
  const buildStarted = Date.now();
  if (!keepImage) made.add(`image ${image}`, () => engineRun(engine, ['rmi', '--force', image]));
  await runCommand(buildCommand, buildArgs, {
    timeoutMs: BUILD_LIMIT_MS,
    check: true,
    onLine: (line) => {
      if (/^(\[\d+\/\d+\] )?STEP \d+\/\d+/.test(line)) say(`  ${line.slice(0, 110)}`);
    },
  });
  say(`built in ${elapsed(buildStarted)} s`);
  const size = await engineRun(engine, ['image', 'inspect', '--format', '{{.Size}}', image]);
  say(`image size: ${(Number(size.trim()) / 1e6).toFixed(0)} MB`);

  await engineRun(engine, ['volume', 'create', volume]);
  made.add(`volume ${volume}`, () => engineRun(engine, ['volume', 'rm', volume]));

  // The first life of the container: keys made, a principal paired, one INTENT and COMMIT.
  const first = await startPage(engine, image, volume, `${volume}-1`);
  const firstLog = await containerLog(engine, first.name);
  assert.match(firstLog, new RegExp(KEYS_CREATED), 'the first start creates the keys in /data');
  const code = PAIRING_LINE.exec(firstLog)?.[1];
  assert.ok(code !== undefined, `the log shows the pairing code:\n${firstLog}`);
  say(`pairing code in the log: ${code}`);
  assert.equal(
    (await engineRun(engine, ['exec', first.name, 'id', '-u'])).trim(),
    IMAGE_UID,
    'the container runs as its own non-root user',
  );

  const page = await fetch(first.origin);
  assert.equal(page.status, 200, `GET ${first.origin}/ is the page`);
  assert.match(await page.text(), /<!doctype html>/i);
  say(`GET ${first.origin}/ → 200, the page (Host: 127.0.0.1:${first.port}, not 8080)`);

  await pairInChromium(first.origin, code);
  say('Chromium opened the page at the published port and paired with that code');

  const home = join(work, 'home');
  const cli = (...args: string[]) => hostCli(home, args);
  const frame = async (...args: string[]): Promise<Frame> =>
    JSON.parse((await cli(...args, '--json')).stdout) as Frame;
  await cli('keys', 'init');
  const { principal } = JSON.parse((await cli('whoami', '--json')).stdout) as {
    principal: string;
  };
  // The next code, printed once the browser paired; sent as the page does: same-origin POST.
  const next = NEXT_CODE_LINE.exec(await containerLog(engine, first.name))?.[1];
  assert.ok(next !== undefined, 'a pairing prints the code for the next one');
  const paired = await fetch(`${first.origin}/pairing`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: first.origin },
    body: JSON.stringify({ principal, code: next }),
  });
  assert.equal(
    paired.status,
    200,
    `pairing answered ${paired.status}: ${await paired.clone().text()}`,
  );
  assert.deepEqual(await paired.json(), { paired: true });
  say(`paired this host's principal ${principal.slice(0, 20)}… through the published port`);
  await cli('grant', '--svc', 'shop.example', '--can', 'shop.*');

  const shop = `${first.origin}/shop/parley`;
  const items = 'items:=[{"sku":"cab-1a","qty":1}]';
  const proposals = await frame('intent', shop, 'shop.order', items, 'delivery=standard');
  assert.equal(proposals.kind, 'PROPOSALS');
  const proposal = proposals.proposals?.[0]?.id as string;
  say(`INTENT shop.order at ${shop} → PROPOSALS, committing ${proposal}`);
  const receipt = await frame('commit', shop, proposal);
  assert.equal(receipt.kind, 'RECEIPT', JSON.stringify(receipt));
  assert.notEqual(receipt.replay, true);
  say(`COMMIT → RECEIPT ${receipt.receipt?.id}`);
  const keysBefore = await containerKeys(engine, first.name);

  // A clean stop, then a new container on the same volume.
  await engineRun(engine, ['stop', '--time', '30', first.name]);
  const exit = await engineRun(engine, ['inspect', '--format', '{{.State.ExitCode}}', first.name]);
  assert.equal(exit.trim(), '0', 'SIGTERM stops the container cleanly (exit 0)');
  assert.match(await containerLog(engine, first.name), /^stopped$/m);
  say('stopped the container with SIGTERM: exit 0');

  const second = await startPage(engine, image, volume, `${volume}-2`);
  const secondLog = await containerLog(engine, second.name);
  assert.doesNotMatch(secondLog, new RegExp(KEYS_CREATED), 'the keys are found, not made again');
  assert.match(secondLog, /2 paired page principals are trusted/);
  assert.deepEqual(await containerKeys(engine, second.name), keysBefore);
  say(`same keys in /data: principal ${keysBefore.principal.slice(0, 20)}…, none made`);
  const again = await frame('commit', `${second.origin}/shop/parley`, proposal);
  assert.equal(again.kind, 'RECEIPT', JSON.stringify(again));
  assert.equal(again.receipt?.id, receipt.receipt?.id, 'the same receipt, from the volume');
  assert.equal(again.replay, true, '§4.4: a COMMIT already done is a replay');
  say(`COMMIT again after the restart → RECEIPT ${again.receipt?.id} with "replay": true`);
  await engineRun(engine, ['stop', '--time', '30', second.name]);

  // `IMAGE parley serve …`: compose.yaml's two instances of a service on one PostgreSQL.
  await twoInstancesOnPostgres({ engine, made, image, id, home, principal });
}

/** The base image: PARLEY_CONTAINER_BASE, else the local stand-in if built, else the default. */
async function chooseBase(engine: ContainerEngine): Promise<string | undefined> {
  const named = process.env.PARLEY_CONTAINER_BASE;
  if (named !== undefined && named !== '') return named;
  if (engine.name !== 'podman') return undefined;
  const [command, args] = engine.cli('image', 'exists', STAND_IN_BASE);
  const exists = await runCommand(command, args, { timeoutMs: 60_000 });
  return exists.code === 0 ? STAND_IN_BASE : undefined;
}

/** The image's own command on the volume, port 8080 published on a free port of 127.0.0.1. */
async function startPage(
  engine: ContainerEngine,
  image: string,
  volume: string,
  name: string,
): Promise<{ name: string; port: number; origin: string }> {
  const port = await freePort();
  say(`starting ${name}: port 8080 published at 127.0.0.1:${port}, /data on ${volume}`);
  await runHealthy(engine, made, name, [
    '--publish',
    `127.0.0.1:${port}:8080`,
    '--volume',
    `${volume}:/data`,
    image,
  ]);
  return { name, port, origin: `http://127.0.0.1:${port}` };
}

/** The keys in the container's /data/home, as `parley whoami` inside it says. */
async function containerKeys(
  engine: ContainerEngine,
  name: string,
): Promise<{ principal: string; agent: string }> {
  const whoami = JSON.parse(
    await engineRun(engine, ['exec', name, 'parley', 'whoami', '--json']),
  ) as { principal: string; agent: string; home: string };
  assert.equal(whoami.home, '/data/home');
  return { principal: whoami.principal, agent: whoami.agent };
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: removing what this run made`);
    made.removeAll().finally(() => process.exit(130));
  });
}

try {
  await main();
  say('container test passed');
} catch (error) {
  process.exitCode = 1;
  say(`container test FAILED: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  if (!stopping) {
    await made.removeAll();
    say(`done in ${elapsed()} s`);
  }
}
