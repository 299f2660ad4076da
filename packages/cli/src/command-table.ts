import type { Command } from 'commander';
import type { Cli } from './command-kit.js';

/** Adds one family of commands to the program. */
export type Register = (program: Command, cli: Cli, env: NodeJS.ProcessEnv) => void;

/** A family of commands: the names it adds, and how to load the module that adds them. */
type CommandFamily = { names: readonly string[]; load: () => Promise<Register> };

/**
 * Every command, in the order `--help` lists them. Each family's module (and what it imports: the
 * MCP SDK, the OpenAPI parser, SQLite, PostgreSQL…) loads only when its command runs, so
 * `parley whoami` does not pay for `parley mcp`.
 */
export const COMMAND_FAMILIES: readonly CommandFamily[] = [
  { names: ['keys'], load: async () => (await import('./commands/keys.js')).registerKeys },
  { names: ['whoami'], load: async () => (await import('./commands/whoami.js')).registerWhoami },
  { names: ['grant'], load: async () => (await import('./commands/grant.js')).registerGrant },
  { names: ['grants'], load: async () => (await import('./commands/grants.js')).registerGrants },
  { names: ['revoke'], load: async () => (await import('./commands/revoke.js')).registerRevoke },
  {
    names: ['delegate'],
    load: async () => (await import('./commands/delegate.js')).registerDelegate,
  },
  { names: ['inspect'], load: async () => (await import('./commands/inspect.js')).registerInspect },
  { names: ['hello'], load: async () => (await import('./commands/hello.js')).registerHello },
  { names: ['ask'], load: async () => (await import('./commands/ask.js')).registerAsk },
  { names: ['intent'], load: async () => (await import('./commands/intent.js')).registerIntent },
  { names: ['commit'], load: async () => (await import('./commands/commit.js')).registerCommit },
  { names: ['approve'], load: async () => (await import('./commands/approve.js')).registerApprove },
  { names: ['undo'], load: async () => (await import('./commands/undo.js')).registerUndo },
  { names: ['expand'], load: async () => (await import('./commands/expand.js')).registerExpand },
  { names: ['lens'], load: async () => (await import('./commands/lens.js')).registerLens },
  { names: ['serve'], load: async () => (await import('./commands/serve.js')).registerServe },
  { names: ['start'], load: async () => (await import('./commands/start.js')).registerStart },
  { names: ['doubt'], load: async () => (await import('./commands/doubt.js')).registerDoubt },
  { names: ['audit'], load: async () => (await import('./commands/audit.js')).registerAudit },
  {
    names: ['decide', 'verify-receipt', 'check-party'],
    load: async () => (await import('./commands/consensus.js')).registerConsensus,
  },
  {
    names: ['consensus'],
    load: async () => (await import('./commands/consensus-network.js')).registerConsensusNetwork,
  },
  { names: ['cases'], load: async () => (await import('./commands/cases.js')).registerCases },
  {
    names: ['mcp', 'consensus-mcp'],
    load: async () => (await import('./commands/mcp.js')).registerMcp,
  },
  { names: ['setup'], load: async () => (await import('./commands/setup.js')).registerSetup },
  { names: ['doctor'], load: async () => (await import('./commands/doctor.js')).registerDoctor },
];

/** The families to register for `argv`: only the named command's, or all (help, typos). */
export function familiesFor(argv: readonly string[]): readonly CommandFamily[] {
  const name = argv[2];
  const named = COMMAND_FAMILIES.filter(
    (family) => name !== undefined && family.names.includes(name),
  );
  return named.length > 0 ? named : COMMAND_FAMILIES;
}
