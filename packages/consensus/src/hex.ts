/** Lowercase hex, the form the Python package writes keys, signatures and hashes in. */

/** Each byte's two hex digits, looked up rather than formatted byte by byte. */
const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += BYTE_HEX[bytes[i] as number];
  return out;
}

/** Bytes of lowercase hex; null when `text` is not lowercase hex of whole bytes. */
export function fromHex(text: string): Uint8Array | null {
  if (text.length % 2 !== 0) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) {
    const high = digit(text.charCodeAt(2 * i));
    const low = digit(text.charCodeAt(2 * i + 1));
    if (high < 0 || low < 0) return null;
    out[i] = (high << 4) | low;
  }
  return out;
}

/** The value of one lowercase hex digit's code, or -1. */
function digit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}
