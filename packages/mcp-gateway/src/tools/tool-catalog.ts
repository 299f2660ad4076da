import type { Tool } from '@modelcontextprotocol/client';
import type { JsonValue } from '@parley/protocol';
import { digestOf } from '../calls/stable-json.js';
import type { ToolClient } from './tool-client.js';

/** A tool as the server last listed it, and the fingerprint of its definition. */
export type CatalogEntry = { tool: Tool; digest: string };

/** What changed between two listings. */
export type CatalogChange = { added: Tool[]; changed: Tool[]; removed: string[] };

/**
 * The fingerprint of what a person approves a call against: everything in the tool's definition
 * (name, title, description, schemas, annotations) except `_meta` and icons.
 */
export function definitionDigest(tool: Tool): string {
  const { _meta: _m, icons: _i, ...definition } = tool as Tool & { icons?: unknown };
  return digestOf(definition as unknown as JsonValue);
}

/**
 * The server's tools as last listed. `refresh` lists them again (on
 * `notifications/tools/list_changed`, or after a reconnect) and reports what changed; `entry`
 * waits for a refresh under way, so a COMMIT never compares against a list known to be stale.
 */
export class ToolCatalog {
  readonly #client: ToolClient;
  readonly #onChange: (change: CatalogChange) => void;
  readonly #report: (message: string) => void;
  #tools = new Map<string, CatalogEntry>();
  #running: Promise<void> | undefined;
  #again = false;

  constructor(
    client: ToolClient,
    onChange: (change: CatalogChange) => void,
    report: (message: string) => void,
  ) {
    this.#client = client;
    this.#onChange = onChange;
    this.#report = report;
  }

  /** Every tool as last listed, in the server's order. */
  get entries(): CatalogEntry[] {
    return [...this.#tools.values()];
  }

  /** Lists the tools for the first time; the listing must succeed. */
  async load(): Promise<CatalogEntry[]> {
    this.#tools = await this.#list();
    return this.entries;
  }

  /**
   * Lists the tools again and applies the change; a refresh asked for while one runs runs once
   * more after it, since the list may have changed after that listing started. A failed listing
   * is reported and the last list kept.
   */
  refresh(): Promise<void> {
    if (this.#running !== undefined) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        try {
          this.#apply(await this.#list());
        } catch (error) {
          this.#report(`could not list the tools again: ${(error as Error).message}`);
        }
      } while (this.#again);
    })().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** The tool `name` as listed once any refresh under way has finished. */
  async entry(name: string): Promise<CatalogEntry | undefined> {
    while (this.#running !== undefined) await this.#running;
    return this.#tools.get(name);
  }

  async #list(): Promise<Map<string, CatalogEntry>> {
    const { tools } = await this.#client.listTools();
    return new Map(tools.map((tool) => [tool.name, { tool, digest: definitionDigest(tool) }]));
  }

  #apply(next: Map<string, CatalogEntry>): void {
    const change: CatalogChange = { added: [], changed: [], removed: [] };
    for (const [name, entry] of next) {
      const before = this.#tools.get(name);
      if (before === undefined) change.added.push(entry.tool);
      else if (before.digest !== entry.digest) change.changed.push(entry.tool);
    }
    for (const name of this.#tools.keys()) if (!next.has(name)) change.removed.push(name);
    this.#tools = next;
    if (change.added.length + change.changed.length + change.removed.length > 0) {
      this.#onChange(change);
    }
  }
}
