import { BrowserPolicy, type BrowserPolicyOptions } from '@parley/transport';
import type { Command } from 'commander';
import { CliError } from '../cli-error.js';
import { collectList } from '../grants/caveat-options.js';

/** `--cors ORIGIN` and `--allow-host NAME`, as commander parses them. */
export type BrowserFlags = { cors?: string[]; allowHost?: string[] };

/** Adds the flags that open an HTTP server to chosen web pages and host names. */
export function addBrowserFlags(command: Command): Command {
  return command
    .option(
      '--cors <origin>',
      'let pages at this origin call the HTTP server, e.g. http://127.0.0.1:8080 (repeatable)',
      collectList,
    )
    .option(
      '--allow-host <name>',
      'answer to this Host name too, besides IP addresses and localhost (repeatable)',
      collectList,
    );
}

/**
 * The BrowserPolicy options the flags give (transport's BrowserPolicy: Host and Origin checks,
 * CORS), checked now so a malformed origin is one sentence, not a failure at listen time.
 */
export function browserPolicyFrom(flags: BrowserFlags): BrowserPolicyOptions {
  const options: BrowserPolicyOptions = {
    ...(flags.cors === undefined ? {} : { cors: flags.cors }),
    ...(flags.allowHost === undefined ? {} : { allowedHosts: flags.allowHost }),
  };
  try {
    new BrowserPolicy(options);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  return options;
}
