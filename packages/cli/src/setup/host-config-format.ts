import { isPlainObject } from '@parley/protocol';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { CliError } from '../cli-error.js';
import { isHttpEntry, type McpServerEntry } from './mcp-entry.js';
import type { HostFormat } from './mcp-hosts.js';

/** Reading and editing the MCP servers in the text of one host's config file. */
export interface HostConfigFormat {
  /** The text with these entries added, or replacing those of the same names. */
  withEntries(text: string | undefined, entries: Record<string, McpServerEntry>): string;
  /** The text without the named entries. */
  withoutEntries(text: string, names: readonly string[]): string;
  /** The named entries the text holds, as written there. */
  entries(text: string, names: readonly string[]): Record<string, unknown>;
}

/** The editor for a host's format; `path` only names the file in errors. */
export function hostConfigFormat(format: HostFormat, path: string): HostConfigFormat {
  return format.kind === 'json' ? jsonFormat(format, path) : tomlFormat(path);
}

function jsonFormat(format: Extract<HostFormat, { kind: 'json' }>, path: string): HostConfigFormat {
  const read = (text: string): Record<string, unknown> => {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      throw new CliError(
        `${path} is not plain JSON (${error instanceof Error ? error.message : String(error)}); fix it, or add the entry by hand`,
      );
    }
    if (!isPlainObject(doc)) throw new CliError(`${path} does not hold a JSON object`);
    const servers = doc[format.root];
    if (servers !== undefined && !isPlainObject(servers)) {
      throw new CliError(`${path}: "${format.root}" is not an object`);
    }
    return doc;
  };
  const write = (doc: Record<string, unknown>, like: string | undefined): string => {
    // Keep the file's own indentation; a new file gets two spaces.
    const indent = /^([ \t]+)\S/m.exec(like ?? '')?.[1] ?? '  ';
    const newline = like === undefined || like.endsWith('\n') ? '\n' : '';
    return `${JSON.stringify(doc, null, indent)}${newline}`;
  };
  const spelled = (entry: McpServerEntry): Record<string, unknown> => {
    if (!isHttpEntry(entry)) return format.stdioType ? { type: 'stdio', ...entry } : entry;
    if (format.http === null) {
      throw new CliError(`${path}: this host takes only local (stdio) servers in its file`);
    }
    return {
      ...(format.http.type ? { type: 'http' } : {}),
      [format.http.urlKey]: entry.url,
      headers: entry.headers,
    };
  };
  return {
    withEntries(text, entries) {
      const doc = text === undefined || text.trim() === '' ? {} : read(text);
      const servers = { ...((doc[format.root] as Record<string, unknown> | undefined) ?? {}) };
      for (const [name, entry] of Object.entries(entries)) servers[name] = spelled(entry);
      doc[format.root] = servers;
      return write(doc, text);
    },
    withoutEntries(text, names) {
      const doc = read(text);
      const servers = doc[format.root] as Record<string, unknown> | undefined;
      if (servers === undefined) return text;
      for (const name of names) delete servers[name];
      return write(doc, text);
    },
    entries(text, names) {
      const servers = (read(text)[format.root] as Record<string, unknown> | undefined) ?? {};
      return Object.fromEntries(names.filter((n) => n in servers).map((n) => [n, servers[n]]));
    },
  };
}

/** Marks the tables `parley setup` appends to a Codex config.toml, so it can take them out. */
const BEGIN = '# >>> parley setup: `parley setup --remove codex` takes this part out';
const END = '# <<< parley setup';
const MANAGED = new RegExp(`\\n?\\n?${literal(BEGIN)}\\n[^]*?${literal(END)}\\n?`);

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The text without the managed part and the blank line set before it. */
function withoutManaged(text: string): string {
  const rest = text.replace(MANAGED, '\n');
  return rest === '\n' ? '' : rest;
}

function tomlFormat(path: string): HostConfigFormat {
  const read = (text: string): Record<string, unknown> => {
    try {
      return parseToml(text) as Record<string, unknown>;
    } catch (error) {
      throw new CliError(
        `${path} is not valid TOML (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); fix it first`,
      );
    }
  };
  const servers = (doc: Record<string, unknown>): Record<string, unknown> =>
    isPlainObject(doc.mcp_servers) ? doc.mcp_servers : {};
  return {
    withEntries(text, entries) {
      const rest = withoutManaged(text ?? '');
      const taken = Object.keys(entries).filter((name) => name in servers(read(rest)));
      if (taken.length > 0) {
        throw new CliError(
          `${path} already defines [mcp_servers.${taken[0]}] by hand; remove it, then run parley setup again`,
        );
      }
      const spelled = Object.fromEntries(
        Object.entries(entries).map(([name, entry]) => [
          name,
          isHttpEntry(entry) ? { url: entry.url, http_headers: entry.headers } : entry,
        ]),
      );
      const tables = stringifyToml({ mcp_servers: spelled }).trim();
      const gap = rest === '' ? '' : rest.endsWith('\n') ? '\n' : '\n\n';
      const next = `${rest}${gap}${BEGIN}\n${tables}\n${END}\n`;
      read(next);
      return next;
    },
    withoutEntries(text) {
      return withoutManaged(text);
    },
    entries(text, names) {
      const found = servers(read(text));
      return Object.fromEntries(names.filter((n) => n in found).map((n) => [n, found[n]]));
    },
  };
}
