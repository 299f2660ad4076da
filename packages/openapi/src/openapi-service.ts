import { defineService, type Service, type ServiceOptions, type Store } from '@parley/service';
import { Redactor } from './credentials.js';
import { documentSettings } from './extensions.js';
import { loadDocument } from './load-document.js';
import { OpenApiError } from './openapi-error.js';
import { type Operation, readOperations, type Skipped } from './operations.js';
import { type Backend, readCapability } from './read-capability.js';
import { redactedAsk, redactedIntent } from './redacted-capability.js';
import { undoPlanOf } from './undo-plan.js';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, Upstream } from './upstream.js';
import { resolveCredentials } from './upstream-auth.js';
import { upstreamBase } from './upstream-base.js';
import { writeCapability } from './write-capability.js';

export type OpenApiServiceOptions = {
  /** A YAML or JSON file of an OpenAPI 3.0 or 3.1 document, or the parsed document. */
  document: string | object;
  /** The API's base URL; default the document's first absolute server URL. */
  upstream?: string;
  /**
   * The credential the service sends upstream, and the header that carries it (default: the
   * document's one header security scheme). It never appears in a reply, log or error.
   */
  auth?: { secret: string; header?: string };
  /** Principal keys whose grants the service honours (§6.4). */
  trust: ServiceOptions['trust'];
  store?: Store;
  /** The service id; default `info.x-parley-id`, else the upstream's host. */
  id?: string;
  clock?: () => number;
  /** ms to wait for each upstream answer. */
  timeoutMs?: number;
  /** Internal errors, credentials removed. */
  log?: (message: string, error: unknown) => void;
};

/** The built service, the operations it serves and those it skipped (with reasons). */
export type OpenApiService = {
  service: Service;
  upstream: string;
  operations: Operation[];
  skipped: Skipped[];
};

/**
 * An HTTP API as a Parley service, from its OpenAPI document: GET and HEAD as ask capabilities,
 * POST, PUT, PATCH and DELETE as intents whose proposals show the exact request COMMIT sends.
 * With credentials, every request needs a grant: the upstream is called with the operator's
 * credentials, so only principals the service trusts may make it call.
 */
export async function createOpenApiService(
  options: OpenApiServiceOptions,
): Promise<OpenApiService> {
  const document = await loadDocument(options.document);
  const settings = documentSettings(document);
  const base = upstreamBase(document, options.upstream);
  const credentials =
    options.auth === undefined
      ? undefined
      : resolveCredentials(document, options.auth.secret, options.auth.header);
  const redactor = new Redactor(
    options.auth === undefined ? [] : [options.auth.secret, credentials?.value ?? ''],
  );
  const { operations, skipped } = readOperations(document, settings.prefix);
  if (operations.length === 0) {
    throw new OpenApiError('the document has no operation this service can serve');
  }
  const backend: Backend = {
    upstream: new Upstream({
      base,
      headers: settings.headers,
      credentials,
      timeoutMs: options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS,
    }),
    redactor,
  };
  const log =
    options.log ?? ((message, error) => console.error(`[parley openapi] ${message}`, error));
  const service = defineService({
    id: options.id ?? settings.id ?? new URL(base).host,
    name: document.info.title,
    ...summaryOf(document),
    trust: options.trust,
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    requireGrants: { ask: credentials !== undefined, intent: credentials !== undefined },
    log: (message, error) => log(redactor.text(message), redactor.error(error)),
  });
  const byOperationId = new Map(operations.map((op) => [op.operationId, op]));
  for (const operation of operations) {
    if (operation.policy === undefined) {
      service.ask(operation.capability, redactedAsk(readCapability(operation, backend), redactor));
    } else {
      const undo = undoPlanOf(operation, byOperationId, backend);
      service.intent(
        operation.capability,
        redactedIntent(writeCapability(operation, backend, undo), redactor),
      );
    }
  }
  return { service, upstream: base, operations, skipped };
}

function summaryOf(document: { info: { summary?: string; description?: string } }): {
  summary?: string;
} {
  const text = document.info.summary ?? document.info.description?.split(/(?<=[.!?])\s/)[0];
  const line = text?.replace(/\s+/g, ' ').trim();
  return line === undefined || line === '' ? {} : { summary: line };
}
