import { PRESET_NAMES } from '@parley/openapi/presets';
import { CliError } from '../cli-error.js';
import { EXAMPLE_NAMES, isExampleName } from './example-services.js';
import { mcpServerName } from './mcp-server-name.js';
import { documentName } from './openapi-factory.js';
import { isModulePath, moduleName } from './service-module.js';

/**
 * The name a service given to `parley serve` (or `parley doubt`, `parley audit`) goes by, which
 * names its data folder: a bundled example's name, an OpenAPI document's (or preset's) name, an
 * MCP server's (`--name`, else from its command or URL), or a module's file name. `rest` is what
 * follows the service: the document, or the MCP server's command; `command` is the command the
 * person typed, for the refusals.
 */
export function serviceName(
  target: string,
  rest: readonly string[],
  command: 'serve' | 'doubt' | 'audit',
  flags: { name?: string; url?: string } = {},
): string {
  if (target === 'mcp') {
    if (flags.name !== undefined) return mcpServerName([flags.name]);
    if (rest.length === 0 && flags.url === undefined) {
      throw new CliError(
        command === 'serve'
          ? 'mcp needs a server: parley serve mcp -- COMMAND ARGS…, or --url URL'
          : `mcp needs the name parley serve mcp printed: parley ${command} mcp NAME`,
      );
    }
    return mcpServerName(rest, flags.url);
  }
  const [document, ...extra] = rest;
  if (target === 'openapi') {
    if (document === undefined) {
      const upstream = command === 'serve' ? ' --upstream URL' : '';
      throw new CliError(
        `openapi needs a document: parley ${command} openapi SPEC.yaml${upstream} (or a preset: ${PRESET_NAMES.join(', ')})`,
      );
    }
    if (extra.length > 0)
      throw new CliError(`openapi takes one document; "${extra[0]}" is one too many`);
    return documentName(document);
  }
  if (document !== undefined) {
    throw new CliError(
      `${command} takes one service; "${document}" is one too many (only openapi takes a document, and mcp a command)`,
    );
  }
  if (isExampleName(target)) return target;
  if (isModulePath(target)) return moduleName(target);
  throw new CliError(
    `no service "${target}": ${command} ${EXAMPLE_NAMES.join(', ')}, openapi DOCUMENT, mcp -- COMMAND, or a module file like ./my-service.ts`,
  );
}
