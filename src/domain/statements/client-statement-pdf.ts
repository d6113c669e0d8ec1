/**
 * The client statement an advisor hands over (issue 31 item 5), per account or household: the
 * holdings with their cost basis and unrealized gain, the realized gains of a tax year, an
 * allocation chart, and the projection fan chart of the chosen portfolio (bull/base/bear and the
 * 10–90 and 25–75 percentile bands) with its assumptions and the disclosure.
 *
 * Charts are SVG path data from d3-shape (pie and arc for the allocation, area and line for the
 * fan), drawn by pdfkit as vector paths: no canvas, no browser, no native code. Amounts are the
 * decimal text the service computed, formatted only (thousands separators, a loss in
 * parentheses); the chart geometry alone uses floating point. Pure: no I/O, no clock; the bytes are
 * reproducible for the same input (`generatedAt` is the document's date).
 */
import { Decimal } from 'decimal.js';
import { arc, area, line, pie, type PieArcDatum } from 'd3-shape';
import { formatAccounting } from '../money/format.js';
import { pdfDocument } from '../pdf/pdf-document.js';

export interface StatementHolding {
  readonly symbol: string;
  readonly quantity: string;
  readonly priceUsd: string | null;
  readonly marketValueUsd: string | null;
  readonly costBasisUsd: string;
  readonly unrealizedGainUsd: string | null;
  readonly needsReview: boolean;
}

export interface StatementRealized {
  readonly symbol: string;
  readonly shortTermUsd: string;
  readonly longTermUsd: string;
  readonly netUsd: string;
}

export interface StatementBand {
  readonly year: number;
  readonly p10: string;
  readonly p25: string;
  readonly p50: string;
  readonly p75: string;
  readonly p90: string;
}

export interface StatementProjection {
  /** The portfolio projected: its name, or "Current holdings". */
  readonly portfolio: string;
  readonly weights: readonly { readonly symbol: string; readonly weight: number }[];
  readonly principalUsd: string;
  readonly horizonYears: number;
  readonly bands: readonly StatementBand[];
  readonly scenarios: readonly {
    readonly name: string;
    readonly terminalUsd: string;
    readonly cagr: number;
  }[];
  readonly assumptions: readonly {
    readonly symbol: string;
    readonly expectedReturn: number;
    readonly volatility: number;
    readonly source: string;
  }[];
  readonly method: string;
  readonly paths: number;
  readonly seed: number | string;
  readonly disclosure: string;
}

export interface ClientStatementInput {
  /** Who it is for, e.g. "Household 6f1c… (3 accounts)". */
  readonly subject: string;
  readonly accounts: readonly { readonly id: string; readonly platform: string; readonly identity: string }[];
  readonly taxYear: number;
  readonly holdings: readonly StatementHolding[];
  readonly totals: {
    readonly marketValueUsd: string;
    readonly costBasisUsd: string;
    readonly unrealizedGainUsd: string;
  };
  readonly realized: {
    readonly shortTermUsd: string;
    readonly longTermUsd: string;
    readonly netUsd: string;
    readonly byAsset: readonly StatementRealized[];
  };
  /** Null with the reason when no projection could be made (e.g. no priced holdings). */
  readonly projection: StatementProjection | null;
  readonly projectionUnavailable: string | null;
  readonly generatedAt: Date;
}

const MARGIN = 42;
/** Slices of the allocation chart and lines of the fan, in order (colour-blind-safe Okabe–Ito). */
const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#999999'];
/** Allocation slices beyond this many are grouped as "Other". */
const MAX_SLICES = 7;

/** USD with thousands separators and cents; a negative amount in parentheses; "–" when unknown. */
export const usd = (value: string | null): string => (value === null ? '–' : formatAccounting(value, '$'));

const percent = (fraction: number, digits = 1) => `${(fraction * 100).toFixed(digits)}%`;

/** The allocation by market value: priced holdings, largest first, the tail grouped as "Other". */
export function allocationSlices(holdings: readonly StatementHolding[]): { label: string; weight: number }[] {
  const priced = holdings
    .filter((h) => h.marketValueUsd !== null && new Decimal(h.marketValueUsd).gt(0))
    .map((h) => ({ label: h.symbol, value: new Decimal(h.marketValueUsd!) }))
    .sort((a, b) => b.value.cmp(a.value) || a.label.localeCompare(b.label));
  const total = priced.reduce((sum, h) => sum.plus(h.value), new Decimal(0));
  if (total.isZero()) return [];
  const head = priced.slice(0, MAX_SLICES);
  const tail = priced.slice(MAX_SLICES);
  const slices = head.map((h) => ({ label: h.label, weight: h.value.div(total).toNumber() }));
  if (tail.length > 0)
    slices.push({
      label: `Other (${tail.length})`,
      weight: tail
        .reduce((sum, h) => sum.plus(h.value), new Decimal(0))
        .div(total)
        .toNumber(),
    });
  return slices;
}

export function renderClientStatementPdf(input: ClientStatementInput): Promise<Uint8Array> {
  const { doc, bytes: done } = pdfDocument({
    title: `Client statement ${input.taxYear}`,
    subject: input.subject,
    generatedAt: input.generatedAt,
    margin: MARGIN,
    bufferPages: true,
  });
  holdingsPage(doc, input);
  projectionPage(doc, input);
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    // The footer sits in the bottom margin: without this pdfkit would open a page for it.
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor('#555555')
      .text(
        `Generated ${input.generatedAt.toISOString()} · page ${i + 1} of ${range.count}`,
        MARGIN,
        doc.page.height - MARGIN,
        { width: doc.page.width - 2 * MARGIN, align: 'right', lineBreak: false },
      )
      .fillColor('black');
  }
  doc.end();
  return done;
}

function heading(doc: PDFKit.PDFDocument, input: ClientStatementInput, title: string): number {
  const width = doc.page.width - 2 * MARGIN;
  doc.font('Helvetica-Bold').fontSize(16).text('Client statement', MARGIN, MARGIN);
  doc
    .font('Helvetica')
    .fontSize(9)
    .text(`Tax year ${input.taxYear}`, MARGIN, MARGIN + 4, { width, align: 'right' });
  doc.fontSize(9).text(input.subject, MARGIN, MARGIN + 22, { width });
  doc
    .fontSize(7)
    .fillColor('#555555')
    .text(
      input.accounts.map((a) => `${a.platform} · ${a.identity} · ${a.id}`).join('\n'),
      MARGIN,
      MARGIN + 35,
      { width },
    )
    .fillColor('black');
  const y = doc.y + 10;
  doc.font('Helvetica-Bold').fontSize(12).text(title, MARGIN, y);
  return doc.y + 6;
}

interface Column {
  readonly label: string;
  readonly width: number;
  readonly right: boolean;
}

function table(
  doc: PDFKit.PDFDocument,
  y: number,
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  boldLast = false,
): number {
  const draw = (cells: readonly string[], bold: boolean) => {
    let x = MARGIN;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    cells.forEach((cell, i) => {
      const column = columns[i]!;
      doc.text(cell, x + 2, y, {
        width: column.width - 4,
        align: column.right ? 'right' : 'left',
        lineBreak: false,
        ellipsis: true,
      });
      x += column.width;
    });
    y += 14;
  };
  draw(
    columns.map((c) => c.label),
    true,
  );
  const width = columns.reduce((sum, c) => sum + c.width, 0);
  doc
    .moveTo(MARGIN, y - 3)
    .lineTo(MARGIN + width, y - 3)
    .lineWidth(0.5)
    .stroke();
  rows.forEach((row, i) => draw(row, boldLast && i === rows.length - 1));
  return y;
}

function holdingsPage(doc: PDFKit.PDFDocument, input: ClientStatementInput): void {
  doc.addPage();
  let y = heading(doc, input, 'Holdings');
  const columns: Column[] = [
    { label: 'Asset', width: 104, right: false },
    { label: 'Quantity', width: 66, right: true },
    { label: 'Price', width: 64, right: true },
    { label: 'Market value', width: 76, right: true },
    { label: 'Cost basis', width: 76, right: true },
    { label: 'Unrealized gain', width: 84, right: true },
    { label: 'Weight', width: 52, right: true },
  ];
  const total = new Decimal(input.totals.marketValueUsd);
  const rows = input.holdings.map((h) => [
    `${h.symbol}${h.needsReview ? '*' : ''}`,
    h.quantity,
    usd(h.priceUsd),
    usd(h.marketValueUsd),
    usd(h.costBasisUsd),
    usd(h.unrealizedGainUsd),
    h.marketValueUsd !== null && total.gt(0)
      ? percent(new Decimal(h.marketValueUsd).div(total).toNumber())
      : '–',
  ]);
  rows.push([
    'Total',
    '',
    '',
    usd(input.totals.marketValueUsd),
    usd(input.totals.costBasisUsd),
    usd(input.totals.unrealizedGainUsd),
    total.gt(0) ? '100.0%' : '–',
  ]);
  y = table(doc, y, columns, rows, true);
  if (input.holdings.some((h) => h.needsReview)) {
    doc
      .font('Helvetica')
      .fontSize(7)
      .text(
        '* Part of this holding has no known cost basis (a deposit whose acquisition is not on record).',
        MARGIN,
        y,
      );
    y = doc.y;
  }
  if (input.holdings.some((h) => h.marketValueUsd === null)) {
    doc
      .font('Helvetica')
      .fontSize(7)
      .text('– No stored market price: left out of market value, unrealized gain and weights.', MARGIN, y);
    y = doc.y;
  }

  y += 14;
  doc.font('Helvetica-Bold').fontSize(12).text('Allocation', MARGIN, y);
  y = doc.y + 6;
  y = allocationChart(doc, allocationSlices(input.holdings), y);

  y += 14;
  doc.font('Helvetica-Bold').fontSize(12).text(`Realized gains, tax year ${input.taxYear}`, MARGIN, y);
  y = doc.y + 6;
  const realized = input.realized.byAsset.map((r) => [
    r.symbol,
    usd(r.shortTermUsd),
    usd(r.longTermUsd),
    usd(r.netUsd),
  ]);
  realized.push([
    'Total',
    usd(input.realized.shortTermUsd),
    usd(input.realized.longTermUsd),
    usd(input.realized.netUsd),
  ]);
  table(
    doc,
    y,
    [
      { label: 'Asset', width: 80, right: false },
      { label: 'Short-term', width: 110, right: true },
      { label: 'Long-term', width: 110, right: true },
      { label: 'Net gain or (loss)', width: 110, right: true },
    ],
    realized,
    true,
  );
}

/** A donut of the allocation (d3-shape pie and arc paths) with its legend; the y below it. */
function allocationChart(
  doc: PDFKit.PDFDocument,
  slices: readonly { label: string; weight: number }[],
  y: number,
): number {
  if (slices.length === 0) {
    doc.font('Helvetica').fontSize(8).text('No priced holdings to show.', MARGIN, y);
    return doc.y;
  }
  const radius = 62;
  const cx = MARGIN + radius + 4;
  const cy = y + radius + 4;
  const arcs = pie<{ label: string; weight: number }>()
    .value((s) => s.weight)
    .sort(null)(slices as { label: string; weight: number }[]);
  const path = arc<PieArcDatum<{ label: string; weight: number }>>()
    .innerRadius(radius * 0.55)
    .outerRadius(radius);
  arcs.forEach((slice, i) => {
    doc.save().translate(cx, cy);
    doc.path(path(slice) ?? '').fill(PALETTE[i % PALETTE.length]!);
    doc.restore();
  });
  let ly = y + 6;
  slices.forEach((slice, i) => {
    doc.rect(cx + radius + 24, ly + 1, 8, 8).fill(PALETTE[i % PALETTE.length]!);
    doc
      .fillColor('black')
      .font('Helvetica')
      .fontSize(8)
      .text(`${slice.label}  ${percent(slice.weight)}`, cx + radius + 38, ly, { lineBreak: false });
    ly += 14;
  });
  return Math.max(cy + radius, ly) + 4;
}

function projectionPage(doc: PDFKit.PDFDocument, input: ClientStatementInput): void {
  doc.addPage();
  let y = heading(doc, input, 'Projection');
  const projection = input.projection;
  if (!projection) {
    doc
      .font('Helvetica')
      .fontSize(9)
      .text(`No projection: ${input.projectionUnavailable ?? 'not available.'}`, MARGIN, y);
    return;
  }
  doc
    .font('Helvetica')
    .fontSize(8)
    .text(
      `${projection.portfolio}: ${projection.weights.map((w) => `${w.symbol} ${percent(w.weight)}`).join(', ')}. ` +
        `Starting value ${usd(projection.principalUsd)}, ${projection.horizonYears} years, ` +
        `${projection.paths.toLocaleString('en-US')} paths (${projection.method}, seed ${projection.seed}), rebalanced monthly.`,
      MARGIN,
      y,
      { width: doc.page.width - 2 * MARGIN },
    );
  y = doc.y + 8;
  y = fanChart(doc, projection, y);
  y += 10;
  y = table(
    doc,
    y,
    [
      { label: 'Scenario', width: 120, right: false },
      { label: `Value after ${projection.horizonYears} years`, width: 130, right: true },
      { label: 'Compound annual return', width: 130, right: true },
    ],
    projection.scenarios.map((s) => [scenarioLabel(s.name), usd(s.terminalUsd), percent(s.cagr)]),
  );
  y += 10;
  doc.font('Helvetica-Bold').fontSize(10).text('Assumptions', MARGIN, y);
  y = doc.y + 4;
  y = table(
    doc,
    y,
    [
      { label: 'Asset', width: 80, right: false },
      { label: 'Expected annual return', width: 130, right: true },
      { label: 'Volatility', width: 90, right: true },
      { label: 'Source', width: 150, right: false },
    ],
    projection.assumptions.map((a) => [a.symbol, percent(a.expectedReturn), percent(a.volatility), a.source]),
  );
  y += 10;
  doc
    .font('Helvetica-Oblique')
    .fontSize(7)
    .text(projection.disclosure, MARGIN, y, { width: doc.page.width - 2 * MARGIN });
}

function scenarioLabel(name: string): string {
  return name === 'bull'
    ? 'Bull (90th percentile)'
    : name === 'bear'
      ? 'Bear (10th percentile)'
      : 'Base (median)';
}

/**
 * The fan chart: value against years, the 10–90 and 25–75 percentile bands as areas and the median
 * as a line (d3-shape), every band starting from the starting value at year 0; the y below it.
 */
function fanChart(doc: PDFKit.PDFDocument, projection: StatementProjection, y: number): number {
  const width = doc.page.width - 2 * MARGIN - 60;
  const height = 190;
  const left = MARGIN + 56;
  const top = y + 4;
  const start = Number(projection.principalUsd);
  type Point = { year: number; low: number; high: number; q1: number; q3: number; mid: number };
  const points: Point[] = [
    { year: 0, low: start, high: start, q1: start, q3: start, mid: start },
    ...projection.bands.map((b) => ({
      year: b.year,
      low: Number(b.p10),
      high: Number(b.p90),
      q1: Number(b.p25),
      q3: Number(b.p75),
      mid: Number(b.p50),
    })),
  ];
  const maxValue = niceCeiling(Math.max(...points.map((p) => p.high)));
  const x = (year: number) => left + (year / projection.horizonYears) * width;
  const yOf = (value: number) => top + height - (value / maxValue) * height;

  // Axes and grid: five value lines, a tick per year (or per 5 years beyond 20).
  doc.lineWidth(0.3).strokeColor('#bbbbbb');
  for (let k = 0; k <= 4; k++) {
    const value = (maxValue * k) / 4;
    doc
      .moveTo(left, yOf(value))
      .lineTo(left + width, yOf(value))
      .stroke();
    doc
      .fillColor('#555555')
      .font('Helvetica')
      .fontSize(7)
      .text(compactUsd(value), MARGIN, yOf(value) - 3, { width: 50, align: 'right', lineBreak: false });
  }
  const step = projection.horizonYears > 20 ? 5 : 1;
  for (let year = 0; year <= projection.horizonYears; year += step)
    doc.text(String(year), x(year) - 10, top + height + 4, { width: 20, align: 'center', lineBreak: false });
  doc.text('Years', left + width / 2 - 20, top + height + 14, {
    width: 40,
    align: 'center',
    lineBreak: false,
  });
  doc.strokeColor('black').fillColor('black').lineWidth(1);

  const outer = area<Point>()
    .x((p) => x(p.year))
    .y0((p) => yOf(p.low))
    .y1((p) => yOf(p.high))(points);
  const inner = area<Point>()
    .x((p) => x(p.year))
    .y0((p) => yOf(p.q1))
    .y1((p) => yOf(p.q3))(points);
  const median = line<Point>()
    .x((p) => x(p.year))
    .y((p) => yOf(p.mid))(points);
  doc
    .path(outer ?? '')
    .fillOpacity(0.25)
    .fill(PALETTE[0]!);
  doc
    .path(inner ?? '')
    .fillOpacity(0.45)
    .fill(PALETTE[0]!);
  doc.fillOpacity(1);
  doc
    .path(median ?? '')
    .lineWidth(1.5)
    .stroke(PALETTE[5]!);
  doc.lineWidth(1).strokeColor('black');

  // Legend under the chart.
  const ly = top + height + 28;
  const key = (colour: string, opacity: number, label: string, at: number) => {
    doc.rect(at, ly, 10, 8).fillOpacity(opacity).fill(colour);
    doc
      .fillOpacity(1)
      .fillColor('black')
      .font('Helvetica')
      .fontSize(7)
      .text(label, at + 14, ly, { lineBreak: false });
  };
  key(PALETTE[0]!, 0.25, '10th–90th percentile (bear to bull)', left);
  key(PALETTE[0]!, 0.45, '25th–75th percentile', left + 170);
  key(PALETTE[5]!, 1, 'Median (base)', left + 290);
  return ly + 14;
}

/** The next round number at or above `value` for an axis (1, 2 or 5 × 10ⁿ steps of a quarter). */
function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const magnitude = Math.pow(10, Math.floor(Math.log10(value)));
  for (const factor of [1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8, 10])
    if (factor * magnitude >= value) return factor * magnitude;
  return 10 * magnitude;
}

function compactUsd(value: number): string {
  if (value >= 1e9) return `$${(value / 1e9).toFixed(1)}B`;
  if (value >= 1e6) return `$${(value / 1e6).toFixed(1)}M`;
  if (value >= 1e3) return `$${(value / 1e3).toFixed(0)}K`;
  return `$${value.toFixed(0)}`;
}
