export {
  BrowserPolicy,
  type BrowserPolicyOptions,
  type BrowserRequest,
  type BrowserVerdict,
} from './browser-policy.js';
export { DEFAULT_CONNECT_TIMEOUT_MS, type DialOptions, dial } from './dial.js';
export { dialFetch } from './dial-fetch.js';
export { type FetchDialOptions, FetchFrameConnection } from './fetch-connection.js';
export type { FrameConnection, FrameReceiver } from './frame-connection.js';
export type { FrameHandler, HandleContext } from './handler.js';
export {
  ALIVE_PATH,
  allProbes,
  type HealthAnswer,
  healthAnswer,
  isHealthPath,
  READINESS_TIMEOUT_MS,
  READY_PATH,
  type ReadinessProbe,
  sharedProbe,
} from './health.js';
export { type HealthServer, listenHealth } from './health-server.js';
export { createHttpBridge, type HttpBridge, type HttpBridgeOptions } from './http-bridge.js';
export {
  DISCOVERY_HELLO,
  DISCOVERY_PATH,
  JSON_MEDIA_TYPE,
  NDJSON_MEDIA_TYPE,
} from './http-exchange.js';
export { type HttpListenOptions, listenHttp } from './http-server.js';
export { DEFAULT_LIMITS, type ServerLimits } from './limits.js';
export { type LineSink, LineSplitter } from './line-splitter.js';
export { type ListenOptions, listen } from './listen.js';
export { answeredByPolicy } from './node-browser-policy.js';
export { answeredHealth } from './node-health.js';
export { toWebRequest, type WebRequestOptions, writeWebResponse } from './node-web-request.js';
export {
  DEFAULT_TCP_PORT,
  DEFAULT_TLS_PORT,
  type ParleyUrl,
  parseParleyUrl,
} from './parley-url.js';
export type { ErrorReporter, ParleyServer, RefusalReporter } from './server.js';
export { type StdioServeOptions, serveStdio } from './stdio-server.js';
export { listenStream, type StreamListenOptions } from './stream-server.js';
export {
  TRANSPORT_ERROR_REASONS,
  TransportError,
  type TransportErrorReason,
} from './transport-error.js';
export { TRANSPORT_REPLY_ID_PREFIX } from './transport-replies.js';
