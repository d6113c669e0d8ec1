import type { Disposal } from '../cost-basis/index.js';
import { csvField, toForm8949Csv } from './form-8949-csv.js';
import { centsText, form8949Box, sumLines, toForm8949Lines, totalsByBox } from './form-8949-lines.js';

const disposal = (fields: Partial<Disposal>): Disposal => ({
  accountId: 'acc',
  transactionId: 'tx',
  direction: 'sell',
  symbol: 'BTC',
  quantity: '0.5',
  acquiredAt: new Date('2023-01-15T10:00:00Z'),
  disposedAt: new Date('2024-06-01T10:00:00Z'),
  proceedsUsd: '100',
  costBasisUsd: '40',
  gainUsd: '60',
  term: 'long',
  basisKnown: true,
  lotOriginTransactionId: 'b1',
  acquiredInAccount: true,
  identifiedLate: false,
  ...fields,
});

describe('form8949Box', () => {
  it.each([
    [2024, 'short', 'custodial', false, 'C'],
    [2024, 'long', 'self_custody', false, 'F'],
    [2009, 'short', 'self_custody', false, 'C'],
    [2025, 'short', 'custodial', false, 'H'],
    [2025, 'long', 'custodial', false, 'K'],
    [2025, 'short', 'self_custody', false, 'I'],
    [2026, 'long', 'self_custody', false, 'L'],
    [2026, 'short', 'custodial', false, 'H'],
    [2026, 'short', 'custodial', true, 'G'],
    [2027, 'long', 'custodial', true, 'J'],
  ] as const)('%i %s %s, covered %s → %s', (year, term, custody, covered, box) => {
    expect(form8949Box(year, term, custody, covered)).toBe(box);
  });
});

describe('covered digital assets (issue 27 item 8)', () => {
  // Sold from an exchange account in 2026: a lot acquired there on 2026-01-05 is covered (G);
  // one acquired on 2025-12-31 is not (H), nor one that arrived by a transfer (H); the same lot
  // sold from an own wallet has no broker (I). A day's boundary is UTC.
  it.each<[string, Partial<Disposal>, 'custodial' | 'self_custody', string]>([
    ['acquired in the account in 2026', { acquiredAt: new Date('2026-01-05T10:00:00Z') }, 'custodial', 'G'],
    [
      'acquired at the first instant of 2026',
      { acquiredAt: new Date('2026-01-01T00:00:00Z') },
      'custodial',
      'G',
    ],
    ['acquired on the last day of 2025', { acquiredAt: new Date('2025-12-31T23:59:59Z') }, 'custodial', 'H'],
    [
      'transferred in from another account',
      { acquiredAt: new Date('2026-01-05T10:00:00Z'), acquiredInAccount: false },
      'custodial',
      'H',
    ],
    ['sold from an own wallet', { acquiredAt: new Date('2026-01-05T10:00:00Z') }, 'self_custody', 'I'],
    [
      'not covered by any lot',
      { acquiredAt: null, acquiredInAccount: false, basisKnown: false, lotOriginTransactionId: null },
      'custodial',
      'H',
    ],
  ])('%s → %s', (_, fields, custody, box) => {
    const [line] = toForm8949Lines(
      [disposal({ term: 'short', disposedAt: new Date('2026-06-01T10:00:00Z'), ...fields })],
      2026,
      () => custody,
    );
    expect(line.box).toBe(box);
  });
});

describe('toForm8949Lines', () => {
  it('rounds each line half-up to cents and takes the gain from the rounded columns', () => {
    const [line] = toForm8949Lines(
      [disposal({ proceedsUsd: '11227.5', costBasisUsd: '9982.495', gainUsd: '1245.005' })],
      2024,
      () => 'custodial',
    );
    expect([centsText(line.proceedsUsd), centsText(line.costBasisUsd), centsText(line.gainUsd)]).toEqual([
      '11227.50',
      '9982.50',
      '1245.00',
    ]);
    expect(line).toMatchObject({ part: 'II', box: 'F', description: '0.5 BTC', dateAcquired: '2023-01-15' });
  });

  it('orders part I before part II, by box, then by date sold, keeping the engine order within a day', () => {
    const lines = toForm8949Lines(
      [
        disposal({ transactionId: 'l2', disposedAt: new Date('2025-03-01T00:00:00Z') }),
        disposal({ transactionId: 'w', accountId: 'wallet', disposedAt: new Date('2025-01-01T00:00:00Z') }),
        disposal({ transactionId: 's', term: 'short', disposedAt: new Date('2025-09-01T00:00:00Z') }),
        disposal({ transactionId: 'l1a', disposedAt: new Date('2025-02-01T09:00:00Z') }),
        disposal({ transactionId: 'l1b', disposedAt: new Date('2025-02-01T08:00:00Z') }),
      ],
      2025,
      (id) => (id === 'wallet' ? 'self_custody' : 'custodial'),
    );
    expect(lines.map((l) => `${l.box}:${l.transactionId}`)).toEqual(['H:s', 'K:l1a', 'K:l1b', 'K:l2', 'L:w']);
    expect(totalsByBox(lines).map((b) => [b.box, b.lines, centsText(b.gainUsd)])).toEqual([
      ['H', 1, '60.00'],
      ['K', 3, '180.00'],
      ['L', 1, '60.00'],
    ]);
    expect(centsText(sumLines(lines).gainUsd)).toBe('300.00');
  });

  it('flags unknown basis and uncovered quantity', () => {
    const lines = toForm8949Lines(
      [
        disposal({ basisKnown: false, costBasisUsd: '0', gainUsd: '100' }),
        disposal({ basisKnown: false, acquiredAt: null, lotOriginTransactionId: null, term: 'short' }),
      ],
      2024,
      () => 'custodial',
    );
    expect(lines.map((l) => [l.reviewReason, l.dateAcquired])).toEqual([
      ['uncovered_disposal', null],
      ['unknown_basis', '2023-01-15'],
    ]);
  });
});

describe('Form 8949 CSV', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\r\nlines', '"two\r\nlines"'],
  ])('quotes %j per RFC 4180', (value, quoted) => {
    expect(csvField(value)).toBe(quoted);
  });

  it('has a header, CRLF line ends, and never lets a transaction id run as a formula', () => {
    const csv = toForm8949Csv(
      toForm8949Lines(
        [disposal({ transactionId: '=HYPERLINK("x")', gainUsd: '-20' })],
        2024,
        () => 'custodial',
      ),
    );
    const [header, row, end] = csv.split('\r\n');
    expect(header.split(',')[0]).toBe('Part');
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
    expect(row.startsWith('II,F,0.5 BTC,2023-01-15,2024-06-01,100.00,40.00,,,60.00,long,BTC,0.5,acc,')).toBe(
      true,
    );
    expect(end).toBe('');
  });
});
