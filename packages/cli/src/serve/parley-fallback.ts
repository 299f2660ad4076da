import { register } from 'node:module';

/**
 * The resolve hook, as a module of its own (hooks run off the main thread): a `@parley/*` import
 * that the importing module's folder cannot resolve is resolved from this CLI's folder instead.
 */
const HOOKS = `
let parent;
export function initialize(data) { parent = data.parent; }
export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (!specifier.startsWith('@parley/') || error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return next(specifier, { ...context, parentURL: parent });
  }
}
`;

let registered = false;

/**
 * Lets a service module outside any project with the @parley packages (a lone `my-service.ts`)
 * import them anyway: it gets this CLI's own copies, the same ones that serve it. A module whose
 * folder has its own copies keeps them.
 */
export function registerParleyFallback(): void {
  if (registered) return;
  registered = true;
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
    data: { parent: import.meta.url },
  });
}
