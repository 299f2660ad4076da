/**
 * What `npm run mutate` mutates, one scope at a time, and which tests may kill each scope's
 * mutants. Stryker runs only the tests `related` to a mutated file and, per mutant, only those
 * that covered it, so the test lists bound the dry run, not the work per mutant.
 */

/**
 * A stretch of one file, from the line holding `from` up to the line before the one holding `to`.
 */
export interface Stretch {
  file: string;
  from: string;
  to: string;
}

export interface MutationScope {
  /** What the report calls the scope. */
  name: string;
  /** Whole files (Stryker globs). */
  files: string[];
  /**
   * Functions inside larger files, found by the lines that open them, so edits do not shift them.
   */
  stretches: Stretch[];
  /** vitest `include` globs for the tests that may kill this scope's mutants. */
  tests: string[];
  /** Run only when named: a part of a larger scope that `npm run mutate` alone already covers. */
  onlyWhenNamed?: true;
}

const PROTOCOL_TESTS = ['packages/protocol/src/**/*.test.ts', 'conformance/**/*.test.ts'];

// The in-process service tests; crash.test.ts drives child processes, whose coverage Stryker
// cannot see, so it would only lengthen the dry run.
const SERVICE_TESTS = [
  'packages/service/src/**/*.test.ts',
  'packages/service/test/{auto-replay,auto-undo-expand,authorization,expand-ask,frames,fuzz,hello-ask}.test.ts',
  'packages/service/test/{hold-effects,intent-commit,plans,retention,spend,undo-outside}.test.ts',
  // Two requests racing inside one process (issue 11: the survivors of in-flight and intent).
  'packages/service/test/{auto-race,in-flight-retry}.test.ts',
];

export const MUTATION_SCOPES: readonly MutationScope[] = [
  {
    name: 'proof',
    files: ['packages/protocol/src/proof.ts'],
    stretches: [],
    tests: PROTOCOL_TESTS,
  },
  {
    name: 'canonical',
    files: ['packages/protocol/src/canonical.ts'],
    stretches: [],
    tests: PROTOCOL_TESTS,
  },
  {
    // Bytes in and out of signatures and hashes: base64url, UTF-8, and the node:crypto port that
    // holds the native UTF-8 encoder.
    name: 'encoders',
    files: ['packages/protocol/src/{b64url,keys}.ts', 'packages/protocol/src/crypto/node.ts'],
    stretches: [],
    tests: PROTOCOL_TESTS,
  },
  {
    // Ids a service makes: sortable proposal and receipt ids, handles, frame ids.
    name: 'ids',
    files: ['packages/service/src/ids.ts'],
    stretches: [],
    tests: ['packages/service/src/ids.test.ts', 'packages/service/test/frames.test.ts'],
  },
  {
    name: 'grants',
    files: ['packages/protocol/src/grants/*.ts', '!packages/protocol/src/grants/*.test.ts'],
    stretches: [],
    tests: PROTOCOL_TESTS,
  },
  // The dispatcher in three parts, each short enough to run on its own: who may do what, how a
  // commit or an undo is executed and replayed, and the rest of the verbs.
  {
    name: 'dispatch-authorize',
    files: ['packages/service/src/dispatch/{authorize,commit,undo}.ts'],
    stretches: [],
    tests: SERVICE_TESTS,
  },
  {
    name: 'dispatch-execute',
    files: ['packages/service/src/dispatch/{intent,execute-commit,execute-undo,in-flight}.ts'],
    stretches: [],
    tests: SERVICE_TESTS,
  },
  {
    name: 'dispatch-other',
    files: [
      'packages/service/src/dispatch/{ask,core,draft,expand,hello,hold-effects,lookup,reply}.ts',
    ],
    stretches: [],
    tests: SERVICE_TESTS,
  },
  // One file of the dispatcher at a time (issue 21: the survivors a client could see), for a
  // rerun that fits the shared machine; the tests are the dispatcher's, Stryker runs per mutant
  // only those that reached it.
  ...['draft', 'hello', 'hold-effects', 'reply'].map(
    (file): MutationScope => ({
      name: `dispatch-${file}`,
      files: [`packages/service/src/dispatch/${file}.ts`],
      stretches: [],
      tests: SERVICE_TESTS,
      onlyWhenNamed: true,
    }),
  ),
  {
    // §6.3 reservations, the commit record and their release, in the two stores of @parley/service.
    name: 'stores',
    files: [],
    stretches: [
      {
        file: 'packages/service/src/store/memory-store.ts',
        from: '  #begin(start: CommitStart)',
        to: '  async getCommit(',
      },
      {
        file: 'packages/service/src/store/memory-store.ts',
        from: '  async spentTotal(',
        to: '  withData<T>(',
      },
      {
        file: 'packages/service/src/store/sqlite-store.ts',
        from: '  #reserve(start: CommitStart)',
        to: '  async getCommit(',
      },
      {
        file: 'packages/service/src/store/sqlite-store.ts',
        from: '  async spentTotal(',
        to: '  withData<T>(',
      },
    ],
    tests: SERVICE_TESTS,
  },
  {
    // PostgresStore's side of the same; the reservation itself is SQL (migrations.ts), which
    // Stryker does not mutate, so this covers the values bound to it and what is made of its
    // answer.
    name: 'postgres',
    files: [],
    stretches: [
      {
        file: 'packages/store-postgres/src/postgres-store.ts',
        from: '  #commitValues(start: CommitStart)',
        to: '  async getCommit(',
      },
      {
        file: 'packages/store-postgres/src/postgres-store.ts',
        from: '  async spentTotal(',
        to: '  withData<T>(',
      },
      {
        file: 'packages/store-postgres/src/postgres-store.ts',
        from: 'function reservationsOf(',
        to: 'function reportPoolError(',
      },
    ],
    // isolation and over-limit-race interleave two instances inside PostgreSQL: the only way to
    // reach the over_limit that commitInTransaction finds at its reservation.
    tests: [
      'packages/store-postgres/test/contract.test.ts',
      'packages/store-postgres/test/{isolation,over-limit-race}.test.ts',
    ],
  },
];

/** Names that stand for several scopes: `dispatch` is its three parts. */
export const SCOPE_GROUPS: Readonly<Record<string, readonly string[]>> = {
  dispatch: ['dispatch-authorize', 'dispatch-execute', 'dispatch-other'],
};

/** The scope of this name, or an error listing the names there are. */
export function mutationScope(name: string): MutationScope {
  const scope = MUTATION_SCOPES.find((s) => s.name === name);
  if (scope === undefined) {
    const names = [...MUTATION_SCOPES.map((s) => s.name), ...Object.keys(SCOPE_GROUPS)];
    throw new Error(`unknown mutation scope "${name}"; the scopes are ${names.join(', ')}`);
  }
  return scope;
}

/** The scopes a name stands for: a group's parts, or the one scope of that name. */
export function mutationScopes(name: string): MutationScope[] {
  const group = SCOPE_GROUPS[name];
  return group === undefined ? [mutationScope(name)] : group.map(mutationScope);
}
