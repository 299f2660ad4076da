import { type DecisionSpec, readSpec } from '@parley/consensus';

/** A decision to run: its spec file's exact text (Python number typing is read from it). */
export type Recipe = { key: string; file: string; text: string; spec: DecisionSpec };

// The recipes of packages/consensus/recipes (parley-consensus's demo recipes) and this page's
// own deadlock, as raw text: parsed with parsePyJson, so 5.0 stays a float and hashes agree.
const bundled = {
  ...import.meta.glob<string>('../../../../packages/consensus/recipes/*.json', {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
  ...import.meta.glob<string>('../../recipes/*.json', {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
};

/**
 * The bundled recipes, by title; the deadlock first after the committee, as the demo's second act.
 */
export const RECIPES: readonly Recipe[] = Object.entries(bundled)
  .map(([path, text]) => {
    const file = path.slice(path.lastIndexOf('/') + 1);
    return { key: file.replace(/\.json$/, ''), file, text, spec: readSpec(text) };
  })
  .sort((a, b) => a.spec.title.localeCompare(b.spec.title, 'en'));

/** The `presentation` of a recipe (descriptive keys the engine ignores), where it has one. */
export type Presentation = {
  situation?: string;
  parties?: Record<string, { blurb?: string }>;
  outcome?: string;
};

export function presentationOf(text: string): Presentation {
  try {
    const value = JSON.parse(text) as { presentation?: Presentation };
    return typeof value.presentation === 'object' && value.presentation !== null
      ? value.presentation
      : {};
  } catch {
    return {};
  }
}
