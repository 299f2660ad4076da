#!/usr/bin/env node
import { runCli } from './main.js';

// Writes to pipes, files and terminals are synchronous on Linux, so exiting loses no output;
// exiting explicitly keeps a stray handle from holding the command open.
process.exit(await runCli(process.argv));
