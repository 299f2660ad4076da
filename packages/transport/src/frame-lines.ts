import { type Frame, parseFrame } from '@parley/protocol';
import type { FrameReceiver } from './frame-connection.js';
import type { LineSink } from './line-splitter.js';
import { TransportError } from './transport-error.js';

/**
 * The LineSink of a dialled connection: each line is parsed as a frame (§2.1) and handed to the
 * receiver; lines that are not frames, or were refused, go to `onMalformed`.
 */
export function frameLineSink(peer: string, receiver: FrameReceiver): LineSink {
  return {
    line(text) {
      let frame: Frame;
      try {
        frame = parseFrame(text);
      } catch (error) {
        receiver.onMalformed?.(
          new TransportError('bad_reply', `${peer} sent a line that is not a frame`, {
            cause: error,
          }),
        );
        return;
      }
      receiver.onFrame(frame);
    },
    refuse(why) {
      receiver.onMalformed?.(new TransportError('too_large', `${peer} sent a bad line: ${why}`));
    },
  };
}
