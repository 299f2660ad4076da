/**
 * A file name for an identifier chosen by a service (a service id, a proposal id): any character
 * outside [A-Za-z0-9._-] is percent-encoded, and a leading dot too, so no id can name a path
 * outside its folder or a hidden file.
 */
export function fileNameFor(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, (c) =>
    [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
  );
  return safe.startsWith('.') ? `%2e${safe.slice(1)}` : safe;
}
