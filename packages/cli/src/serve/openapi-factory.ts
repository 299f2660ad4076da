import { existsSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { isPresetName, PRESET_NAMES, presetPath } from '@parley/openapi/presets';
import type { ServiceFactory } from '@parley/service';
import { CliError } from '../cli-error.js';

/** The flags of `parley serve openapi`. */
export type OpenApiFlags = { upstream?: string; authHeader?: string; authEnv?: string };

/** A preset's name, or the document's file name without its extension: names its data folder. */
export function documentName(document: string): string {
  return isPresetName(document) ? document : basename(document, extname(document));
}

/**
 * The factory `parley serve openapi DOCUMENT` runs: the document is a preset name or a YAML or
 * JSON file; the credential comes from the environment variable `--auth-env` names, never from
 * the command line, and is never printed. `say` gets what was served and skipped.
 */
export function openApiFactory(
  document: string,
  flags: OpenApiFlags,
  env: NodeJS.ProcessEnv,
  say: (line: string) => void,
): ServiceFactory {
  const source = isPresetName(document) ? presetPath(document) : resolve(document);
  if (!isPresetName(document) && !existsSync(source)) {
    throw new CliError(
      `no file ${document}, and no preset of that name (${PRESET_NAMES.join(', ')})`,
    );
  }
  if (flags.authHeader !== undefined && flags.authEnv === undefined) {
    throw new CliError(
      '--auth-header needs --auth-env VAR: the credential is read from the environment',
    );
  }
  let auth: { secret: string; header?: string } | undefined;
  if (flags.authEnv !== undefined) {
    const secret = env[flags.authEnv];
    if (secret === undefined || secret.trim() === '') {
      throw new CliError(
        `${flags.authEnv} is not set: export ${flags.authEnv}=… with the upstream's credential`,
      );
    }
    auth = { secret, ...(flags.authHeader === undefined ? {} : { header: flags.authHeader }) };
  }
  return async (serve) => {
    // Loaded here: the OpenAPI parser is not needed by any other command.
    const { createOpenApiService, OpenApiError } = await import('@parley/openapi');
    try {
      const built = await createOpenApiService({
        document: source,
        ...(flags.upstream === undefined ? {} : { upstream: flags.upstream }),
        ...(auth === undefined ? {} : { auth }),
        ...serve,
      });
      say(
        `serving ${built.operations.length} operations of ${document} from ${built.upstream}${auth === undefined ? '' : ` (credential from ${flags.authEnv}; every request needs a grant)`}\n`,
      );
      for (const skip of built.skipped)
        say(`skipped ${skip.method} ${skip.path}: ${skip.reason}\n`);
      return built.service;
    } catch (error) {
      if (error instanceof OpenApiError) throw new CliError(error.message);
      throw error;
    }
  };
}
