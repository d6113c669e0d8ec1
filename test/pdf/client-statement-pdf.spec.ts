/**
 * The client statement PDF (issue 31 item 5), read back with poppler: the holdings and realized
 * gains tables carry the figures given, to the cent; the allocation and the fan chart are drawn
 * (pages rendered to PNG). Figures worked by hand below.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  allocationSlices,
  renderClientStatementPdf,
  usd,
  type ClientStatementInput,
} from '../../src/domain/statements/client-statement-pdf.js';
import { pdfPages, pdfPngs, pngSize, popplerAvailable } from '../support/poppler.js';

const GENERATED = new Date('2026-03-02T15:00:00Z');

/**
 * BTC 0.5 at 60,000 = 30,000.00 (basis 20,000.00, +10,000.00); ETH 4 at 2,500 = 10,000.00 (basis
 * 12,000.00, −2,000.00); a token without a price (basis 150.00). Totals over the priced: 40,000.00
 * market value, 32,150.00 basis (all), 8,000.00 unrealized. Weights: 75.0 % and 25.0 %.
 */
const INPUT: ClientStatementInput = {
  subject: 'Household synthetic-household-1 (2 accounts) · SYNTHETIC SANDBOX DATA',
  accounts: [
    { id: '00000000-0000-4000-8000-000000000001', platform: 'kraken', identity: 'hh-1/exchange' },
    { id: '00000000-0000-4000-8000-000000000002', platform: 'bitcoin', identity: 'hh-1/cold' },
  ],
  taxYear: 2025,
  holdings: [
    {
      symbol: 'BTC',
      quantity: '0.5',
      priceUsd: '60000',
      marketValueUsd: '30000',
      costBasisUsd: '20000',
      unrealizedGainUsd: '10000',
      needsReview: false,
    },
    {
      symbol: 'ETH',
      quantity: '4',
      priceUsd: '2500',
      marketValueUsd: '10000',
      costBasisUsd: '12000',
      unrealizedGainUsd: '-2000',
      needsReview: false,
    },
    {
      symbol: 'ERC940181A94A35A45',
      quantity: '1000',
      priceUsd: null,
      marketValueUsd: null,
      costBasisUsd: '150',
      unrealizedGainUsd: null,
      needsReview: true,
    },
  ],
  totals: { marketValueUsd: '40000', costBasisUsd: '32150', unrealizedGainUsd: '8000' },
  realized: {
    shortTermUsd: '-334.56',
    longTermUsd: '1250.5',
    netUsd: '915.94',
    byAsset: [
      { symbol: 'BTC', shortTermUsd: '0', longTermUsd: '1250.5', netUsd: '1250.5' },
      { symbol: 'ETH', shortTermUsd: '-334.56', longTermUsd: '0', netUsd: '-334.56' },
    ],
  },
  projection: {
    portfolio: 'Model: Core 75/25',
    weights: [
      { symbol: 'BTC', weight: 0.75 },
      { symbol: 'ETH', weight: 0.25 },
    ],
    principalUsd: '40000',
    horizonYears: 3,
    bands: [
      { year: 1, p10: '30000.00', p25: '36000.00', p50: '42000.00', p75: '50000.00', p90: '60000.00' },
      { year: 2, p10: '26000.00', p25: '35000.00', p50: '44000.00', p75: '58000.00', p90: '75000.00' },
      { year: 3, p10: '24000.00', p25: '34000.00', p50: '46305.00', p75: '66000.00', p90: '90000.00' },
    ],
    scenarios: [
      { name: 'bull', terminalUsd: '90000.00', cagr: 0.3104 },
      { name: 'base', terminalUsd: '46305.00', cagr: 0.05 },
      { name: 'bear', terminalUsd: '24000.00', cagr: -0.1566 },
    ],
    assumptions: [
      { symbol: 'BTC', expectedReturn: 0.08, volatility: 0.6, source: 'historical (shrunk)' },
      { symbol: 'ETH', expectedReturn: 0.07, volatility: 0.75, source: 'your firm' },
    ],
    method: 'parametric',
    paths: 10000,
    seed: 7,
    disclosure:
      'Hypothetical projection for illustration only, not a promise or a prediction of future results.',
  },
  projectionUnavailable: null,
  generatedAt: GENERATED,
};

describe('client statement: amounts and allocation', () => {
  it('writes dollars with separators and a loss in parentheses; an unknown amount as a dash', () => {
    expect(usd('1234567.891')).toBe('$1,234,567.89');
    expect(usd('-2000')).toBe('($2,000.00)');
    expect(usd('-0.001')).toBe('$0.00');
    expect(usd(null)).toBe('–');
  });

  it('allocates by market value, largest first, unpriced left out, the tail beyond seven as Other', () => {
    expect(allocationSlices(INPUT.holdings)).toEqual([
      { label: 'BTC', weight: 0.75 },
      { label: 'ETH', weight: 0.25 },
    ]);
    const many = Array.from({ length: 9 }, (_, i) => ({
      ...INPUT.holdings[0]!,
      symbol: `A${i}`,
      marketValueUsd: String(100 - i),
    }));
    const slices = allocationSlices(many);
    expect(slices).toHaveLength(8);
    // A7 and A8: 93 + 92 = 185 of 100 + 99 + … + 92 = 864.
    expect(slices[7]).toEqual({ label: 'Other (2)', weight: 185 / 864 });
  });
});

const poppler = popplerAvailable();

(poppler ? describe : describe.skip)('client statement PDF, read back with poppler', () => {
  let pdf: Uint8Array;
  let pages: string[];

  beforeAll(async () => {
    pdf = await renderClientStatementPdf(INPUT);
    pages = pdfPages(pdf);
  });

  it('holds the holdings, their totals and the realized gains of the year to the cent', () => {
    expect(pages).toHaveLength(2);
    const [first] = pages as [string];
    expect(first).toContain('Client statement');
    expect(first).toContain('Tax year 2025');
    expect(first).toContain('SYNTHETIC SANDBOX DATA');
    expect(first).toMatch(/BTC\s+0\.5\s+\$60,000\.00\s+\$30,000\.00\s+\$20,000\.00\s+\$10,000\.00\s+75\.0%/);
    expect(first).toMatch(/ETH\s+4\s+\$2,500\.00\s+\$10,000\.00\s+\$12,000\.00\s+\(\$2,000\.00\)\s+25\.0%/);
    expect(first).toMatch(/ERC940181A94A35A45\*\s+1000\s+–\s+–\s+\$150\.00\s+–\s+–/);
    expect(first).toMatch(/Total\s+\$40,000\.00\s+\$32,150\.00\s+\$8,000\.00\s+100\.0%/);
    expect(first).toContain('BTC 75.0%');
    expect(first).toContain('ETH 25.0%');
    expect(first).toContain('Realized gains, tax year 2025');
    expect(first).toMatch(/ETH\s+\(\$334\.56\)\s+\$0\.00\s+\(\$334\.56\)/);
    expect(first).toMatch(/Total\s+\(\$334\.56\)\s+\$1,250\.50\s+\$915\.94/);
  });

  it('shows the projection: scenarios, assumptions, the fan chart’s legend and the disclosure', () => {
    const second = pages[1]!;
    expect(second).toContain('Model: Core 75/25: BTC 75.0%, ETH 25.0%');
    expect(second).toContain('Starting value $40,000.00, 3 years');
    expect(second).toMatch(/Bull \(90th percentile\)\s+\$90,000\.00\s+31\.0%/);
    expect(second).toMatch(/Base \(median\)\s+\$46,305\.00\s+5\.0%/);
    expect(second).toMatch(/Bear \(10th percentile\)\s+\$24,000\.00\s+-15\.7%/);
    expect(second).toMatch(/BTC\s+8\.0%\s+60\.0%\s+historical \(shrunk\)/);
    expect(second).toContain('10th–90th percentile (bear to bull)');
    expect(second).toContain('Hypothetical projection for illustration only');
    // The value axis runs to the next round number above the bull path's top (90,000 → 100K).
    expect(second).toContain('$100K');
  });

  it('renders both pages as letter-size images (the charts are drawn)', () => {
    const pngs = pdfPngs(pdf, 36);
    expect(pngs.map(pngSize)).toEqual([
      { width: 306, height: 396 },
      { width: 306, height: 396 },
    ]);
    const out = process.env.WRITE_PDF_IMAGES;
    if (out) {
      pdfPngs(pdf, 80).forEach((png, i) =>
        writeFileSync(join(out, `client-statement-page-${i + 1}.png`), png),
      );
      writeFileSync(join(out, 'client-statement-example.pdf'), pdf);
    }
  });

  it('says why when there is no projection', async () => {
    const text = pdfPages(
      await renderClientStatementPdf({
        ...INPUT,
        projection: null,
        projectionUnavailable: 'no priced holdings.',
      }),
    );
    expect(text[1]).toContain('No projection: no priced holdings.');
  });
});
