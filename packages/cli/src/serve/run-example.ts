import { createExample, type ExampleName } from './example-services.js';
import { type RunningService, type RunOptions, runService } from './run-service.js';

/** Starts example `name` as any service runs (run-service.ts), under its own name. */
export function runExample(name: ExampleName, options: RunOptions): Promise<RunningService> {
  return runService(name, (host) => createExample(name, host), options, name);
}
