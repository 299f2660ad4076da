import { readFileSync } from 'node:fs';

/** Reads one vector file of this folder (see PROVENANCE.txt). */
export function loadVectors<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8')) as T;
}
