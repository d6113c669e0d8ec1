import { computeCostBasis } from './cost-basis-engine.js';
import type { CostBasisMethod } from './cost-basis.types.js';
import { isoDate, ledgerEntry } from './testing/ledger-entry.factory.js';

describe('computeCostBasis: transfers between own accounts', () => {
  // docs/cost-basis.md, worked example 2.
  const history = [
    ledgerEntry({
      tx: 'b1',
      at: '2023-01-15',
      direction: 'buy',
      amount: '2',
      priceUsd: '20000',
      account: 'exchange',
    }),
    ledgerEntry({
      tx: 'w1',
      at: '2024-01-10T12:00:00Z',
      direction: 'transfer_out',
      amount: '2',
      account: 'exchange',
      transferId: 'x1',
    }),
    ledgerEntry({
      tx: 'd1',
      at: '2024-01-10T12:00:00Z',
      direction: 'transfer_in',
      amount: '1.999',
      account: 'cold-wallet',
      transferId: 'x1',
    }),
    ledgerEntry({
      tx: 's1',
      at: '2024-02-01',
      direction: 'sell',
      amount: '1',
      priceUsd: '42000',
      account: 'cold-wallet',
    }),
  ];

  it.each<CostBasisMethod>(['fifo', 'hifo'])(
    '%s: moves lots with their basis and acquisition date, so a sale soon after the transfer is long-term',
    (method) => {
      const result = computeCostBasis(history, { method });
      expect(
        result.disposals.map((d) => ({
          account: d.accountId,
          quantity: d.quantity,
          acquired: isoDate(d.acquiredAt),
          proceedsUsd: d.proceedsUsd,
          costBasisUsd: d.costBasisUsd,
          gainUsd: d.gainUsd,
          term: d.term,
        })),
      ).toEqual([
        {
          account: 'cold-wallet',
          quantity: '1',
          acquired: '2023-01-15',
          proceedsUsd: '42000',
          costBasisUsd: '20000',
          gainUsd: '22000',
          term: 'long',
        },
      ]);
      // the network fee (2 − 1.999) left the books without a taxable event
      expect(
        result.removals.map((r) => [r.accountId, r.transactionId, r.quantity, r.costBasisUsd, r.reason]),
      ).toEqual([['exchange', 'w1', '0.001', '20', 'transfer_shortfall']]);
      expect(
        result.openLots.map((l) => [
          l.accountId,
          l.quantity,
          l.costBasisUsd,
          isoDate(l.acquiredAt),
          l.originTransactionId,
        ]),
      ).toEqual([['cold-wallet', '0.999', '19980', '2023-01-15', 'b1']]);
      expect(result.issues).toEqual([]);
    },
  );

  it('processes the transfer_out first at equal timestamps, even when the receiving account sorts first', () => {
    const result = computeCostBasis(
      [
        ledgerEntry({
          tx: 'b1',
          at: '2024-01-01',
          direction: 'buy',
          amount: '1',
          priceUsd: '100',
          account: 'zz-source',
        }),
        ledgerEntry({
          tx: 'in',
          at: '2024-05-01',
          direction: 'transfer_in',
          amount: '1',
          account: 'aa-dest',
          transferId: 't',
        }),
        ledgerEntry({
          tx: 'out',
          at: '2024-05-01',
          direction: 'transfer_out',
          amount: '1',
          account: 'zz-source',
          transferId: 't',
        }),
      ],
      { method: 'fifo' },
    );
    expect(result.openLots.map((l) => [l.accountId, l.costBasisUsd, l.basisKnown])).toEqual([
      ['aa-dest', '100', true],
    ]);
    expect(result.issues).toEqual([]);
  });

  it('moves the lots the method picks: HIFO sends the highest-basis lot, FIFO the oldest', () => {
    const entries = [
      ledgerEntry({
        tx: 'b1',
        at: '2024-01-01',
        direction: 'buy',
        amount: '1',
        priceUsd: '100',
        account: 'src',
      }),
      ledgerEntry({
        tx: 'b2',
        at: '2024-01-02',
        direction: 'buy',
        amount: '1',
        priceUsd: '300',
        account: 'src',
      }),
      ledgerEntry({
        tx: 'o',
        at: '2024-02-01',
        direction: 'transfer_out',
        amount: '1',
        account: 'src',
        transferId: 't',
      }),
      ledgerEntry({
        tx: 'i',
        at: '2024-02-01',
        direction: 'transfer_in',
        amount: '1',
        account: 'dst',
        transferId: 't',
      }),
    ];
    const movedLot = (method: CostBasisMethod) =>
      computeCostBasis(entries, { method }).openLots.find((l) => l.accountId === 'dst')?.originTransactionId;
    expect(movedLot('fifo')).toBe('b1');
    expect(movedLot('hifo')).toBe('b2');
  });

  it('opens an unknown-basis lot for what the transfer_in received beyond the lots moved', () => {
    const result = computeCostBasis(
      [
        ledgerEntry({
          tx: 'b1',
          at: '2024-01-01',
          direction: 'buy',
          amount: '1',
          priceUsd: '100',
          account: 'src',
        }),
        ledgerEntry({
          tx: 'o',
          at: '2024-02-01',
          direction: 'transfer_out',
          amount: '1',
          account: 'src',
          transferId: 't',
        }),
        ledgerEntry({
          tx: 'i',
          at: '2024-02-02',
          direction: 'transfer_in',
          amount: '1.5',
          account: 'dst',
          transferId: 't',
        }),
      ],
      { method: 'fifo' },
    );
    expect(
      result.openLots.map((l) => [
        l.accountId,
        l.quantity,
        l.costBasisUsd,
        l.basisKnown,
        isoDate(l.acquiredAt),
      ]),
    ).toEqual([
      ['dst', '1', '100', true, '2024-01-01'],
      ['dst', '0.5', '0', false, '2024-02-02'],
    ]);
    expect(result.issues).toEqual([
      {
        kind: 'unknown_basis',
        accountId: 'dst',
        symbol: 'BTC',
        transactionId: 'i',
        quantity: '0.5',
        reason: 'transfer_in_exceeds_out',
      },
    ]);
  });

  it('treats a transfer_out without its transfer_in as a withdrawal and a lone transfer_in as a deposit', () => {
    const result = computeCostBasis(
      [
        ledgerEntry({
          tx: 'b1',
          at: '2024-01-01',
          direction: 'buy',
          amount: '1',
          priceUsd: '100',
          account: 'src',
        }),
        ledgerEntry({
          tx: 'o',
          at: '2024-02-01',
          direction: 'transfer_out',
          amount: '0.4',
          account: 'src',
          transferId: 'a',
        }),
        ledgerEntry({
          tx: 'i',
          at: '2024-02-01',
          direction: 'transfer_in',
          amount: '0.4',
          account: 'dst',
          transferId: 'b',
        }),
      ],
      { method: 'fifo' },
    );
    expect(result.removals.map((r) => [r.accountId, r.quantity, r.costBasisUsd, r.reason])).toEqual([
      ['src', '0.4', '40', 'unmatched_transfer_out'],
    ]);
    expect(result.openLots.map((l) => [l.accountId, l.quantity, l.costBasisUsd, l.basisKnown])).toEqual([
      ['dst', '0.4', '0', false],
      ['src', '0.6', '60', true],
    ]);
    expect(result.issues.map((i) => [i.kind, i.transactionId, 'reason' in i ? i.reason : null])).toEqual([
      ['unknown_basis', 'i', 'unmatched_transfer_in'],
    ]);
    expect(result.disposals).toEqual([]);
  });

  it.each([
    [
      'the transfer_in is processed before the transfer_out',
      '2024-02-01T10:00:00Z',
      '2024-02-01T09:59:59Z',
      'dst',
      'BTC',
    ],
    ['both legs are on the same account', '2024-02-01', '2024-02-01', 'src', 'BTC'],
    ['the legs are different assets', '2024-02-01', '2024-02-01', 'dst', 'ETH'],
  ])('does not match the legs when %s', (_case, outAt, inAt, inAccount, inSymbol) => {
    const result = computeCostBasis(
      [
        ledgerEntry({
          tx: 'b1',
          at: '2024-01-01',
          direction: 'buy',
          amount: '1',
          priceUsd: '100',
          account: 'src',
        }),
        ledgerEntry({
          tx: 'o',
          at: outAt,
          direction: 'transfer_out',
          amount: '1',
          account: 'src',
          transferId: 't',
        }),
        ledgerEntry({
          tx: 'i',
          at: inAt,
          direction: 'transfer_in',
          amount: '1',
          account: inAccount,
          symbol: inSymbol,
          transferId: 't',
        }),
      ],
      { method: 'fifo' },
    );
    expect(result.removals.map((r) => r.reason)).toEqual(['unmatched_transfer_out']);
    expect(result.issues.map((i) => (i.kind === 'unknown_basis' ? i.reason : i.kind))).toEqual([
      'unmatched_transfer_in',
    ]);
  });

  it('moves the covered lots and flags the rest when the source holds less than it sends', () => {
    const result = computeCostBasis(
      [
        ledgerEntry({
          tx: 'b1',
          at: '2024-01-01',
          direction: 'buy',
          amount: '1',
          priceUsd: '100',
          account: 'src',
        }),
        ledgerEntry({
          tx: 'o',
          at: '2024-02-01',
          direction: 'transfer_out',
          amount: '3',
          account: 'src',
          transferId: 't',
        }),
        ledgerEntry({
          tx: 'i',
          at: '2024-02-01',
          direction: 'transfer_in',
          amount: '2.9',
          account: 'dst',
          transferId: 't',
        }),
      ],
      { method: 'fifo' },
    );
    expect(result.openLots.map((l) => [l.accountId, l.quantity, l.costBasisUsd, l.basisKnown])).toEqual([
      ['dst', '1', '100', true],
      ['dst', '1.9', '0', false],
    ]);
    expect(result.issues).toEqual([
      {
        kind: 'insufficient_holdings',
        accountId: 'src',
        symbol: 'BTC',
        transactionId: 'o',
        missingQuantity: '2',
      },
      {
        kind: 'unknown_basis',
        accountId: 'dst',
        symbol: 'BTC',
        transactionId: 'i',
        quantity: '1.9',
        reason: 'transfer_in_exceeds_out',
      },
    ]);
  });
});

describe('computeCostBasis: conversions (a wrap: transferId wrap:…, one account, two symbols)', () => {
  const buy = ledgerEntry({
    tx: 'b',
    at: '2024-01-10',
    direction: 'buy',
    amount: '2',
    priceUsd: '2000',
    symbol: 'ETH',
    account: 'wallet',
  });
  const out = (fields: { account?: string; transferId?: string; symbol?: string } = {}) =>
    ledgerEntry({
      tx: 'w:out',
      at: '2024-06-01T12:00:00Z',
      direction: 'transfer_out',
      amount: '1',
      symbol: fields.symbol ?? 'ETH',
      account: fields.account ?? 'wallet',
      transferId: fields.transferId ?? 'wrap:0xw',
    });
  const into = (fields: { account?: string; transferId?: string; symbol?: string } = {}) =>
    ledgerEntry({
      tx: 'w:in',
      at: '2024-06-01T12:00:00Z',
      direction: 'transfer_in',
      amount: '1',
      symbol: fields.symbol ?? 'WETH',
      account: fields.account ?? 'wallet',
      transferId: fields.transferId ?? 'wrap:0xw',
    });

  it('moves the lot to the other symbol in the same account with its basis and date, acquired in that account', () => {
    const result = computeCostBasis([buy, out(), into()], { method: 'fifo' });
    expect(
      result.openLots.map((l) => [l.symbol, l.quantity, l.costBasisUsd, isoDate(l.acquiredAt), l.basisKnown]),
    ).toEqual([
      ['ETH', '1', '2000', '2024-01-10', true],
      ['WETH', '1', '2000', '2024-01-10', true],
    ]);
    expect(result.disposals).toEqual([]);
    expect(result.removals).toEqual([]);
    expect(result.issues).toEqual([]);
    // A sale of the WETH is long-term from the ETH's date and counts as acquired in the account.
    const sold = computeCostBasis(
      [
        buy,
        out(),
        into(),
        ledgerEntry({
          tx: 's',
          at: '2025-02-01',
          direction: 'sell',
          amount: '1',
          priceUsd: '3000',
          symbol: 'WETH',
          account: 'wallet',
        }),
      ],
      { method: 'fifo' },
    );
    expect(sold.disposals.map((d) => [d.symbol, d.gainUsd, d.term, d.acquiredInAccount])).toEqual([
      ['WETH', '1000', 'long', true],
    ]);
  });

  it('pairs nothing across accounts, nor a chain transfer id within one account', () => {
    // wrap: legs on two accounts: a lone out (removal) and a lone in (unknown basis).
    const across = computeCostBasis([buy, out(), into({ account: 'other' })], { method: 'fifo' });
    expect(across.removals.map((r) => [r.symbol, r.reason])).toEqual([['ETH', 'unmatched_transfer_out']]);
    expect(across.openLots.map((l) => [l.accountId, l.symbol, l.basisKnown])).toEqual([
      ['other', 'WETH', false],
      ['wallet', 'ETH', true],
    ]);
    // A chain id pairs the same symbol across accounts only: ETH out, WETH in of one account stay lone.
    const chain = computeCostBasis([buy, out({ transferId: 'chain:ab' }), into({ transferId: 'chain:ab' })], {
      method: 'fifo',
    });
    expect(chain.removals.map((r) => r.reason)).toEqual(['unmatched_transfer_out']);
    expect(chain.openLots.map((l) => [l.symbol, l.basisKnown])).toEqual([
      ['ETH', true],
      ['WETH', false],
    ]);
  });
});
