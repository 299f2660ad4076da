import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/*
 * Each package's public API is what its entry points export, values and types alike. The names
 * are pinned in the package's public-api.txt (one `kind name` a line, `kind` value or type), so
 * that growing or shrinking a package's promise is a visible change in review.
 */

export const ROOT = resolve(import.meta.dirname, '..', '..');

/** A package entry point: its subpath (`.`, `./net`), the export condition if any, its source. */
export type Entry = { pkg: string; subpath: string; condition: string; file: string };

/** Every published package's entry points, from package.json `exports` with a `source`. */
export function packageEntries(): Entry[] {
  const entries: Entry[] = [];
  for (const name of readdirSync(join(ROOT, 'packages')).sort()) {
    const manifest = join(ROOT, 'packages', name, 'package.json');
    if (!existsSync(manifest)) continue;
    const { exports } = (readJson(manifest) ?? {}) as {
      exports?: Record<string, { source?: string | Record<string, string> } | string>;
    };
    for (const [subpath, target] of Object.entries(exports ?? {})) {
      if (typeof target === 'string' || target.source === undefined) continue;
      const sources =
        typeof target.source === 'string' ? { '': target.source } : { ...target.source };
      for (const [condition, source] of Object.entries(sources)) {
        const label = condition === 'default' ? '' : condition;
        const file = join(ROOT, 'packages', name, source);
        entries.push({ pkg: name, subpath, condition: label, file });
      }
    }
  }
  return entries;
}

function readJson(path: string): unknown {
  return JSON.parse(ts.sys.readFile(path) ?? 'null');
}

/** The names each entry exports, as sorted `value NAME` / `type NAME` lines. */
export function exportedNames(entries: readonly Entry[]): Map<Entry, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  const program = ts.createProgram(
    entries.map((e) => e.file),
    config?.options ?? {},
  );
  const checker = program.getTypeChecker();
  const result = new Map<Entry, string[]>();
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file);
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    const names = (symbol === undefined ? [] : checker.getExportsOfModule(symbol)).map(
      (exported) => {
        const target =
          exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const isValue = (target.flags & ts.SymbolFlags.Value) !== 0;
        return `${isValue ? 'value' : 'type'} ${exported.name}`;
      },
    );
    result.set(entry, names.sort());
  }
  return result;
}

/** Where an entry's pinned names are kept. */
export function pinFile(entry: Entry): string {
  const parts = [entry.subpath === '.' ? '' : entry.subpath.replace(/^\.\//, ''), entry.condition];
  const suffix = parts
    .filter((part) => part !== '')
    .map((part) => `.${part}`)
    .join('');
  return join(ROOT, 'packages', entry.pkg, `public-api${suffix}.txt`);
}
