import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } from 'pdf-lib';

/** The text a PDF made by `renderReceiptPdf` draws on its pages, one drawn line a line. */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const doc = await PDFDocument.load(pdf);
  const lines: string[] = [];
  for (const page of doc.getPages()) {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray() : [contents];
    for (const ref of streams) {
      const stream = ref === undefined ? undefined : doc.context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) continue;
      const content = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
      for (const hex of content.matchAll(/<([0-9A-Fa-f]+)> Tj/g)) {
        lines.push(Buffer.from(hex[1] as string, 'hex').toString('latin1'));
      }
    }
  }
  return lines.join('\n');
}
