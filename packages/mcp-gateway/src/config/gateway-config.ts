import { readFileSync } from 'node:fs';
import type { EffectOp, JsonValue, Money, Risk } from '@parley/protocol';
import { GatewayError } from '../gateway-error.js';
import { compileSchema } from '../schema/argument-validator.js';
import { type ArgumentExpression, parseExpression } from './argument-expression.js';

/** How long a tool call may take by default (ms); progress notifications extend it. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Characters of a tool's result kept in an answer or a receipt by default. */
export const DEFAULT_RESULT_LIMIT = 16_384;
/** Seconds a receipt with a configured undo can be undone by default. */
export const DEFAULT_UNDO_WINDOW = 3600;

/** Per-tool choices (`config.schema.json`, `$defs.tool`). */
export type ToolConfig = {
  hidden?: boolean;
  kind?: 'ask' | 'intent';
  risk?: Risk;
  effect?: EffectOp;
  cost?: Money;
  undo?: { tool: string; arguments?: Record<string, JsonValue>; window?: number };
  precondition?: { tool: string; arguments?: Record<string, JsonValue> };
};

/** A configuration file of `parley serve mcp` (`config.schema.json`); every field optional. */
export type GatewayConfig = {
  id?: string;
  name?: string;
  summary?: string;
  prefix?: string;
  timeoutMs?: number;
  resultLimit?: number;
  tools?: Record<string, ToolConfig>;
};

/** A tool's undo: the inverse tool, its argument mapping and the window. */
export type UndoMapping = {
  tool: string;
  arguments: ReadonlyMap<string, ArgumentExpression>;
  window: number;
};

/** A tool's precondition read: the read-only tool and its arguments, from the call's. */
export type PreconditionMapping = {
  tool: string;
  arguments: ReadonlyMap<string, ArgumentExpression>;
};

/** One tool's choices, checked, with mappings parsed. */
export type ToolSettings = Omit<ToolConfig, 'undo' | 'precondition'> & {
  undo?: UndoMapping;
  precondition?: PreconditionMapping;
};

/** A checked configuration with its defaults filled in. */
export type GatewaySettings = Omit<GatewayConfig, 'tools' | 'timeoutMs' | 'resultLimit'> & {
  timeoutMs: number;
  resultLimit: number;
  tools: ReadonlyMap<string, ToolSettings>;
};

const SCHEMA_FILE = new URL('../../config.schema.json', import.meta.url);
let checkConfig: ((value: unknown) => string | undefined) | undefined;

/**
 * Checks a configuration against `config.schema.json` and parses its argument mappings; the
 * first problem is a GatewayError naming where it is (`where`: the file, for messages).
 */
export function checkGatewayConfig(value: unknown, where = 'the configuration'): GatewaySettings {
  checkConfig ??= compileSchema(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as object);
  const problem = checkConfig(value);
  if (problem !== undefined) {
    throw new GatewayError(`${where}: ${problem.replace('the arguments', 'the file')}`);
  }
  const config = value as GatewayConfig;
  const tools = new Map<string, ToolSettings>();
  for (const [name, tool] of Object.entries(config.tools ?? {})) {
    const here = `${where}: tools.${name}`;
    const { undo, precondition, ...rest } = tool;
    const settings: ToolSettings = { ...rest };
    if (undo !== undefined) {
      settings.undo = {
        tool: undo.tool,
        arguments: mapping(undo.arguments, `${here}.undo.arguments`),
        window: undo.window ?? DEFAULT_UNDO_WINDOW,
      };
    }
    if (precondition !== undefined) {
      const args = mapping(precondition.arguments, `${here}.precondition.arguments`);
      for (const [arg, expression] of args) {
        if (expression.kind === 'pointer' && expression.source !== 'arguments') {
          throw new GatewayError(
            `${here}.precondition.arguments.${arg}: a precondition is read before the call, so it can use only $arguments`,
          );
        }
      }
      settings.precondition = { tool: precondition.tool, arguments: args };
    }
    tools.set(name, settings);
  }
  const { tools: _tools, timeoutMs, resultLimit, ...service } = config;
  return {
    ...service,
    timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
    resultLimit: resultLimit ?? DEFAULT_RESULT_LIMIT,
    tools,
  };
}

/** Reads and checks a configuration file (JSON). */
export function loadGatewayConfig(file: string): GatewaySettings {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new GatewayError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GatewayError(`${file} is not JSON: ${(error as Error).message}`);
  }
  return checkGatewayConfig(value, file);
}

function mapping(
  values: Record<string, JsonValue> | undefined,
  where: string,
): Map<string, ArgumentExpression> {
  return new Map(
    Object.entries(values ?? {}).map(([name, value]) => [
      name,
      parseExpression(value, `${where}.${name}`),
    ]),
  );
}
