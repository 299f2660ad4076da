import type { Frame } from '@parley/protocol';
import type { TransportError } from './transport-error.js';

/** Where a dialled connection delivers what arrives. */
export interface FrameReceiver {
  /** Each incoming frame (envelope checked: `"parley": 1` and an id). */
  onFrame(frame: Frame): void;
  /** A sent frame will get no reply: the HTTP exchange for it failed. */
  onLost?(id: string, error: TransportError): void;
  /** An incoming line that is not a frame (bad JSON, over 1 MiB) was dropped. */
  onMalformed?(error: TransportError): void;
  /** The connection ended: with an error when it failed, undefined after close(). Called once. */
  onClose?(error: TransportError | undefined): void;
}

/** A client-side connection to a Parley service over any transport (§2.3). */
export interface FrameConnection {
  /** Where it goes: "parley://127.0.0.1:7447", "stdio: node service.js", "http://…". */
  readonly peer: string;
  /** Whether close() was called or the connection ended. */
  readonly closed: boolean;
  /** Sends one frame. Throws TransportError `closed` once closed, `too_large` over 1 MiB (§2.1). */
  send(frame: Frame): void;
  /** Closes the connection; replies not yet received are lost. */
  close(): Promise<void>;
}
