/**
 * `parley mcp URL…` for the benchmarks, as the CLI runs it: a fresh agent key, no grants (the
 * measured calls are reads), stdio. Run as a child process by bench/mcp.bench.ts.
 */
import { Wallet } from '@parley/client';
import { serveParleyMcp } from '@parley/mcp';

await serveParleyMcp({ urls: process.argv.slice(2), wallet: await Wallet.generate() });
