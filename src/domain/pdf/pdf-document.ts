/**
 * A letter-size PDF document of the service (the PDFs advisors hand over: Form 8949, the client
 * statement), drawn with pdfkit's built-in fonts, and its bytes once it ends. The document's dates
 * are `generatedAt`, passed in, so the same drawing gives the same bytes. Pure: no I/O, no clock.
 */
import PDFDocument from 'pdfkit';

export const PDF_MARGIN_DEFAULT = 36;

export function pdfDocument(options: {
  readonly title: string;
  readonly subject: string;
  readonly generatedAt: Date;
  readonly margin?: number;
  /** Keep every page open until the end (to write page footers afterwards). */
  readonly bufferPages?: boolean;
}): { doc: PDFKit.PDFDocument; bytes: Promise<Uint8Array> } {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: options.margin ?? PDF_MARGIN_DEFAULT,
    autoFirstPage: false,
    bufferPages: options.bufferPages ?? false,
    compress: true,
    info: {
      Title: options.title,
      Subject: options.subject,
      Producer: 'Cryptoasset Accounts, Scoring and Reporting Service',
      Creator: 'Cryptoasset Accounts, Scoring and Reporting Service',
      CreationDate: options.generatedAt,
      ModDate: options.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  const bytes = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  return { doc, bytes };
}
