/** The version these MCP servers report to hosts (the package version). */
export const PACKAGE_VERSION = '0.1.0';
