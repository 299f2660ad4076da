/**
 * The forms a credential can take in an upstream's text, for tests: each is what a careless
 * upstream might echo (a JSON encoder, a URL, an HTML page, a base64 or hex dump, case-folding).
 */
export function keyForms(key: string): Record<string, string> {
  const json = JSON.stringify(key).slice(1, -1);
  const percent = encodeURIComponent(key);
  const unicode = (upper: boolean) =>
    [...key]
      .map((c) => {
        const hex = (c.codePointAt(0) as number).toString(16).padStart(4, '0');
        return `\\u${upper ? hex.toUpperCase() : hex}`;
      })
      .join('');
  return {
    raw: key,
    percent,
    percentLower: percent.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    percentTwice: encodeURIComponent(percent),
    uri: encodeURI(key),
    form: new URLSearchParams({ k: key }).toString().slice(2),
    json,
    jsonSlashes: json.replaceAll('/', '\\/'),
    jsonTwice: JSON.stringify(json).slice(1, -1),
    unicode: unicode(false),
    unicodeUpper: unicode(true),
    html: key.replace(/["&<>'/\\]/g, (c) => `&#${c.charCodeAt(0)};`),
    htmlHex: key.replace(/["&<>'/\\]/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`),
    base64: Buffer.from(key).toString('base64'),
    base64url: Buffer.from(key).toString('base64url'),
    base64After1: Buffer.from(`{${key}}`).toString('base64'),
    base64After2: Buffer.from(`{"${key}"}`).toString('base64'),
    base64urlAfter1: Buffer.from(`:${key}`).toString('base64url'),
    base64urlAfter2: Buffer.from(`::${key}`).toString('base64url'),
    hex: Buffer.from(key).toString('hex'),
    hexUpper: Buffer.from(key).toString('hex').toUpperCase(),
    upper: key.toUpperCase(),
    lower: key.toLowerCase(),
  };
}

/**
 * Which way `text` still reveals `key`, or undefined: read independently of any redactor, by
 * looking for the key's middle (all but 3 characters at each end) in the text as it is, folded to
 * lower case, percent-decoded, JSON-unescaped, and in every base64, base64url and hex run at every
 * alignment.
 */
export function revealed(text: string, key: string): string | undefined {
  const middle = key.slice(3, -3);
  const lower = middle.toLowerCase();
  if (text.includes(middle)) return 'raw';
  if (text.toLowerCase().includes(lower)) return 'case-folded';
  const decoded = [text];
  for (let round = 0; round < 3; round++) {
    const last = decoded.at(-1) as string;
    decoded.push(
      last
        .replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
        .replace(/\\u([0-9a-f]{4})/gi, (_, h: string) =>
          String.fromCharCode(Number.parseInt(h, 16)),
        )
        .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
        .replace(/&#(\d+);/g, (_, d: string) => String.fromCharCode(Number(d)))
        .replace(/\\(.)/g, '$1')
        .replaceAll('+', ' '),
    );
  }
  if (decoded.some((d) => d.includes(middle) || d.replaceAll(' ', '+').includes(middle))) {
    return 'escaped';
  }
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let at = 0; at < 4; at++) {
      if (Buffer.from(run.slice(at), 'base64').toString('latin1').includes(middle)) {
        return 'base64';
      }
    }
  }
  for (const run of text.match(/[0-9a-f]{8,}/gi) ?? []) {
    for (let at = 0; at < 2; at++) {
      if (Buffer.from(run.slice(at), 'hex').toString('latin1').includes(middle)) return 'hex';
    }
  }
  return undefined;
}
