export { AskedOption } from './asked-option.js';
export {
  type Answer,
  Delegate,
  type DelegateOptions,
  type Refusal,
  type SessionRefusal,
} from './delegate.js';
export { DelegateConnections } from './delegate-connections.js';
export {
  DelegateError,
  type DelegateFailure,
  FAILURE_KINDS,
  type FailureKind,
} from './delegate-failure.js';
export {
  DEFAULT_FAILED_RATE,
  type DelegateServer,
  type ServeDelegateOptions,
  serveDelegate,
  verdictText,
} from './delegate-server.js';
export { type RateDecision, type RateLimit, RateLimiter } from './rate-limiter.js';
export {
  DEFAULT_CONCURRENCY,
  DEFAULT_TIMEOUT_MS,
  RemoteAgent,
  type RemoteAgentOptions,
} from './remote-agent.js';
export {
  type DelegateAddress,
  type DelegateInfo,
  type NetworkOutcome,
  type RunAcrossDelegatesOptions,
  runAcrossDelegates,
} from './run-across-delegates.js';
export {
  type AgentCard,
  CARD_PATH,
  CONSIDER_PATH,
  type DelegateLimits,
  MAX_BODY,
  MAX_SESSION_BODY,
  PROTOCOL_V1,
  PROTOCOL_V2,
  PROTOCOLS,
  type Protocol,
  SESSION_PATH,
  WIRE_ERRORS,
  wireText,
} from './wire.js';
