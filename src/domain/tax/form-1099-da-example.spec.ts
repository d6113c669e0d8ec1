/**
 * The Form 1099-DA worked example of test/e2e/tax/form-1099-da.cases.ts (issue 19 item 5;
 * docs/tax-report.md, "Form 1099-DA reconciliation"), from the ledger to the reconciliation on the
 * domain (issue 29 item 4: the arithmetic moves down; the e2e suite keeps the endpoint's wire
 * shape, paging and error paths). One exchange account:
 *
 *   b1 2024-01-02 buy 1 BTC at 40,000 + 10 fee (40,010) · b2 2024-06-01 buy 1 BTC at 60,000
 *   e1 2024-09-01 buy 2 ETH at 2,000 (4,000) · o1 2025-01-01 buy 1 SOL at 200
 *   s1 2025-03-01 sell 0.5 BTC at 65,000: 32,500 − ½ b1 (20,005), long
 *   s2 2025-05-01 sell 1.5 BTC at 60,000 = 90,000: ½ b1 (20,005, long) + b2 (60,000, short): 80,005
 *   s3 2025-06-01 sell 2 ETH at 2,500 = 5,000 − 4,000 · s4 2025-07-01 sell 1 SOL at 150 − 200
 *
 * The broker's file: A (s1 per lot, agreeing), B (1.5 BTC VARIOUS on 2025-05-01, 90,000: s2 per
 * sale), C (1.9 ETH, 4,750 on 2025-06-01: s3 on the same day, units −0.1 and proceeds −250 apart),
 * D (0.1 BTC on 2025-08-01, 9,000: no sale of the service's that day). Proceeds: broker 32,500 +
 * 90,000 + 4,750 + 9,000 = 136,250; service 32,500 + 90,000 + 5,000 + 150 = 127,650. s4 is the
 * service's line left over. Once a sale s5 of 0.1 BTC at 90,000 on 2025-08-01 is in the history,
 * D pairs with it: 3 matched, 1 different, 0 and 1 left over.
 */
import type { LedgerEntry } from '../cost-basis/index.js';
import { ledgerEntry } from '../cost-basis/testing/ledger-entry.factory.js';
import { parseForm1099Da, reconcileForm1099Da, type BrokerLine } from './form-1099-da.js';
import { computeTaxYear, type TaxAccount } from './tax-year-report.js';

const ACCOUNT: TaxAccount = { id: 'acct-a', syncStatus: 'synced', address: null, chain: null };

const HISTORY: readonly LedgerEntry[] = [
  ledgerEntry({
    tx: 'b1',
    at: '2024-01-02T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '40000',
    feeUsd: '10',
  }),
  ledgerEntry({ tx: 'b2', at: '2024-06-01T10:00:00Z', direction: 'buy', amount: '1', priceUsd: '60000' }),
  ledgerEntry({
    tx: 'e1',
    at: '2024-09-01T10:00:00Z',
    direction: 'buy',
    symbol: 'ETH',
    amount: '2',
    priceUsd: '2000',
  }),
  ledgerEntry({
    tx: 'o1',
    at: '2025-01-01T10:00:00Z',
    direction: 'buy',
    symbol: 'SOL',
    amount: '1',
    priceUsd: '200',
  }),
  ledgerEntry({ tx: 's1', at: '2025-03-01T10:00:00Z', direction: 'sell', amount: '0.5', priceUsd: '65000' }),
  ledgerEntry({ tx: 's2', at: '2025-05-01T10:00:00Z', direction: 'sell', amount: '1.5', priceUsd: '60000' }),
  ledgerEntry({
    tx: 's3',
    at: '2025-06-01T10:00:00Z',
    direction: 'sell',
    symbol: 'ETH',
    amount: '2',
    priceUsd: '2500',
  }),
  ledgerEntry({
    tx: 's4',
    at: '2025-07-01T10:00:00Z',
    direction: 'sell',
    symbol: 'SOL',
    amount: '1',
    priceUsd: '150',
  }),
];

const BROKER = [
  'asset,units,date_acquired,date_sold,proceeds,cost_basis,term,reference',
  'BTC,0.5,2024-01-02,2025-03-01,32500.00,20005.00,long,A',
  'BTC,1.5,VARIOUS,2025-05-01,"90,000.00",,,B',
  'ETH,1.9,2024-09-01,2025-06-01,4750.00,4000.00,short,C',
  'BTC,0.1,,2025-08-01,9000.00,,,D',
].join('\n');

function brokerLines(csv: string): BrokerLine[] {
  const parsed = parseForm1099Da(csv);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.lines;
}
const reconcile = (entries: readonly LedgerEntry[]) =>
  reconcileForm1099Da(
    brokerLines(BROKER),
    computeTaxYear({ taxYear: 2025, method: 'fifo', accounts: [ACCOUNT], entries }).lines,
  );
const counts = (r: ReturnType<typeof reconcile>) => [
  r.matched.length,
  r.different.length,
  r.unmatchedBroker.length,
  r.unmatchedService.length,
];

describe('Form 1099-DA: the worked example of test/e2e/tax/form-1099-da.cases.ts', () => {
  it('the 2025 lines: s2 is two lines (½ b1 long, b2 short), basis 80,005 for 90,000', () => {
    const lines = computeTaxYear({
      taxYear: 2025,
      method: 'fifo',
      accounts: [ACCOUNT],
      entries: HISTORY,
    }).lines;
    expect(
      lines.map((l) => [
        l.transactionId,
        l.quantity,
        l.dateAcquired,
        l.proceedsUsd.toFixed(2),
        l.costBasisUsd.toFixed(2),
        l.term,
      ]),
    ).toEqual([
      // Part I (short-term) first, then Part II (long-term).
      ['s2', '1', '2024-06-01', '60000.00', '60000.00', 'short'],
      ['s3', '2', '2024-09-01', '5000.00', '4000.00', 'short'],
      ['s4', '1', '2025-01-01', '150.00', '200.00', 'short'],
      ['s1', '0.5', '2024-01-02', '32500.00', '20005.00', 'long'],
      ['s2', '0.5', '2024-01-02', '30000.00', '20005.00', 'long'],
    ]);
  });

  it('A per lot, B per sale, C on the same day with its differences, D and s4 left; proceeds 136,250 and 127,650', () => {
    const r = reconcile(HISTORY);
    expect(counts(r)).toEqual([2, 1, 1, 1]);
    expect([r.brokerProceedsUsd, r.serviceProceedsUsd]).toEqual(['136250.00', '127650.00']);
    expect(r.matched.map((p) => [p.broker.reference, p.matchedBy, p.service.transactionId])).toEqual([
      ['A', 'lot', 's1'],
      ['B', 'sale', 's2'],
    ]);
    expect(r.matched[1]?.service).toMatchObject({
      units: '1.5',
      proceedsUsd: '90000.00',
      costBasisUsd: '80005.00',
      dateAcquired: null,
      term: null,
      lines: 2,
    });
    expect(r.different[0]).toMatchObject({
      matchedBy: 'same_day',
      broker: { line: 4, reference: 'C', units: '1.9' },
      service: { transactionId: 's3', units: '2', proceedsUsd: '5000.00', costBasisUsd: '4000.00' },
      differences: [
        { field: 'units', broker: '1.9', service: '2', difference: '-0.1' },
        { field: 'proceeds', broker: '4750.00', service: '5000.00', difference: '-250' },
      ],
    });
    expect(r.unmatchedBroker).toEqual([
      {
        line: 5,
        asset: 'BTC',
        units: '0.1',
        dateAcquired: null,
        dateSold: '2025-08-01',
        proceedsUsd: '9000',
        costBasisUsd: null,
        term: null,
        reference: 'D',
      },
    ]);
    expect(r.unmatchedService).toEqual([
      {
        transactionId: 's4',
        accountId: ACCOUNT.id,
        units: '1',
        dateAcquired: '2025-01-01',
        dateSold: '2025-07-01',
        proceedsUsd: '150.00',
        costBasisUsd: '200.00',
        term: 'short',
        lines: 1,
      },
    ]);
  });

  it('with the sale s5 of 0.1 BTC on 2025-08-01 in the history, D pairs with it: 3 matched, 1 different, 0 and 1 left', () => {
    const s5 = ledgerEntry({
      tx: 's5',
      at: '2025-08-01T10:00:00Z',
      direction: 'sell',
      amount: '0.1',
      priceUsd: '90000',
    });
    const r = reconcile([...HISTORY, s5]);
    expect(counts(r)).toEqual([3, 1, 0, 1]);
    expect(r.matched.map((p) => [p.broker.reference, p.service.transactionId])).toContainEqual(['D', 's5']);
  });
});
