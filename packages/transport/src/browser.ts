// The transport in a browser (the `browser` condition of this package's "." export): what runs
// on web APIs alone. `dial` reaches HTTP bridges over fetch; listening needs Node (index.ts).
export type { DialOptions } from './dial.js';
export { dialFetch as dial, dialFetch } from './dial-fetch.js';
export { type FetchDialOptions, FetchFrameConnection } from './fetch-connection.js';
export type { FrameConnection, FrameReceiver } from './frame-connection.js';
export type { FrameHandler, HandleContext } from './handler.js';
export {
  DISCOVERY_HELLO,
  DISCOVERY_PATH,
  JSON_MEDIA_TYPE,
  NDJSON_MEDIA_TYPE,
} from './http-exchange.js';
export { DEFAULT_LIMITS, type ServerLimits } from './limits.js';
export {
  TRANSPORT_ERROR_REASONS,
  TransportError,
  type TransportErrorReason,
} from './transport-error.js';
export { TRANSPORT_REPLY_ID_PREFIX } from './transport-replies.js';
