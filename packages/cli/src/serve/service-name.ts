import { PRESET_NAMES } from '@parley/openapi/presets';
import { CliError } from '../cli-error.js';
import { EXAMPLE_NAMES, isExampleName } from './example-services.js';
import { documentName } from './openapi-factory.js';
import { isModulePath, moduleName } from './service-module.js';

/**
 * The name a service given to `parley serve` (or `parley doubt`) goes by, which names its data
 * folder: a bundled example's name, an OpenAPI document's (or preset's) name, or a module's file
 * name. `command` is the command the person typed, for the refusals.
 */
export function serviceName(
  target: string,
  document: string | undefined,
  command: 'serve' | 'doubt',
): string {
  if (target === 'openapi') {
    if (document === undefined) {
      const upstream = command === 'serve' ? ' --upstream URL' : '';
      throw new CliError(
        `openapi needs a document: parley ${command} openapi SPEC.yaml${upstream} (or a preset: ${PRESET_NAMES.join(', ')})`,
      );
    }
    return documentName(document);
  }
  if (document !== undefined) {
    throw new CliError(
      `${command} takes one service; "${document}" is one too many (only openapi takes a document)`,
    );
  }
  if (isExampleName(target)) return target;
  if (isModulePath(target)) return moduleName(target);
  throw new CliError(
    `no service "${target}": ${command} ${EXAMPLE_NAMES.join(', ')}, openapi DOCUMENT, or a module file like ./my-service.ts`,
  );
}
