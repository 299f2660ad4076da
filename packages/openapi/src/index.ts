export { compactType } from './compact-schema.js';
export { REDACTED, Redactor } from './credentials.js';
export type { OpenApiDocument, SchemaObject } from './document.js';
export { DEFAULT_UNDO_WINDOW, METHOD_EFFECT, METHOD_RISK } from './extensions.js';
export { loadDocument } from './load-document.js';
export { OpenApiError } from './openapi-error.js';
export {
  createOpenApiService,
  type OpenApiService,
  type OpenApiServiceOptions,
} from './openapi-service.js';
export type { Operation, Skipped } from './operations.js';
export { isPresetName, PRESET_NAMES, type PresetName, presetPath } from './presets.js';
export { DEFAULT_UPSTREAM_TIMEOUT_MS, MAX_UPSTREAM_BODY_BYTES } from './upstream.js';
