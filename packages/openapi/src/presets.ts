import { fileURLToPath } from 'node:url';

/** The OpenAPI documents this package ships, served by name. */
export const PRESET_NAMES = ['petstore', 'github'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export function isPresetName(name: string): name is PresetName {
  return (PRESET_NAMES as readonly string[]).includes(name);
}

/** The file of a preset document (in the package's `presets/` folder). */
export function presetPath(name: PresetName): string {
  return fileURLToPath(new URL(`../presets/${name}.yaml`, import.meta.url));
}
