import { holdsMoreContainersThan, MAX_FRAME_CONTAINERS } from '@parley/protocol';

/** One request frame's text as read (§2.1): the parsed frame, or why it is refused unparsed. */
export type ReadFrame = { frame: unknown; refused?: undefined } | { refused: string };

/**
 * Reads one request frame's text. A frame holding more than MAX_FRAME_CONTAINERS arrays and
 * objects is refused before it is parsed: parsing it would hold every other request up. Text
 * that is not JSON is refused too; either refusal is answered ERROR bad_frame with `re` "".
 */
export function readFrameText(text: string): ReadFrame {
  if (holdsMoreContainersThan(text)) {
    return {
      refused: `the frame holds more than ${MAX_FRAME_CONTAINERS} arrays and objects, more than this service parses`,
    };
  }
  try {
    return { frame: JSON.parse(text) };
  } catch {
    return { refused: 'the frame is not valid JSON' };
  }
}
