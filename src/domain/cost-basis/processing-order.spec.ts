import { compareByteOrder, sortForProcessing } from './processing-order.js';
import { ledgerEntry } from './testing/ledger-entry.factory.js';

describe('sortForProcessing', () => {
  it('orders by timestamp, transfer_in last at equal timestamps, then accountId, transactionId, symbol', () => {
    const at = '2024-01-01T00:00:00Z';
    const entries = [
      ledgerEntry({ tx: 't2', at, direction: 'buy', amount: '1', account: 'b' }),
      ledgerEntry({ tx: 't9', at, direction: 'transfer_in', amount: '1', account: 'a' }),
      ledgerEntry({ tx: 't1', at, direction: 'sell', amount: '1', account: 'b' }),
      ledgerEntry({ tx: 't0', at: '2024-01-02T00:00:00Z', direction: 'buy', amount: '1', account: 'a' }),
      ledgerEntry({ tx: 't5', at, direction: 'transfer_out', amount: '1', account: 'c' }),
      ledgerEntry({ tx: 't3', at, direction: 'buy', amount: '1', account: 'a', symbol: 'ETH' }),
      ledgerEntry({ tx: 't3', at, direction: 'sell', amount: '1', account: 'a', symbol: 'BTC' }),
      ledgerEntry({ tx: 't8', at: '2023-12-31T23:59:59.999Z', direction: 'sell', amount: '1', account: 'z' }),
    ];
    expect(sortForProcessing(entries).map((e) => `${e.accountId}/${e.transactionId}/${e.symbol}`)).toEqual([
      'z/t8/BTC',
      'a/t3/BTC',
      'a/t3/ETH',
      'b/t1/BTC',
      'b/t2/BTC',
      'c/t5/BTC',
      'a/t9/BTC',
      'a/t0/BTC',
    ]);
  });

  it('puts an acquisition before a disposal when everything else is equal', () => {
    const at = '2024-01-01';
    const sell = ledgerEntry({ tx: 't', at, direction: 'sell', amount: '1' });
    const buy = ledgerEntry({ tx: 't', at, direction: 'buy', amount: '1' });
    expect(sortForProcessing([sell, buy]).map((e) => e.direction)).toEqual(['buy', 'sell']);
  });

  it('does not reorder its input array', () => {
    const entries = [
      ledgerEntry({ tx: 'b', at: '2024-01-02', direction: 'buy', amount: '1' }),
      ledgerEntry({ tx: 'a', at: '2024-01-01', direction: 'buy', amount: '1' }),
    ];
    sortForProcessing(entries);
    expect(entries.map((e) => e.transactionId)).toEqual(['b', 'a']);
  });
});

describe('compareByteOrder', () => {
  it.each([
    ['a', 'b', -1],
    ['B', 'a', -1], // upper case sorts first in bytes, unlike localeCompare
    ['a', 'ab', -1],
    ['tx-10', 'tx-9', -1],
    ['same', 'same', 0],
    ['\uffff', '\u{1f600}', -1], // U+FFFF (EF BF BF) before U+1F600 (F0 ...), though UTF-16 '<' says otherwise
    ['\u{1f600}', '\u{1f601}', -1],
  ])('%j vs %j → %i', (a, b, expected) => {
    expect(Math.sign(compareByteOrder(a, b))).toBe(expected);
    expect(Math.sign(compareByteOrder(b, a))).toBe(expected === 0 ? 0 : -expected);
    expect(Math.sign(compareByteOrder(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
  });
});
