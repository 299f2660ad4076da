export {
  type ConnectOptions,
  connect,
  DEFAULT_LIMIT_RETRIES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_REQUEST_WINDOW,
  type IntentOptions,
  ParleyClient,
  type RequestDraft,
  type RequestOptions,
} from './client.js';
export {
  CLIENT_ERROR_REASONS,
  ClientError,
  type ClientErrorReason,
  CONSENT_MISMATCHES,
  type ConsentMismatch,
  ConsentMismatchError,
} from './client-error.js';
export { ProposalMemory } from './proposal-memory.js';
export { Wallet, type WalletOptions } from './wallet.js';
