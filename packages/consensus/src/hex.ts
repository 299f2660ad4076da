/** Lowercase hex, the form the Python package writes keys, signatures and hashes in. */

const HEX = /^(?:[0-9a-f]{2})*$/;

/** Each byte's two hex digits, looked up rather than formatted byte by byte. */
const BYTE_HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += BYTE_HEX[bytes[i] as number];
  return out;
}

/** Bytes of lowercase hex; null when `text` is not lowercase hex of whole bytes. */
export function fromHex(text: string): Uint8Array | null {
  if (!HEX.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}
