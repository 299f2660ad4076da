import {
  ClientError,
  connect,
  type ParleyClient,
  type ProposalMemory,
  type Wallet,
} from '@parley/client';
import { type BriefReply, renderLens } from '@parley/protocol';

/** How a link connects. */
export interface LinkSettings {
  wallet: Wallet;
  /** Shared by every connection the bridge makes, so §6.6 checks survive reconnects. */
  proposals: ProposalMemory;
  timeout?: number;
  connectTimeout?: number;
}

/**
 * One Parley service the bridge exposes: its URL, its BRIEF once known, and a connection that
 * is made on first use and again after it breaks. After the first HELLO the service id is
 * pinned, so a reconnect to a URL now answered by another service id is refused.
 */
export class ServiceLink {
  readonly url: string;
  readonly #settings: LinkSettings;
  #brief: BriefReply | undefined;
  #client: Promise<ParleyClient> | undefined;

  constructor(url: string, settings: LinkSettings) {
    this.url = url;
    this.#settings = settings;
  }

  /** The service id, once a HELLO has been answered. */
  get id(): string | undefined {
    return this.#brief?.service.id;
  }

  /** The BRIEF, once known. */
  get brief(): BriefReply | undefined {
    return this.#brief;
  }

  /** The BRIEF as Lens, or a line saying it is not known yet. */
  briefLens(): string {
    return this.#brief === undefined
      ? `# ${this.url} (not reachable when this list was made; calls will try again)`
      : renderLens(this.#brief);
  }

  /** Whether `name` is this service's id or URL. */
  isNamed(name: string): boolean {
    return name === this.url || name === this.id;
  }

  /** Whether the BRIEF lists `capability`. */
  offers(capability: string): boolean {
    return this.#brief?.capabilities.some((c) => c.name === capability) ?? false;
  }

  /** The connection, connecting (and saying HELLO) first if needed. Rejects as connect() does. */
  client(): Promise<ParleyClient> {
    this.#client ??= this.#open().catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }

  /** Forgets a broken connection so the next call reconnects. */
  reset(): void {
    const stale = this.#client;
    this.#client = undefined;
    stale?.then((c) => c.close()).catch(() => {});
  }

  async close(): Promise<void> {
    const open = this.#client;
    this.#client = undefined;
    await open?.then((c) => c.close()).catch(() => {});
  }

  async #open(): Promise<ParleyClient> {
    const { wallet, proposals, timeout, connectTimeout } = this.#settings;
    const expected = this.id;
    const client = await connect(this.url, {
      wallet,
      proposals,
      agentName: 'parley-mcp',
      ...(timeout === undefined ? {} : { timeout }),
      ...(connectTimeout === undefined ? {} : { connectTimeout }),
    });
    try {
      const brief = await client.hello();
      if (expected !== undefined && brief.service.id !== expected) {
        throw new ClientError(
          'service_mismatch',
          `${this.url} now answers as "${brief.service.id}", not "${expected}"`,
        );
      }
      this.#brief = brief;
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }
}
