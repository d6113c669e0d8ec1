import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceTransaction } from '../connectors/source-connector.js';
import { priceBook } from '../../../../test/factories/export-prices.factory.js';
import { parseImportFile, type ImportParseResult } from './export-files.js';
import {
  KRAKEN_EARN_SUBTYPES,
  krakenAsset,
  krakenLedgerKind,
  krakenPair,
} from '../../../domain/exchanges/kraken.js';

const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'exports');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const NOW = new Date('2026-01-01T00:00:00Z');

function parse(
  text: string,
  options: { format?: string; prices?: Record<string, string> } = {},
): ImportParseResult {
  return parseImportFile(text, { now: NOW, format: options.format, prices: priceBook(options.prices) });
}

function ok(result: ImportParseResult): SourceTransaction[] {
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
  return result.transactions;
}

/** The legs without their ids, in file order: what the ledger will compute from. */
const legs = (txs: SourceTransaction[]) =>
  txs.map((tx) => [tx.occurredAt.toISOString(), tx.symbol, tx.direction, tx.amount, tx.priceUsd, tx.feeUsd]);

const errorsOf = (result: ImportParseResult) => {
  if (result.ok) throw new Error('expected errors');
  return result.errors.map((e) => [e.line, e.field, e.message]);
};

describe('export files', () => {
  describe('Coinbase transaction history', () => {
    it('reads the 2023 column set after its preamble: buys, sells, rewards, sends, converts, receives', () => {
      const result = parse(fixture('coinbase-2023.csv'));
      expect(result.format).toBe('coinbase');
      const txs = ok(result);
      expect(legs(txs)).toEqual([
        // The USD bank deposit on line 9 is skipped: cash is not a crypto position.
        ['2023-01-05T14:22:01.000Z', 'BTC', 'buy', '0.5', '16800', '49.75'],
        ['2023-02-10T09:00:00.000Z', 'ETH', 'buy', '2', '1500', '20'],
        ['2023-03-01T12:00:00.000Z', 'ETH', 'income', '0.01', '1600', null],
        ['2023-06-15T16:30:00.000Z', 'BTC', 'sell', '0.2', '25000', '30'],
        ['2023-07-01T08:00:00.000Z', 'ETH', 'withdrawal', '0.5', null, null],
        // Convert: 1 ETH sold at spot less the 10 USD fee = 1840 USD of BTC, 1840 / 0.064 = 28750.
        ['2023-08-01T00:00:00.000Z', 'ETH', 'sell', '1', '1850', '10'],
        ['2023-08-01T00:00:00.000Z', 'BTC', 'buy', '0.064', '28750', null],
        ['2023-09-01T10:10:10.000Z', 'ETH', 'deposit', '0.3', null, null],
      ]);
      // Without an ID column, ids are hashes of the row: the same file gives the same ids.
      expect(txs[0].transactionId).toMatch(/^coinbase-[0-9a-f]{20}$/);
      expect(txs.map((t) => t.transactionId)).toEqual(
        ok(parse(fixture('coinbase-2023.csv'))).map((t) => t.transactionId),
      );
      expect(txs[5].transactionId).toMatch(/:ETH$/);
      expect(txs[6].transactionId).toMatch(/:BTC$/);
    });

    it('reads the current column set: ID, Price Currency, $-formatted money, negative quantities', () => {
      const txs = ok(parse(fixture('coinbase-2024.csv')));
      expect(txs.map((t) => [t.transactionId, ...legs([t])[0]])).toEqual([
        ['6593a1c2e4b0f1a2b3c4d5e6', '2024-01-02T03:04:05.000Z', 'SOL', 'buy', '10', '101.5', '14.9'],
        ['6593a1c2e4b0f1a2b3c4d5e7', '2024-02-03T10:00:00.000Z', 'SOL', 'income', '0.05', '110', null],
        // Line 6, a Retail Staking Transfer, moves coins inside the account: skipped.
        ['6593a1c2e4b0f1a2b3c4d5e9', '2024-03-04T11:30:00.000Z', 'SOL', 'sell', '4', '190', '5.7'],
      ]);
    });

    it('reads the oldest column sets (Total (inclusive of fees), Fees; USD-prefixed)', () => {
      const v2 = [
        'Timestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at Transaction,Subtotal,Total (inclusive of fees),Fees,Notes',
        '2019-05-01T10:00:00Z,Buy,LTC,3,USD,75.00,225.00,228.99,3.99,Bought 3 LTC',
      ].join('\n');
      const v1 = [
        'Timestamp,Transaction Type,Asset,Quantity Transacted,USD Spot Price at Transaction,USD Subtotal,USD Total (inclusive of fees),USD Fees,Notes',
        '2018-05-01T10:00:00Z,Sell,BTC,0.1,9000.00,900.00,886.57,13.43,Sold 0.1 BTC',
      ].join('\n');
      expect(legs(ok(parse(v2)))).toEqual([['2019-05-01T10:00:00.000Z', 'LTC', 'buy', '3', '75', '3.99']]);
      expect(legs(ok(parse(v1)))).toEqual([
        ['2018-05-01T10:00:00.000Z', 'BTC', 'sell', '0.1', '9000', '13.43'],
      ]);
    });

    it('takes a Receive paid by Coinbase (Earn, Rewards) as income at the spot price', () => {
      const text = [
        'Timestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at Transaction,Subtotal,Total (inclusive of fees and/or spread),Fees and/or Spread,Notes',
        '2022-05-01T10:00:00Z,Receive,XLM,12.5,USD,0.20,2.50,2.50,0.00,Received 12.5 XLM from Coinbase Earn',
        '2022-05-02T10:00:00Z,Receive,XLM,3,USD,0.21,,,,Received 3 XLM from an external account',
      ].join('\n');
      expect(legs(ok(parse(text)))).toEqual([
        ['2022-05-01T10:00:00.000Z', 'XLM', 'income', '12.5', '0.2', null],
        ['2022-05-02T10:00:00.000Z', 'XLM', 'deposit', '3', null, null],
      ]);
    });

    it('refuses a EUR export row by row, naming the line and the column', () => {
      const text = fixture('coinbase-2023.csv').replace('Buy,BTC,0.5,USD', 'Buy,BTC,0.5,EUR');
      expect(errorsOf(parse(text))).toEqual([
        [
          9,
          'Spot Price Currency',
          '"Spot Price Currency" is EUR: only USD-denominated Coinbase exports can be imported (the service stores no EUR exchange rates); choose USD as the export\'s currency',
        ],
      ]);
    });
  });

  describe('Kraken ledgers', () => {
    it('pairs the legs of one refid into a trade and prices staking, crypto trades and fees from stored prices', () => {
      const result = parse(fixture('kraken-ledgers.csv'));
      expect(result.format).toBe('kraken-ledgers');
      const txs = ok(result);
      expect(txs.map((t) => [t.transactionId, ...legs([t])[0]])).toEqual([
        // 4250 USD + 6.80 USD fee for 0.1 BTC: 42500 a coin.
        ['TJKLXX-PEUYK-GLA6AK', '2024-01-15T12:00:00.000Z', 'BTC', 'buy', '0.1', '42500', '6.8'],
        // 0.04 BTC for 2080 USD less a 3.33 USD fee: 52000 a coin.
        ['TR5U4S-OB3JS-TZEAQ6', '2024-02-20T15:30:00.000Z', 'BTC', 'sell', '0.04', '52000', '3.33'],
        // DOT.S is staked DOT; the reward is income at the day's stored price.
        ['LWU5EZ-4FFVP-GPJ4UK', '2024-03-01T00:00:00.000Z', 'DOT', 'income', '0.5', '7.25', null],
        // 0.02 BTC at 68000 = 1360 USD for 0.4 ETH (3400 a coin); 0.0008 ETH fee = 2.72 USD.
        ['TG6AJM-X3XQS-IBCZ3W:BTC', '2024-03-10T08:00:00.000Z', 'BTC', 'sell', '0.02', '68000', null],
        ['TG6AJM-X3XQS-IBCZ3W:ETH', '2024-03-10T08:00:00.000Z', 'ETH', 'buy', '0.3992', '3400', '2.72'],
        // The withdrawal's network fee is its own disposal at the day's price.
        ['LF3TLS-ASNCQ-BTT4CJ', '2024-04-01T10:00:00.000Z', 'BTC', 'withdrawal', '0.01', null, null],
        ['LF3TLS-ASNCQ-BTT4CJ:fee', '2024-04-01T10:00:00.000Z', 'BTC', 'fee', '0.0001', '70000', null],
        // The last row has no txid (a pending withdrawal): skipped.
      ]);
    });

    it('refuses a crypto trade without a stored price for either side, and a refid with one leg', () => {
      const result = parse(fixture('kraken-ledgers.csv'), {
        prices: { 'DOT 2024-03-01': '7.25', 'BTC 2024-04-01': '70000' },
      });
      expect(errorsOf(result)).toEqual([
        [
          8,
          'asset',
          '"asset" trades BTC for ETH: no stored USD price for either on 2024-03-10, so the trade cannot be valued',
        ],
      ]);
      const oneLeg = fixture('kraken-ledgers.csv')
        .split('\n')
        .filter((l) => !l.startsWith('"LKAKN4'))
        .join('\n');
      expect(errorsOf(parse(oneLeg))[0]).toEqual([
        3,
        'refid',
        '"refid" "TJKLXX-PEUYK-GLA6AK" has 1 ledger row(s) of a trade (1 paid, 0 received); a trade needs exactly one of each',
      ]);
    });

    it('Earn: an allocation pair moves nothing, the reward is income; ETH2.S and DOT.S are ETH and DOT; an unknown earn subtype is refused', () => {
      const header =
        '"txid","refid","time","type","subtype","aclass","asset","wallet","amount","fee","balance"';
      const row = (
        txid: string,
        time: string,
        type: string,
        subtype: string,
        asset: string,
        amount: string,
      ) =>
        `"${txid}","R-${txid}","${time}","${type}","${subtype}","currency","${asset}","spot / main","${amount}","0","0"`;
      const text = [
        header,
        row('L1', '2024-04-01 10:00:00', 'earn', 'allocation', 'XETH', '-0.5000000000'),
        row('L2', '2024-04-01 10:00:00', 'earn', 'allocation', 'ETH2.S', '0.5000000000'),
        row('L3', '2024-04-01 12:00:00', 'earn', 'reward', 'ETH2.S', '0.0010000000'),
        row('L4', '2024-04-01 13:00:00', 'earn', 'migration', 'DOT.S', '10.0000000000'),
        row('L5', '2024-04-01 14:00:00', 'earn', 'autoallocation', 'USDC.F', '-5.0000000000'),
        row('L6', '2024-04-01 15:00:00', 'staking', '', 'DOT28.S', '-1.0000000000'),
      ].join('\n');
      expect(ok(parse(text)).map((t) => [t.transactionId, ...legs([t])[0]])).toEqual([
        ['L3', '2024-04-01T12:00:00.000Z', 'ETH', 'income', '0.001', '3500', null],
      ]);
      const unknown = `${header}\n${row('L7', '2024-04-01 10:00:00', 'earn', '', 'XETH', '0.1')}`;
      expect(errorsOf(parse(unknown))).toEqual([
        [
          2,
          'subtype',
          '"subtype" is "", a subtype of "earn" this importer does not take; known: reward, allocation, deallocation, migration, autoallocation',
        ],
      ]);
    });

    it('reads a Ledgers row exactly as the exchange source reads it from Kraken’s API: income or not, for every type, subtype and sign', () => {
      const header = '"txid","refid","time","type","subtype","aclass","asset","amount","fee","balance"';
      const types = [
        'staking',
        'reward',
        'earn',
        'dividend',
        'invite bonus',
        'transfer',
        'deposit',
        'withdrawal',
      ];
      const subtypes = [
        '',
        'reward',
        'allocation',
        'deallocation',
        'migration',
        'autoallocation',
        'spottostaking',
      ];
      for (const type of types)
        for (const subtype of subtypes)
          for (const amount of ['0.5', '-0.5']) {
            const result = parse(
              `${header}\n"L1","R1","2024-04-01 10:00:00","${type}","${subtype}","currency","ETH2.S","${amount}","0","0"`,
            );
            const fromFile = result.ok ? result.transactions.map((t) => t.direction) : ['refused'];
            const kind = krakenLedgerKind({
              id: 'L1',
              timestamp: Date.parse('2024-04-01T10:00:00Z'),
              type,
              currency: 'ETH',
              amount: amount.replace('-', ''),
              direction: amount.startsWith('-') ? 'out' : 'in',
              info: { type, subtype, asset: 'ETH2.S', amount },
            });
            const fromApi = {
              reward: ['income'],
              deposit: ['deposit'],
              withdrawal: ['withdrawal'],
              none: type === 'earn' && !KRAKEN_EARN_SUBTYPES[subtype] ? ['refused'] : [],
            }[kind];
            expect([type, subtype, amount, fromFile]).toEqual([type, subtype, amount, fromApi]);
          }
    });

    it('names Kraken assets and pairs as tickers', () => {
      expect(
        ['XXBT', 'XBT.M', 'ETH2.S', 'DOT28.S', 'XXDG', 'USDC.M', 'ZUSD', 'SOL'].map(krakenAsset),
      ).toEqual(['BTC', 'BTC', 'ETH', 'DOT', 'DOGE', 'USDC', 'USD', 'SOL']);
      expect(['XXBTZUSD', 'XETHXXBT', 'SOLUSD', 'ADAUSDT', 'DOT/EUR', 'ETHXBT'].map(krakenPair)).toEqual([
        ['BTC', 'USD'],
        ['ETH', 'BTC'],
        ['SOL', 'USD'],
        ['ADA', 'USDT'],
        ['DOT', 'EUR'],
        ['ETH', 'BTC'],
      ]);
    });
  });

  describe('Kraken trades', () => {
    it('reads fills with their pair, fees in the quote currency', () => {
      const result = parse(fixture('kraken-trades.csv'));
      expect(result.format).toBe('kraken-trades');
      expect(ok(result).map((t) => [t.transactionId, ...legs([t])[0]])).toEqual([
        // Fractions of a second beyond milliseconds are dropped.
        ['TJKLXX-PEUYK-GLA6AK', '2024-01-15T12:00:00.123Z', 'BTC', 'buy', '0.1', '42500', '6.8'],
        ['TR5U4S-OB3JS-TZEAQ6', '2024-02-20T15:30:00.567Z', 'BTC', 'sell', '0.04', '52000', '3.33'],
        // Paid 0.02 BTC + 0.00004 BTC fee at 68000 (1360 + 2.72 USD) for 0.4 ETH at 3400.
        ['TG6AJM-X3XQS-IBCZ3W:BTC', '2024-03-10T08:00:00.000Z', 'BTC', 'sell', '0.02004', '68000', '2.72'],
        ['TG6AJM-X3XQS-IBCZ3W:ETH', '2024-03-10T08:00:00.000Z', 'ETH', 'buy', '0.4', '3400', null],
      ]);
    });

    it('refuses a EUR pair: no EUR rates are stored', () => {
      const text = fixture('kraken-trades.csv').replace('"XXBTZUSD","2024-01-15', '"XXBTZEUR","2024-01-15');
      expect(errorsOf(parse(text))).toEqual([
        [
          2,
          'pair',
          '"pair" is quoted in EUR: only USD-quoted trades or trades between two crypto assets can be valued (the service stores no EUR exchange rates)',
        ],
      ]);
    });
  });

  describe('Gemini transaction history', () => {
    it('reads trades, earn interest and withdrawals; skips cash and the totals row', () => {
      const result = parse(fixture('gemini.csv'));
      expect(result.format).toBe('gemini');
      const txs = ok(result);
      expect(legs(txs)).toEqual([
        // (2,200.00) USD and a 7.70 USD fee for 0.05 BTC: 44000 a coin.
        ['2024-01-04T14:00:00.000Z', 'BTC', 'buy', '0.05', '44000', '7.7'],
        ['2024-02-05T09:30:00.000Z', 'ETH', 'buy', '0.5', '2300', '2.3'],
        ['2024-03-06T16:45:00.000Z', 'BTC', 'sell', '0.02', '65000', '4.55'],
        ['2024-04-01T00:00:00.000Z', 'ETH', 'income', '0.001', '3500', null],
        ['2024-04-10T12:00:00.000Z', 'BTC', 'withdrawal', '0.01', null, null],
      ]);
      expect(txs[0].transactionId).toBe('81234567001');
      expect(txs[4].transactionId).toBe('4b2d0e0f5a8c9d1e2f3a4b5c6d7e8f901a2b3c4d5e6f708192a3b4c5d6e7f809');
    });
  });

  describe('Bitstamp transactions', () => {
    it('reads market buys and sells, staking rewards and withdrawals', () => {
      const result = parse(fixture('bitstamp.csv'));
      expect(result.format).toBe('bitstamp');
      expect(ok(result).map((t) => [t.transactionId, ...legs([t])[0]])).toEqual([
        ['301245872', '2024-01-09T11:00:00.000Z', 'ETH', 'buy', '2', '2300', '11.6'],
        ['301245873', '2024-02-01T00:00:00.000Z', 'ETH', 'income', '0.0025', '2300', null],
        ['301245874', '2024-03-15T13:20:00.000Z', 'ETH', 'sell', '0.5', '3950', '4.94'],
        ['301245875', '2024-04-02T09:00:00.000Z', 'ETH', 'withdrawal', '0.25', null, null],
      ]);
    });
  });

  describe('detection', () => {
    it('tells every format by its header row, whatever the file is called, and reads anything else as the native CSV', () => {
      const formats = [
        'coinbase-2023.csv',
        'coinbase-2024.csv',
        'kraken-ledgers.csv',
        'kraken-trades.csv',
        'gemini.csv',
        'bitstamp.csv',
      ].map((name) => parse(fixture(name)).format);
      expect(formats).toEqual([
        'coinbase',
        'coinbase',
        'kraken-ledgers',
        'kraken-trades',
        'gemini',
        'bitstamp',
      ]);
      const native = parse(
        'transactionId,timestamp,symbol,direction,amount,price,fee,transferId\nx,2024-01-02T03:04:05Z,BTC,buy,1,42000,,\n',
      );
      expect(native.format).toBe('csv');
      expect(ok(native)).toHaveLength(1);
      // A header no layout takes: every layout tried says what it lacks (the next describe).
      expect(parse('Date,Amount\n2024-01-01,5\n').format).toBe('unknown');
    });

    it('reads a named format, and says which columns are missing when the file is not one', () => {
      expect(parse(fixture('gemini.csv'), { format: 'gemini' }).format).toBe('gemini');
      expect(errorsOf(parse(fixture('gemini.csv'), { format: 'kraken-trades' }))).toEqual([
        [
          1,
          'header',
          'Not a Kraken trades export: missing columns "txid", "ordertxid", "pair", "time", "price", "cost", "fee", "vol"',
        ],
      ]);
      expect(errorsOf(parse(fixture('gemini.csv'), { format: 'mtgox' }))[0][2]).toBe(
        'format "mtgox" is unknown; known: csv, coinbase, kraken-ledgers, kraken-trades, gemini, bitstamp',
      );
    });
  });

  describe('a header no layout takes: what each layout tried lacks, in its own words, closest first', () => {
    const unrecognised = (text: string) => {
      const result = parse(text);
      if (result.ok) throw new Error('expected errors');
      return { format: result.format, summary: result.summary, errors: errorsOf(result) };
    };
    const SUMMARY =
      "The header matches none of the layouts tried (Coinbase transaction history, Kraken ledgers, Kraken trades, Gemini transaction history, Bitstamp transactions, the service's CSV); what each lacks is listed by line, closest first. Nothing was imported.";
    const NATIVE_COLUMNS =
      '(its columns: transactionId, timestamp, symbol, direction, amount, price, fee, transferId)';

    it('a Coinbase file whose "Asset" column was renamed: Coinbase first, on its header line after the preamble', () => {
      const text = fixture('coinbase-2024.csv').replace(',Asset,', ',Currency,');
      // Coinbase wants 7 columns (4 of the signature, a price, a fee, Notes); line 3 has 6 of them.
      // No other layout finds one of its columns anywhere: each compares the first line and ties
      // at 0, kept in the order tried. The service's CSV reads line 1, "Transactions", as its header.
      expect(unrecognised(text)).toEqual({
        format: 'unknown',
        summary: SUMMARY,
        errors: [
          [3, 'header', 'Not a Coinbase transaction history export: missing column "Asset"'],
          [
            1,
            'header',
            'Not a Kraken ledgers export: missing columns "txid", "refid", "time", "type", "asset", "amount", "fee"',
          ],
          [
            1,
            'header',
            'Not a Kraken trades export: missing columns "txid", "ordertxid", "pair", "time", "type", "price", "cost", "fee", "vol"',
          ],
          [
            1,
            'header',
            'Not a Gemini transaction history export: missing columns "Date", "Time (UTC)", "Type", "Symbol", "Specification"',
          ],
          [
            1,
            'header',
            'Not a Bitstamp transactions export: missing columns "Type", "Subtype", "Datetime", "Amount", "Amount currency", "Value", "Value currency", "Fee", "Fee currency"',
          ],
          [
            1,
            'header',
            `Not the service's CSV: missing columns "transactionId", "timestamp", "symbol", "direction", "amount"; unknown column "Transactions" ${NATIVE_COLUMNS}`,
          ],
        ],
      });
    });

    it('names the other names of a column Coinbase renamed across its layouts', () => {
      const text = [
        'Timestamp,Transaction Type,Asset,Amount,Spot Price,Fees,Notes',
        '2023-01-05T14:22:01Z,Buy,BTC,0.5,16800.00,49.75,x',
      ].join('\n');
      // Names compare case-insensitively. Coinbase: 5 of 7 (0.71). The service's CSV: "Timestamp"
      // and "Amount" (2 of 5, 0.4). Kraken ledgers: "Asset", "Amount" (2 of 7, 0.29). Bitstamp:
      // "Amount" (1 of 9, 0.11). Kraken trades and Gemini: none.
      const { errors } = unrecognised(text);
      expect(errors.map(([, , message]) => message)).toEqual([
        'Not a Coinbase transaction history export: missing columns "Quantity Transacted", "Price at Transaction" (or "Spot Price at Transaction" or "USD Spot Price at Transaction")',
        `Not the service's CSV: missing columns "transactionId", "symbol", "direction"; unknown columns "Transaction Type", "Asset", "Spot Price", "Fees", "Notes" ${NATIVE_COLUMNS}`,
        'Not a Kraken ledgers export: missing columns "txid", "refid", "time", "type", "fee"',
        'Not a Bitstamp transactions export: missing columns "Type", "Subtype", "Datetime", "Amount currency", "Value", "Value currency", "Fee", "Fee currency"',
        'Not a Kraken trades export: missing columns "txid", "ordertxid", "pair", "time", "type", "price", "cost", "fee", "vol"',
        'Not a Gemini transaction history export: missing columns "Date", "Time (UTC)", "Type", "Symbol", "Specification"',
      ]);
    });

    it("the service's CSV with a misspelt column: its own layout first, with the column it does not know", () => {
      const { errors } = unrecognised(
        'transactionId,when,symbol,direction,amount\nx,2024-01-02T03:04:05Z,BTC,buy,1\n',
      );
      // 4 of its 5 required columns (0.8); Gemini finds "Symbol" (1 of 5, 0.2), Kraken ledgers
      // "amount" (1 of 7, 0.14), Bitstamp "Amount" (1 of 9, 0.11); Coinbase and Kraken trades none.
      expect(errors.map(([line, , message]) => [line, String(message).split(':')[0]])).toEqual([
        [1, "Not the service's CSV"],
        [1, 'Not a Gemini transaction history export'],
        [1, 'Not a Kraken ledgers export'],
        [1, 'Not a Bitstamp transactions export'],
        [1, 'Not a Coinbase transaction history export'],
        [1, 'Not a Kraken trades export'],
      ]);
      expect(errors[0][2]).toBe(
        `Not the service's CSV: missing column "timestamp"; unknown column "when" ${NATIVE_COLUMNS}`,
      );
    });

    it("a valid header of the service's CSV is read by its parser (its row errors, no layouts); an empty file says it is empty", () => {
      const rows = parse('transactionId,timestamp,symbol,direction,amount,price\nx,yesterday,BTC,buy,1,5\n');
      expect(rows.format).toBe('csv');
      expect(errorsOf(rows)[0]).toEqual([2, 'timestamp', expect.stringMatching(/^timestamp must be/)]);
      expect(errorsOf(parse(''))).toEqual([
        [
          1,
          'header',
          'the file is empty; the first line must name the columns: transactionId,timestamp,symbol,direction,amount,price,fee,transferId',
        ],
      ]);
    });
  });

  describe('errors: all or nothing, by line and column', () => {
    it('refuses a misread number in every layout, naming the line and the column (a decimal comma, a letter O, a foreign unit)', () => {
      const swap = (text: string, pairs: [string, string][]) =>
        pairs.reduce((out, [from, to]) => {
          expect(out).toContain(from);
          return out.replace(from, to);
        }, text);
      const comma = '; a comma separates thousands only (1,234.5), the decimal separator is a point';
      const letter = '; a letter among the digits is not a number';
      // The two: `-0,015` was stored as 15, `-0.01O5000000` as 0.01.
      const kraken = swap(fixture('kraken-ledgers.csv'), [
        ['"XXBT","-0.0400000000"', '"XXBT","-0,015"'],
        [
          '"XXBT","-0.0100000000","0.0001000000","0.0299000000"',
          '"XXBT","-0.01O5000000","0.0001000000","0.0299000000"',
        ],
      ]);
      expect(errorsOf(parse(kraken))).toEqual([
        [5, 'amount', `"amount" must be a number (got "-0,015")${comma}`],
        [10, 'amount', `"amount" must be a number (got "-0.01O5000000")${letter}`],
      ]);
      const trades = swap(fixture('kraken-trades.csv'), [['"0.10000000"', '"0,1"']]);
      expect(errorsOf(parse(trades))).toEqual([[2, 'vol', `"vol" must be a number (got "0,1")${comma}`]]);
      const coinbase = swap(fixture('coinbase-2024.csv'), [
        ['$101.50', '"$101,50"'],
        ['Staking Income,SOL,0.05', 'Staking Income,SOL,0.O5'],
      ]);
      expect(errorsOf(parse(coinbase))).toEqual([
        [4, 'Price at Transaction', `"Price at Transaction" must be a number (got "$101,50")${comma}`],
        [5, 'Quantity Transacted', `"Quantity Transacted" must be a number (got "0.O5")`],
      ]);
      const gemini = swap(fixture('gemini.csv'), [
        [',0.05 BTC,,0.05 BTC,', ',0.05 ETH,,0.05 BTC,'],
        ['(0.02 BTC)', '"(0,02 BTC)"'],
      ]);
      expect(errorsOf(parse(gemini))).toEqual([
        [3, 'BTC Amount BTC', '"BTC Amount BTC" must be a number (got "0.05 ETH")'],
        [5, 'BTC Amount BTC', '"BTC Amount BTC" must be a number (got "(0,02 BTC)")'],
      ]);
      const bitstamp = swap(fixture('bitstamp.csv'), [['2.00000000,ETH', '"2,00000000",ETH']]);
      expect(errorsOf(parse(bitstamp))).toEqual([
        [3, 'Amount', `"Amount" must be a number (got "2,00000000")${comma}`],
      ]);
      const convert = swap(fixture('coinbase-2023.csv'), [
        ['Converted 1 ETH to 0.064 BTC', '"Converted 1 ETH to 0,064 BTC"'],
      ]);
      expect(errorsOf(parse(convert))).toEqual([
        [14, 'Notes', '"Notes" names an amount received that is not a number ("0,064")'],
      ]);
    });

    it('the native CSV is strict too: no separators, signs or letters in its numbers', () => {
      const native = (amount: string) =>
        `transactionId,timestamp,symbol,direction,amount,price\nt1,2024-01-02T03:04:05Z,BTC,buy,"${amount}",100\n`;
      for (const amount of ['-0,015', '0.01O5000000', '1,234.5', '-1', '1e3', '.5'])
        expect(errorsOf(parse(native(amount)))).toEqual([
          [2, 'amount', 'amount must be a decimal number > 0 (digits and an optional fraction, e.g. 0.5)'],
        ]);
      expect(ok(parse(native('0.0105'))).map((t) => t.amount)).toEqual(['0.0105']);
    });

    it('reports a missing column, a bad number, a bad date and an unknown type together, and returns no transactions', () => {
      const text = [
        '"txid","refid","time","type","subtype","aclass","asset","amount","fee","balance"',
        '"L1","R1","2024-01-10 09:00:00","deposit","","currency","XXBT","0.5","0","0.5"',
        '"L2","R2","2024-13-10 09:00:00","deposit","","currency","XXBT","0.5","0","1"',
        '"L3","R3","2024-01-11 09:00:00","deposit","","currency","XXBT","1,5x","0","1"',
        '"L4","R4","2024-01-12 09:00:00","margin","","currency","XXBT","0.1","0","1"',
      ].join('\n');
      expect(errorsOf(parse(text))).toEqual([
        [
          3,
          'time',
          '"time" must be a UTC date and time such as 2024-01-02 03:04:05 (got "2024-13-10 09:00:00")',
        ],
        [4, 'amount', '"amount" must be a number (got "1,5x")'],
        [
          5,
          'type',
          '"type" is "margin", a type this importer does not take (margin, futures and adjustments are not imported); known: trade, spend, receive, deposit, withdrawal, staking, reward, earn, dividend, invite bonus, transfer',
        ],
      ]);
      const coinbaseWithoutFees = [
        'Timestamp,Transaction Type,Asset,Quantity Transacted,Spot Price Currency,Spot Price at Transaction,Subtotal,Notes',
        '2023-01-05T14:22:01Z,Buy,BTC,0.5,USD,16800.00,8400.00,x',
      ].join('\n');
      expect(errorsOf(parse(coinbaseWithoutFees))).toEqual([
        [1, 'header', 'required column "Fees and/or Spread" or "Fees" or "USD Fees" is missing'],
      ]);
    });

    it('names an unknown Coinbase type, an income without a stored price, and an impossible date', () => {
      const text = fixture('coinbase-2024.csv')
        .replace('Staking Income', 'Margin Call')
        .replace('2024-03-04 11:30:00 UTC,Sell', '2024-02-30 11:30:00 UTC,Sell');
      const errors = errorsOf(parse(text));
      expect(errors.map(([line, field]) => [line, field])).toEqual([
        [5, 'Transaction Type'],
        [7, 'Timestamp'],
      ]);
      expect(errors[0][2]).toMatch(
        /^"Transaction Type" is "Margin Call", a type this importer does not know; known: buy, /,
      );
      expect(errorsOf(parse(fixture('bitstamp.csv'), { prices: {} }))).toEqual([
        [
          4,
          'Amount',
          '"Amount" needs a USD price of ETH on 2024-02-01 for its income and the market store has none',
        ],
      ]);
    });

    it('applies the ledger rules to every leg (no future dates) and refuses a repeated id', () => {
      const text = fixture('bitstamp.csv')
        .replace('2024-04-02T09:00:00Z', '2027-04-02T09:00:00Z')
        .replace('301245874', '301245873');
      expect(errorsOf(parse(text))).toEqual([
        [5, 'id', 'transaction "301245873" already appears on line 4'],
        [6, 'timestamp', 'timestamp is in the future'],
      ]);
    });
  });
});

describe('export numbers and dates', () => {
  it('reads money, units, separators and parentheses exactly, and refuses anything else', async () => {
    const { readNumber } = await import('./export-format.js');
    const read = (raw: string, affixes = {}) => readNumber(raw, affixes)?.toString() ?? null;
    const usd = { currencySign: '$' };
    const btc = { unit: 'BTC' };
    expect([
      read('$1,234.50', usd),
      read('($2,200.00)', usd),
      read('(0.02 BTC)', btc),
      read('0.05 BTC', btc),
      read('-4'),
      read('-$5.70', usd),
      read('0.000000000000000000000000000001'),
    ]).toEqual(['1234.5', '-2200', '-0.02', '0.05', '-4', '-5.7', '1e-30']);
    // A currency sign or a unit only where the column writes one (the reader is told which).
    expect([read('$1,234.50'), read('0.05 BTC'), read('0.05 ETH', btc)]).toEqual([null, null, null]);
    expect(
      ['1e5', '1,5', '(5', '5)', '--5', '12,34.5', 'abc', '', '1.2.3', '0x10'].map((t) => read(t)),
    ).toEqual(Array(10).fill(null));
  });

  it('refuses impossible calendar days whatever the offset', () => {
    const header =
      'ID,Account,Object,Type,Subtype,Datetime,Amount,Amount currency,Value,Value currency,Rate,Rate currency,Fee,Fee currency,Order ID';
    const row = (when: string) =>
      `${header}\n1,Main Account,Transaction,Withdrawal,,${when},0.1,ETH,,,,,,,\n`;
    expect(parse(row('2024-02-29T10:00:00+01:00')).ok).toBe(true);
    for (const when of [
      '2024-02-30T10:00:00+01:00',
      '2023-02-29T10:00:00Z',
      '2024-01-02T24:00:00Z',
      '2024-01-02',
    ])
      expect(errorsOf(parse(row(when)))).toEqual([
        [2, 'Datetime', `"Datetime" must be a UTC date and time such as 2024-01-02 03:04:05 (got "${when}")`],
      ]);
  });
});
