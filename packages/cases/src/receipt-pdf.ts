import { pyDumps, readReceipt } from '@parley/consensus';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

/** A4 in points, and the margin. */
const PAGE = { width: 595.28, height: 841.89, margin: 56 } as const;
const SIZE = 11;
const LEADING = 15;

/** How a status reads, in words and not only in colour (module 08). */
export function statusWords(status: string, unanimous: boolean | null): string {
  if (status === 'deadlock')
    return "NO AGREEMENT: no option met every party's limits (an honest deadlock, no one's fault).";
  if (unanimous === true) return 'AGREED: every party accepted this proposal.';
  return 'NOT AGREED: the proposal was not accepted by every party.';
}

/**
 * The receipt as a printable A4 PDF: the status in words, the case, the decision, each party's
 * answer, the transcript hash and how to check it offline; the receipt file itself is attached
 * inside. Built from the receipt's own record, so it cannot say more than the record does.
 */
export async function renderReceiptPdf(receiptText: string): Promise<Uint8Array> {
  const receipt = readReceipt(receiptText);
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const mono = await doc.embedFont(StandardFonts.Courier);
  const title = receipt.title ?? 'Parley case';
  doc.setTitle(`Parley receipt: ${winAnsi(title)}`);
  doc.setSubject(`transcript sha256 ${receipt.transcript_sha256}`);
  doc.setCreator('Parley');
  doc.setLanguage('en');
  const writer = new PageWriter(doc, font);
  writer.line('Parley receipt', { font: bold, size: 18 });
  writer.gap();
  writer.line(statusWords(receipt.status, receipt.unanimous_acceptance), { font: bold });
  writer.gap();
  writer.field('Case', title);
  writer.field(
    'Decision',
    receipt.decision === null ? 'none (deadlock)' : pyDumps(receipt.decision),
  );
  writer.field('Parties', (receipt.participants ?? []).join(', '));
  for (const a of receipt.acceptances) {
    writer.field(`  ${a.owner}`, a.accepted ? 'accepted (signed)' : 'did not accept (signed)');
  }
  writer.gap();
  // The hash on a line of its own in a fixed-width font, so it never wraps and reads back exactly.
  writer.line('Transcript SHA-256:');
  writer.line(receipt.transcript_sha256, { font: mono, size: 10 });
  writer.gap();
  writer.line('How to check this receipt', { font: bold });
  for (const text of [
    "Download the receipt file (JSON) from your private link, or take it from this PDF's attachment, and run:",
    '    npx parley verify-receipt receipt.json',
    "It re-derives the transcript hash above, checks every signature against the keys the receipt pins, and replays the max-min choice over the recorded verdicts. It reads no one's private sheet.",
    'Verified means the record is intact and consistent. It does not mean the agreement is legally valid or that any fact in it is true. Parley is not legal advice.',
  ]) {
    writer.paragraph(text);
  }
  await doc.attach(new TextEncoder().encode(receiptText), 'receipt.json', {
    mimeType: 'application/json',
    description: 'The Parley receipt file this PDF shows',
  });
  return doc.save();
}

/** Text the standard fonts can draw (WinAnsi): anything else becomes `?`. */
function winAnsi(text: string): string {
  return text.replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, '?');
}

class PageWriter {
  #page: PDFPage;
  #y: number;
  readonly #doc: PDFDocument;
  readonly #font: PDFFont;

  constructor(doc: PDFDocument, font: PDFFont) {
    this.#doc = doc;
    this.#font = font;
    this.#page = doc.addPage([PAGE.width, PAGE.height]);
    this.#y = PAGE.height - PAGE.margin;
  }

  line(text: string, options: { font?: PDFFont; size?: number } = {}): void {
    const size = options.size ?? SIZE;
    this.paragraph(text, options.font ?? this.#font, size);
  }

  field(label: string, value: string): void {
    this.paragraph(`${label}: ${value}`);
  }

  gap(): void {
    this.#y -= LEADING / 2;
  }

  paragraph(text: string, font: PDFFont = this.#font, size = SIZE): void {
    const width = PAGE.width - 2 * PAGE.margin;
    for (const row of wrap(winAnsi(text), font, size, width)) {
      if (this.#y < PAGE.margin) {
        this.#page = this.#doc.addPage([PAGE.width, PAGE.height]);
        this.#y = PAGE.height - PAGE.margin;
      }
      this.#page.drawText(row, { x: PAGE.margin, y: this.#y, size, font, color: rgb(0, 0, 0) });
      this.#y -= size === SIZE ? LEADING : size * 1.4;
    }
  }
}

/** Lines of at most `width` points, broken at spaces (a long word is cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const rows: string[] = [];
  let row = '';
  for (const word of text.split(' ')) {
    const next = row === '' ? word : `${row} ${word}`;
    if (font.widthOfTextAtSize(next, size) <= width) {
      row = next;
      continue;
    }
    if (row !== '') rows.push(row);
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width) {
      let cut = rest.length;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
      rows.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    row = rest;
  }
  if (row !== '' || rows.length === 0) rows.push(row);
  return rows;
}
