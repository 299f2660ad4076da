import { inflateSync } from 'node:zlib';

/** The text a PDF made by `renderReceiptPdf` draws: its Flate content streams' hex strings. */
export function pdfText(pdf: Uint8Array): string {
  const data = Buffer.from(pdf);
  const lines: string[] = [];
  for (const m of data.toString('latin1').matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(m[1] as string, 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const hex of content.matchAll(/<([0-9A-Fa-f]+)> Tj/g)) {
      lines.push(Buffer.from(hex[1] as string, 'hex').toString('latin1'));
    }
  }
  return lines.join('\n');
}
