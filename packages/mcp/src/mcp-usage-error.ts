/**
 * An MCP bridge or server set up in a way it cannot run: no service URL, a listen address that is
 * not HOST:PORT, a bearer token too weak to guard it, consent asked for with no principal key.
 */
export class McpUsageError extends TypeError {
  override readonly name = 'McpUsageError';
}
