import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/**
 * The MCP revisions of the modern era (no `initialize`; version and capabilities in each
 * request's `_meta`; `server/discover`) that these servers serve. The SDK's serving entries
 * answer exactly these; a test checks that `server/discover` advertises the same list.
 */
export const SERVED_MODERN_VERSIONS: readonly string[] = ['2026-07-28'];

/** The 2025-era revisions, negotiated by the `initialize` handshake (2025-11-25 first). */
export const SERVED_LEGACY_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
