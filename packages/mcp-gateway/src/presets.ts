import { fileURLToPath } from 'node:url';

/** Configurations shipped for the reference MCP servers (`presets/NAME.json`). */
export const PRESET_NAMES = ['memory', 'filesystem'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/** The server name (its initialize answer's `serverInfo.name`) each preset was written for. */
const PRESET_SERVERS: Readonly<Record<string, PresetName>> = {
  'memory-server': 'memory',
  'secure-filesystem-server': 'filesystem',
};

export function isPresetName(name: string): name is PresetName {
  return (PRESET_NAMES as readonly string[]).includes(name);
}

/** The file of a preset. */
export function presetPath(name: PresetName): string {
  return fileURLToPath(new URL(`../presets/${name}.json`, import.meta.url));
}

/** The preset written for the server of this name, if there is one. */
export function presetForServer(serverName: string | undefined): PresetName | undefined {
  return serverName === undefined ? undefined : PRESET_SERVERS[serverName];
}
