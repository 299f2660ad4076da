/**
 * Bounds on one decision, the same as parley-consensus's MCP server: a spec is evaluated
 * options x parties times, and every red line is checked per option.
 */
export const MAX_OPTIONS = 500;
export const MAX_PARTIES = 50;
export const MAX_EVALUATIONS = 10_000;
export const MAX_LIST_ITEMS = 1_000;
