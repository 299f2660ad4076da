#!/usr/bin/env node
import { runCli } from './main.js';
import { exitAfterOutput } from './standard-streams.js';

await exitAfterOutput(await runCli(process.argv));
