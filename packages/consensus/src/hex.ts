/** Lowercase hex, the form the Python package writes keys, signatures and hashes in. */

const HEX = /^(?:[0-9a-f]{2})*$/;

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** Bytes of lowercase hex; null when `text` is not lowercase hex of whole bytes. */
export function fromHex(text: string): Uint8Array | null {
  if (!HEX.test(text)) return null;
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}
