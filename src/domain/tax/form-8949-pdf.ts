/**
 * Form 8949 as a PDF an advisor hands to the client's CPA (issue 31 item 5): the IRS layout, one
 * set of pages per box (Part I short-term, Part II long-term), fourteen lines a page with the
 * columns (a)–(h), line 2's totals on every page (as the form asks: each page is totalled and the
 * pages of a box are added on Schedule D), the box's total over all its pages on its last page,
 * and a first page that sums every box and part. The taxpayer block (name, SSN/TIN) is left empty
 * for the advisor. Amounts are the lines' cents (form-8949-lines.ts), the same cents as the JSON
 * report and the CSV: a loss in parentheses, as the form writes it.
 *
 * It is a statement in Form 8949's layout (the IRS accepts an attached statement with the same
 * columns), drawn with pdfkit's built-in Helvetica: no font files, no native code. The bytes are
 * reproducible: the document's dates are `generatedAt`, passed in. Pure: no I/O, no clock.
 */
import type { Decimal } from 'decimal.js';
import { ZERO } from '../money/exact-decimal.js';
import { formatAccounting } from '../money/format.js';
import { pdfDocument } from '../pdf/pdf-document.js';
import {
  addTotals,
  sumLines,
  totalsByBox,
  type Form8949Box,
  type Form8949Line,
  type Form8949Part,
  type LineTotals,
} from './form-8949-lines.js';

/** Lines on one page of a box, as on the paper form. */
export const FORM_8949_LINES_PER_PAGE = 14;

export interface Form8949PdfInput {
  readonly taxYear: number;
  readonly lines: readonly Form8949Line[];
  /** What the report covers, printed under the title (e.g. "Account 0b1c… · FIFO"). */
  readonly scope: string;
  /** The moment the report was made: printed, and the PDF's creation date. */
  readonly generatedAt: Date;
}

/** The boxes' words on the form, per part (2025 and later: Form 1099-DA boxes; earlier: C and F). */
const BOX_TEXT: Readonly<Record<Form8949Box, string>> = {
  C: 'Short-term transactions not reported to you on Form 1099-B',
  F: 'Long-term transactions not reported to you on Form 1099-B',
  G: 'Short-term transactions reported on Form(s) 1099-DA showing basis was reported to the IRS',
  H: 'Short-term transactions reported on Form(s) 1099-DA showing basis was not reported to the IRS',
  I: 'Short-term transactions not reported to you on Form 1099-DA',
  J: 'Long-term transactions reported on Form(s) 1099-DA showing basis was reported to the IRS',
  K: 'Long-term transactions reported on Form(s) 1099-DA showing basis was not reported to the IRS',
  L: 'Long-term transactions not reported to you on Form 1099-DA',
};

const PART_TEXT: Readonly<Record<Form8949Part, string>> = {
  I: 'Part I   Short-Term. Transactions involving capital assets you held 1 year or less.',
  II: 'Part II   Long-Term. Transactions involving capital assets you held more than 1 year.',
};

const REVIEW_TEXT: Readonly<Record<NonNullable<Form8949Line['reviewReason']>, string>> = {
  unknown_basis: 'basis unknown (a deposit without its acquisition); column (e) is 0.00 until it is known',
  uncovered_disposal: 'more was disposed of than the lots held; the uncovered part has no basis',
  identified_late: 'a lot selection recorded after the sale was not applied',
};

/** Columns: label, width in points, right-aligned (amounts). Letter portrait, 36 pt margins. */
const COLUMNS = [
  { label: '(a) Description of property', width: 140, right: false },
  { label: '(b) Date acquired', width: 54, right: false },
  { label: '(c) Date sold or disposed of', width: 54, right: false },
  { label: '(d) Proceeds (sales price)', width: 70, right: true },
  { label: '(e) Cost or other basis', width: 70, right: true },
  { label: '(f) Code', width: 30, right: false },
  { label: '(g) Amount of adjustment', width: 54, right: true },
  { label: '(h) Gain or (loss)', width: 68, right: true },
] as const;

const MARGIN = 36;
const ROW_HEIGHT = 22;

/** Cents as the form writes them: "1,234.50", a loss in parentheses "(20.00)"; never "-0.00". */
export const formAmount = (value: Decimal): string => formatAccounting(value);

export function renderForm8949Pdf(input: Form8949PdfInput): Promise<Uint8Array> {
  const { doc, bytes: done } = pdfDocument({
    title: `Form 8949 ${input.taxYear}`,
    subject: 'Sales and Other Dispositions of Capital Assets',
    generatedAt: input.generatedAt,
    margin: MARGIN,
  });
  const boxes = totalsByBox(input.lines);
  const pages = boxes.map((box) => {
    const inBox = input.lines.filter((line) => line.box === box.box);
    const chunked: Form8949Line[][] = [];
    for (let i = 0; i < inBox.length; i += FORM_8949_LINES_PER_PAGE)
      chunked.push(inBox.slice(i, i + FORM_8949_LINES_PER_PAGE));
    return { box, chunked };
  });
  const total = 1 + pages.reduce((n, p) => n + p.chunked.length, 0);
  let pageNumber = 1;
  summaryPage(doc, input, boxes, pageNumber, total);
  for (const { box, chunked } of pages) {
    chunked.forEach((lines, i) => {
      pageNumber++;
      boxPage(doc, input, {
        part: box.part,
        box: box.box,
        lines,
        pageOfBox: i + 1,
        pagesOfBox: chunked.length,
        boxTotals: i === chunked.length - 1 ? box : null,
        pageNumber,
        totalPages: total,
      });
    });
  }
  doc.end();
  return done;
}

function header(doc: PDFKit.PDFDocument, input: Form8949PdfInput): void {
  const width = doc.page.width - 2 * MARGIN;
  doc.font('Helvetica-Bold').fontSize(16).text('Form 8949', MARGIN, MARGIN);
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .text('Sales and Other Dispositions of Capital Assets', MARGIN, MARGIN + 2, { width, align: 'center' });
  doc
    .font('Helvetica')
    .fontSize(8)
    .text(`Tax year ${input.taxYear}`, MARGIN, MARGIN + 4, { width, align: 'right' })
    .text(
      'A statement in the layout of IRS Form 8949 (attach to the return, or transcribe). Amounts in U.S. dollars.',
      MARGIN,
      MARGIN + 18,
      { width, align: 'center' },
    );
  const y = MARGIN + 34;
  doc.font('Helvetica').fontSize(8).text('Name(s) shown on return', MARGIN, y);
  doc.text('Social security number or taxpayer identification number', MARGIN + 330, y);
  doc
    .moveTo(MARGIN, y + 22)
    .lineTo(MARGIN + 310, y + 22)
    .stroke();
  doc
    .moveTo(MARGIN + 330, y + 22)
    .lineTo(MARGIN + width, y + 22)
    .stroke();
  doc.fontSize(7).text(`Prepared from: ${input.scope}`, MARGIN, y + 28, { width });
}

function footer(
  doc: PDFKit.PDFDocument,
  input: Form8949PdfInput,
  pageNumber: number,
  totalPages: number,
): void {
  const width = doc.page.width - 2 * MARGIN;
  doc
    .font('Helvetica')
    .fontSize(7)
    .text(
      `Generated ${input.generatedAt.toISOString()} · page ${pageNumber} of ${totalPages}`,
      MARGIN,
      doc.page.height - MARGIN - 10,
      { width, align: 'right', lineBreak: false },
    );
}

function summaryPage(
  doc: PDFKit.PDFDocument,
  input: Form8949PdfInput,
  boxes: ReturnType<typeof totalsByBox>,
  pageNumber: number,
  totalPages: number,
): void {
  doc.addPage();
  header(doc, input);
  let y = MARGIN + 90;
  doc.font('Helvetica-Bold').fontSize(10).text('Summary of this Form 8949 (for Schedule D)', MARGIN, y);
  y += 18;
  const cols = [
    { label: 'Part', x: MARGIN, width: 40, right: false },
    { label: 'Box', x: MARGIN + 40, width: 30, right: false },
    { label: 'Lines', x: MARGIN + 125, width: 40, right: true },
    { label: '(d) Proceeds', x: MARGIN + 175, width: 110, right: true },
    { label: '(e) Cost or other basis', x: MARGIN + 295, width: 110, right: true },
    { label: '(h) Gain or (loss)', x: MARGIN + 415, width: 110, right: true },
  ];
  const row = (cells: string[], bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    cells.forEach((cell, i) =>
      doc.text(cell, cols[i]!.x, y, { width: cols[i]!.width, align: cols[i]!.right ? 'right' : 'left' }),
    );
    y += 16;
  };
  row(
    cols.map((c) => c.label),
    true,
  );
  // A part's total: its label spans the Part and Box columns.
  const totalRow = (label: string, rest: string[]) => {
    doc.font('Helvetica-Bold').fontSize(9).text(label, MARGIN, y, { width: 125, lineBreak: false });
    rest.forEach((cell, i) =>
      doc.text(cell, cols[i + 2]!.x, y, { width: cols[i + 2]!.width, align: 'right' }),
    );
    y += 16;
  };
  if (boxes.length === 0) {
    doc.font('Helvetica').fontSize(9).text(`No disposals in ${input.taxYear}.`, MARGIN, y);
    y += 16;
  }
  for (const box of boxes)
    row([
      box.part,
      box.box,
      String(box.lines),
      formAmount(box.proceedsUsd),
      formAmount(box.costBasisUsd),
      formAmount(box.gainUsd),
    ]);
  y += 6;
  for (const part of ['I', 'II'] as const) {
    const totals = boxes.filter((b) => b.part === part).reduce<LineTotals>(addTotals, emptyTotals());
    totalRow(part === 'I' ? 'Part I total (short-term)' : 'Part II total (long-term)', [
      String(totals.lines),
      formAmount(totals.proceedsUsd),
      formAmount(totals.costBasisUsd),
      formAmount(totals.gainUsd),
    ]);
  }
  const review = input.lines.filter((line) => line.reviewReason !== null).length;
  y += 10;
  doc
    .font('Helvetica')
    .fontSize(8)
    .text(
      review === 0
        ? 'Every line is ready to file.'
        : `${review} line(s) marked * need review before filing (the reason is printed under each page's lines).`,
      MARGIN,
      y,
      { width: doc.page.width - 2 * MARGIN },
    );
  footer(doc, input, pageNumber, totalPages);
}

interface BoxPage {
  readonly part: Form8949Part;
  readonly box: Form8949Box;
  readonly lines: readonly Form8949Line[];
  readonly pageOfBox: number;
  readonly pagesOfBox: number;
  readonly boxTotals: LineTotals | null;
  readonly pageNumber: number;
  readonly totalPages: number;
}

function boxPage(doc: PDFKit.PDFDocument, input: Form8949PdfInput, page: BoxPage): void {
  doc.addPage();
  header(doc, input);
  const width = doc.page.width - 2 * MARGIN;
  let y = MARGIN + 90;
  doc
    .font('Helvetica')
    .fontSize(8)
    .text(`Box ${page.box}, page ${page.pageOfBox} of ${page.pagesOfBox}`, MARGIN, y, {
      width,
      align: 'right',
    });
  doc
    .font('Helvetica-Bold')
    .fontSize(9)
    .text(PART_TEXT[page.part], MARGIN, y, { width: width - 90 });
  y += 14;
  doc
    .font('Helvetica')
    .fontSize(8)
    .text(
      `Check the box that applies (one box per set of pages):   [X] (${page.box})  ${BOX_TEXT[page.box]}`,
      MARGIN,
      y,
      {
        width,
      },
    );
  y = doc.y + 8;

  // Column headings.
  let x = MARGIN;
  doc.font('Helvetica-Bold').fontSize(7);
  for (const column of COLUMNS) {
    doc.text(column.label, x + 2, y, { width: column.width - 4, align: column.right ? 'right' : 'left' });
    x += column.width;
  }
  y += 24;
  doc
    .moveTo(MARGIN, y - 3)
    .lineTo(MARGIN + width, y - 3)
    .stroke();

  doc.font('Helvetica').fontSize(8);
  const reviews: string[] = [];
  page.lines.forEach((line, index) => {
    const mark = line.reviewReason ? '*' : '';
    if (line.reviewReason)
      reviews.push(`* line ${index + 1} (${line.description}): ${REVIEW_TEXT[line.reviewReason]}`);
    cells(doc, y, [
      `${line.description}${mark}`,
      // No lot covered the quantity (flagged for review): the date is not known.
      line.dateAcquired ? usDate(line.dateAcquired) : 'UNKNOWN',
      usDate(line.dateSold),
      formAmount(line.proceedsUsd),
      formAmount(line.costBasisUsd),
      '',
      '',
      formAmount(line.gainUsd),
    ]);
    y += ROW_HEIGHT;
    doc
      .moveTo(MARGIN, y - 6)
      .lineTo(MARGIN + width, y - 6)
      .lineWidth(0.3)
      .stroke()
      .lineWidth(1);
  });
  // Empty rows, as on the paper form, so every page has the same grid.
  y += ROW_HEIGHT * (FORM_8949_LINES_PER_PAGE - page.lines.length);

  const pageTotals = sumLines(page.lines);
  doc.font('Helvetica-Bold').fontSize(8);
  doc.text('2  Totals of this page. Add the amounts in columns (d), (e), (g), and (h).', MARGIN, y, {
    width: COLUMNS[0].width + COLUMNS[1].width + COLUMNS[2].width - 4,
  });
  cells(doc, y, [
    '',
    '',
    '',
    formAmount(pageTotals.proceedsUsd),
    formAmount(pageTotals.costBasisUsd),
    '',
    '',
    formAmount(pageTotals.gainUsd),
  ]);
  y += ROW_HEIGHT + 4;
  if (page.boxTotals) {
    doc.text(
      `Box ${page.box} total, all ${page.pagesOfBox} page(s), ${page.boxTotals.lines} line(s):`,
      MARGIN,
      y,
      {
        width: COLUMNS[0].width + COLUMNS[1].width + COLUMNS[2].width - 4,
      },
    );
    cells(doc, y, [
      '',
      '',
      '',
      formAmount(page.boxTotals.proceedsUsd),
      formAmount(page.boxTotals.costBasisUsd),
      '',
      '',
      formAmount(page.boxTotals.gainUsd),
    ]);
    y += ROW_HEIGHT;
  }
  if (reviews.length > 0) {
    doc.font('Helvetica').fontSize(7);
    for (const text of reviews) {
      doc.text(text, MARGIN, y, { width });
      y = doc.y + 2;
    }
  }
  footer(doc, input, page.pageNumber, page.totalPages);
}

function cells(doc: PDFKit.PDFDocument, y: number, values: readonly string[]): void {
  let x = MARGIN;
  COLUMNS.forEach((column, i) => {
    const value = values[i] ?? '';
    if (value !== '')
      doc.text(value, x + 2, y, {
        width: column.width - 4,
        align: column.right ? 'right' : 'left',
        lineBreak: false,
        ellipsis: true,
        height: ROW_HEIGHT - 6,
      });
    x += column.width;
  });
}

/** The form's date style, MM/DD/YYYY, from an ISO date. */
function usDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${month}/${day}/${year}`;
}

function emptyTotals(): LineTotals {
  return { lines: 0, proceedsUsd: ZERO, costBasisUsd: ZERO, gainUsd: ZERO };
}
