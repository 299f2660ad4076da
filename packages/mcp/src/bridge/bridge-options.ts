import type { Wallet } from '@parley/client';
import type { KeyPair } from '@parley/protocol';
import type { ConsentInbox } from './consent-inbox.js';

/** Options of the Parley MCP bridge (`parley mcp URL…`). */
export interface ParleyMcpOptions {
  /** The Parley services to expose: parley://, parleys://, http(s):// URLs. */
  urls: readonly string[];
  /** The agent key and its grants; the bridge signs every request's proof with it. */
  wallet: Wallet;
  /**
   * The principal's key, given only when the person at the MCP host is the approver
   * (`parley mcp --principal-consent`). The bridge then asks them through MCP elicitation,
   * showing the proposal's effects, cost, risk and undo, and signs a one-shot consent grant
   * only on their explicit acceptance. Without it consent goes through `approvals`.
   */
  principal?: KeyPair;
  /** Where consent requests wait for `parley approve`; default: instructions only. */
  approvals?: ConsentInbox;
  /**
   * Grant tokens to add before each COMMIT and UNDO, for example the wallet file re-read after
   * `parley approve` wrote a consent grant into it. Tokens held by another key are skipped.
   */
  reloadGrants?: () => readonly string[] | Promise<readonly string[]>;
  /**
   * Also offer one tool per capability (named after it, its params as the input schema) beside
   * the five generic tools; default true (README: "One tool per capability").
   */
  capabilityTools?: boolean;
  /** ms per Parley request; default 30 s. */
  timeout?: number;
  /** ms to connect to a service; default 10 s. */
  connectTimeout?: number;
  /** Unexpected failures (never shown to the host); default: stderr. */
  onError?: (error: Error) => void;
  /** Unix milliseconds; default Date.now (proposal expiry). */
  now?: () => number;
}
