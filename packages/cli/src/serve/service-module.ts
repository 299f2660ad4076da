import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Service, ServiceFactory } from '@parley/service';
import { CliError } from '../cli-error.js';
import { reasonOf } from '../home/parley-home.js';
import { registerParleyFallback } from './parley-fallback.js';

/** Module files `parley serve` loads: TypeScript through tsx, JavaScript as it is. */
const TYPESCRIPT = ['.ts', '.mts', '.cts'] as const;
const JAVASCRIPT = ['.js', '.mjs', '.cjs'] as const;
const MODULE_EXTENSIONS: readonly string[] = [...TYPESCRIPT, ...JAVASCRIPT];

/** How a module must look, for every error that says it does not. */
const SHAPE =
  'export default a function ({ trust, store, log }) that returns defineService({ id, name, trust, store, log }) with its capabilities';

/** Whether `serve`'s argument names a module file rather than a bundled service. */
export function isModulePath(target: string): boolean {
  return /^\.{0,2}\//.test(target) || MODULE_EXTENSIONS.includes(extname(target));
}

/** A name for the module's data folder: its file name without the extension. */
export function moduleName(path: string): string {
  return basename(path, extname(path));
}

/**
 * The service factory a module exports by default. A `.ts` file is loaded with tsx (a
 * dependency of this CLI, since Node 20 cannot strip types), a `.js` file with Node's own
 * import; each failure is one sentence naming the file.
 */
export async function loadServiceFactory(path: string): Promise<ServiceFactory> {
  const file = resolve(path);
  if (!existsSync(file) || !statSync(file).isFile()) throw new CliError(`no file ${path}`);
  const extension = extname(file);
  if (!MODULE_EXTENSIONS.includes(extension)) {
    throw new CliError(`${path} is not a module: serve a ${MODULE_EXTENSIONS.join(', ')} file`);
  }
  const module = await importModule(
    file,
    path,
    (TYPESCRIPT as readonly string[]).includes(extension),
  );
  const factory = defaultExport(module);
  if (factory === undefined) throw new CliError(`${path} has no default export: ${SHAPE}`);
  if (isService(factory)) {
    throw new CliError(
      `${path} exports a service it built itself, so --trust, --data and --store cannot reach it: ${SHAPE}`,
    );
  }
  if (typeof factory !== 'function')
    throw new CliError(`${path}'s default export is not a function: ${SHAPE}`);
  return async (options) => {
    let service: unknown;
    try {
      service = await (factory as ServiceFactory)(options);
    } catch (error) {
      throw new CliError(`${path} failed to build its service: ${reasonOf(error)}`);
    }
    if (!isService(service))
      throw new CliError(`${path}'s factory did not return a service: ${SHAPE}`);
    return service;
  };
}

async function importModule(file: string, path: string, typescript: boolean): Promise<unknown> {
  registerParleyFallback();
  const url = pathToFileURL(file).href;
  let load: () => Promise<unknown> = () => import(url);
  if (typescript) {
    let tsImport: (specifier: string, parent: string) => Promise<unknown>;
    try {
      ({ tsImport } = await import('tsx/esm/api'));
    } catch {
      throw new CliError(
        `${path} is TypeScript and tsx is not installed (npm install tsx), or compile it to .js and serve that`,
      );
    }
    load = () => tsImport(url, import.meta.url);
  }
  try {
    return await load();
  } catch (error) {
    throw new CliError(`cannot load ${path}: ${firstLine(reasonOf(error))}${hintFor(error, file)}`);
  }
}

/**
 * What to do about a failed @parley import: in CommonJS scope (Node 20 cannot require an ES
 * module) make the file an ES module; otherwise the package is one this CLI lacks too.
 */
function hintFor(error: unknown, file: string): string {
  const message = reasonOf(error);
  const code = (error as { code?: unknown }).code;
  if (!/'@parley\//.test(message) && code !== 'ERR_REQUIRE_ESM') return '';
  if (isCommonJs(file)) {
    return ` (${basename(file)} is loaded as CommonJS, which cannot import the @parley packages: name it .mts, or add "type": "module" to its package.json)`;
  }
  return ' (this CLI has @parley/protocol, service, client, transport and openapi)';
}

/** Node's rule: .cjs, or .js/.ts under a package.json that does not say "type": "module". */
function isCommonJs(file: string): boolean {
  const extension = extname(file);
  if (extension === '.cjs' || extension === '.cts') return true;
  if (extension === '.mjs' || extension === '.mts') return false;
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type !== 'module';
      } catch {
        return true;
      }
    }
    if (dirname(folder) === folder) return true;
  }
}

/** The default export; a CommonJS module compiled from `export default` nests it once more. */
function defaultExport(module: unknown): unknown {
  const value = (module as { default?: unknown }).default;
  const nested = value as { __esModule?: unknown; default?: unknown } | null | undefined;
  return nested?.__esModule === true && nested.default !== undefined ? nested.default : value;
}

function isService(value: unknown): value is Service {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as Service).handle === 'function' &&
    typeof (value as Service).info?.id === 'string'
  );
}

/** The first line of a message, and the next one when the first only announces it. */
function firstLine(text: string): string {
  const [first = text, second] = text.split('\n');
  return first.endsWith(':') && second !== undefined ? `${first} ${second.trim()}` : first;
}
