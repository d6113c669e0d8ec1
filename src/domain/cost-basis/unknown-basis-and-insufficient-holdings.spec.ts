import { computeCostBasis } from './cost-basis-engine.js';
import type { CostBasisMethod } from './cost-basis.types.js';
import { isoDate, ledgerEntry } from './testing/ledger-entry.factory.js';

describe('computeCostBasis: unknown basis', () => {
  it('opens a deposit with unknown basis, flags it, and flags the sale that consumes it', () => {
    const result = computeCostBasis(
      [
        // the deposit's price is the market price at receipt; it is not the tenant's basis
        ledgerEntry({ tx: 'dep', at: '2024-01-01', direction: 'deposit', amount: '1', priceUsd: '40000' }),
        ledgerEntry({ tx: 's1', at: '2024-05-01', direction: 'sell', amount: '0.4', priceUsd: '50000' }),
      ],
      { method: 'fifo' },
    );
    expect(result.disposals).toEqual([
      {
        accountId: 'acct-a',
        transactionId: 's1',
        direction: 'sell',
        symbol: 'BTC',
        quantity: '0.4',
        acquiredAt: new Date('2024-01-01'),
        disposedAt: new Date('2024-05-01'),
        proceedsUsd: '20000',
        costBasisUsd: '0',
        gainUsd: '20000',
        term: 'short',
        basisKnown: false,
        lotOriginTransactionId: 'dep',
        acquiredInAccount: false,
        identifiedLate: false,
      },
    ]);
    expect(result.issues).toEqual([
      {
        kind: 'unknown_basis',
        accountId: 'acct-a',
        symbol: 'BTC',
        transactionId: 'dep',
        quantity: '1',
        reason: 'unmatched_deposit',
      },
      {
        kind: 'unknown_basis',
        accountId: 'acct-a',
        symbol: 'BTC',
        transactionId: 's1',
        quantity: '0.4',
        reason: 'disposed_unknown_basis_lot',
      },
    ]);
    expect(result.openLots.map((l) => [l.quantity, l.costBasisUsd, l.basisKnown])).toEqual([
      ['0.6', '0', false],
    ]);
  });

  it('lets HIFO consume known-basis lots before unknown ones, as if an unknown basis were the lowest', () => {
    const entries = [
      ledgerEntry({ tx: 'dep', at: '2024-01-01', direction: 'deposit', amount: '1', priceUsd: '100' }),
      ledgerEntry({ tx: 'b1', at: '2024-01-02', direction: 'buy', amount: '1', priceUsd: '1' }),
      ledgerEntry({ tx: 's1', at: '2024-01-03', direction: 'sell', amount: '1', priceUsd: '2' }),
    ];
    const consumed = (method: CostBasisMethod) =>
      computeCostBasis(entries, { method }).disposals.map((d) => [d.lotOriginTransactionId, d.basisKnown]);
    expect(consumed('fifo')).toEqual([['dep', false]]);
    expect(consumed('hifo')).toEqual([['b1', true]]);
  });

  it('does not flag moving or withdrawing unknown-basis lots again: the deposit already was', () => {
    const result = computeCostBasis(
      [
        ledgerEntry({ tx: 'dep', at: '2024-01-01', direction: 'deposit', amount: '1', account: 'a' }),
        ledgerEntry({
          tx: 'o',
          at: '2024-01-02',
          direction: 'transfer_out',
          amount: '1',
          account: 'a',
          transferId: 't',
        }),
        ledgerEntry({
          tx: 'i',
          at: '2024-01-02',
          direction: 'transfer_in',
          amount: '1',
          account: 'b',
          transferId: 't',
        }),
        ledgerEntry({ tx: 'w', at: '2024-01-03', direction: 'withdrawal', amount: '0.5', account: 'b' }),
      ],
      { method: 'fifo' },
    );
    expect(result.issues.map((i) => i.transactionId)).toEqual(['dep']);
    expect(
      result.removals.map((r) => [r.accountId, r.quantity, r.basisKnown, isoDate(r.acquiredAt)]),
    ).toEqual([['b', '0.5', false, '2024-01-01']]);
    expect(
      result.openLots.map((l) => [l.accountId, l.quantity, l.basisKnown, l.originTransactionId]),
    ).toEqual([['b', '0.5', false, 'dep']]);
  });
});

describe('computeCostBasis: disposals larger than the holdings', () => {
  it('never gives the uncovered part of a sale a silent zero basis: it is a flagged row and an issue', () => {
    const result = computeCostBasis(
      [
        ledgerEntry({ tx: 'b1', at: '2024-01-01', direction: 'buy', amount: '1', priceUsd: '100' }),
        ledgerEntry({
          tx: 's1',
          at: '2024-02-01',
          direction: 'sell',
          amount: '1.5',
          priceUsd: '200',
          feeUsd: '3',
        }),
      ],
      { method: 'fifo' },
    );
    // proceeds 1.5 × 200 − 3 = 297, spread 1 : 0.5
    expect(
      result.disposals.map((d) => [
        d.quantity,
        isoDate(d.acquiredAt),
        d.proceedsUsd,
        d.costBasisUsd,
        d.gainUsd,
        d.term,
        d.basisKnown,
        d.lotOriginTransactionId,
      ]),
    ).toEqual([
      ['1', '2024-01-01', '198', '100', '98', 'short', true, 'b1'],
      ['0.5', null, '99', '0', '99', 'short', false, null],
    ]);
    expect(result.issues).toEqual([
      {
        kind: 'insufficient_holdings',
        accountId: 'acct-a',
        symbol: 'BTC',
        transactionId: 's1',
        missingQuantity: '0.5',
      },
    ]);
    expect(result.openLots).toEqual([]);
  });

  it('flags a sale from an account with no lots at all, even when another account holds the asset', () => {
    const result = computeCostBasis(
      [
        ledgerEntry({
          tx: 'b1',
          at: '2024-01-01',
          direction: 'buy',
          amount: '5',
          priceUsd: '100',
          account: 'other',
        }),
        ledgerEntry({
          tx: 's1',
          at: '2024-02-01',
          direction: 'sell',
          amount: '1',
          priceUsd: '200',
          account: 'empty',
        }),
      ],
      { method: 'fifo' },
    );
    expect(result.disposals.map((d) => [d.accountId, d.quantity, d.basisKnown, d.acquiredAt])).toEqual([
      ['empty', '1', false, null],
    ]);
    expect(result.issues.map((i) => [i.kind, i.accountId])).toEqual([['insufficient_holdings', 'empty']]);
  });

  it.each([
    ['withdrawal', 'withdrawal'],
    ['transfer_out', 'unmatched_transfer_out'],
  ] as const)('removes what a %s can and reports the missing quantity', (direction, reason) => {
    const result = computeCostBasis(
      [
        ledgerEntry({ tx: 'b1', at: '2024-01-01', direction: 'buy', amount: '1', priceUsd: '100' }),
        ledgerEntry({ tx: 'w1', at: '2024-02-01', direction, amount: '2.5' }),
      ],
      { method: 'hifo' },
    );
    expect(result.removals.map((r) => [r.quantity, r.costBasisUsd, r.reason])).toEqual([
      ['1', '100', reason],
    ]);
    expect(result.issues).toEqual([
      {
        kind: 'insufficient_holdings',
        accountId: 'acct-a',
        symbol: 'BTC',
        transactionId: 'w1',
        missingQuantity: '1.5',
      },
    ]);
    expect(result.disposals).toEqual([]);
  });

  it('flags a fee paid in an asset the account does not hold', () => {
    const result = computeCostBasis(
      [
        ledgerEntry({
          tx: 'gas',
          at: '2024-02-01',
          direction: 'fee',
          amount: '0.01',
          priceUsd: '3000',
          symbol: 'ETH',
        }),
      ],
      { method: 'fifo' },
    );
    expect(result.disposals.map((d) => [d.direction, d.proceedsUsd, d.costBasisUsd, d.basisKnown])).toEqual([
      ['fee', '30', '0', false],
    ]);
    expect(result.issues.map((i) => i.kind)).toEqual(['insufficient_holdings']);
  });
});
