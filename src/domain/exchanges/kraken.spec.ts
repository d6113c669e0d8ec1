import { exchangeLegs, type ExchangeLedgerEntry } from './exchange-history.js';
import { krakenAsset, krakenAssetCode, krakenLedgerKind, krakenLedgerMeaning, krakenPair } from './kraken.js';

describe('Kraken’s vocabulary: one table for the API and the export files', () => {
  it.each([
    ['XXBT', 'BTC', 'spot'],
    ['XBT.M', 'BTC', 'opt_in_rewards'],
    ['XETH', 'ETH', 'spot'],
    ['ETH2', 'ETH', 'spot'],
    ['ETH2.S', 'ETH', 'staked'],
    ['ETH.B', 'ETH', 'bonded'],
    ['DOT.S', 'DOT', 'staked'],
    ['DOT28.S', 'DOT', 'staked'],
    ['KSM.P', 'KSM', 'parachain'],
    ['USDC.F', 'USDC', 'auto_earn'],
    ['USD.HOLD', 'USD', 'held'],
    ['ZUSD', 'USD', 'spot'],
    ['API3', 'API3', 'spot'],
    ['1INCH', '1INCH', 'spot'],
    [' sol ', 'SOL', 'spot'],
  ])('%s is %s in its %s wallet', (code, symbol, wallet) => {
    expect(krakenAssetCode(code)).toEqual({ symbol, wallet });
    expect(krakenAsset(code)).toBe(symbol);
  });

  it('reads pairs with the same codes', () => {
    expect(krakenPair('XXBTZUSD')).toEqual(['BTC', 'USD']);
    expect(krakenPair('DOT/EUR')).toEqual(['DOT', 'EUR']);
  });

  it.each([
    // Earn: only the reward is income; allocation, deallocation, migration and autoallocation move
    // coins between the client's own wallets, both legs.
    ['earn', 'reward', 'in', 'reward'],
    ['earn', 'reward', 'out', 'not_income'],
    ['earn', 'allocation', 'out', 'internal'],
    ['earn', 'allocation', 'in', 'internal'],
    ['earn', 'deallocation', 'in', 'internal'],
    ['earn', 'migration', 'in', 'internal'],
    ['earn', 'autoallocation', 'out', 'internal'],
    ['earn', 'Allocation', 'in', 'internal'],
    ['earn', '', 'in', 'unsupported'],
    ['earn', 'bonus', 'in', 'unsupported'],
    ['staking', '', 'in', 'reward'],
    ['staking', '', 'out', 'not_income'],
    ['reward', '', 'in', 'reward'],
    ['dividend', '', 'in', 'reward'],
    ['invite bonus', '', 'in', 'reward'],
    ['transfer', 'spottostaking', 'out', 'internal'],
    ['transfer', 'stakingfromspot', 'in', 'internal'],
    ['transfer', 'spotfromfutures', 'in', 'internal'],
    ['transfer', '', 'in', 'reward'],
    ['transfer', '', 'out', 'delisting'],
    ['deposit', '', 'in', 'deposit'],
    ['withdrawal', '', 'out', 'withdrawal'],
    ['deposit', '', 'out', 'withdrawal'],
    ['withdrawal', '', 'in', 'deposit'],
    ['trade', '', 'out', 'trade'],
    ['spend', '', 'out', 'trade'],
    ['receive', '', 'in', 'trade'],
    ['margin', '', 'in', 'unsupported'],
    ['adjustment', '', 'in', 'unsupported'],
  ] as const)('a Ledgers row of type %j, subtype %j, amount %s: %s', (type, subtype, flow, meaning) => {
    expect(krakenLedgerMeaning(type, subtype, flow)).toBe(meaning);
  });

  it('the exchange source reads ccxt’s Kraken entries with that table: an earn allocation pair is nothing, the reward is income', () => {
    // As ccxt's Kraken parses Ledgers: `type` is Kraken's type, `amount` its magnitude with a
    // direction, `info` the raw row (signed amount, subtype).
    const ccxtEntry = (id: string, subtype: string, amount: string): ExchangeLedgerEntry => ({
      id,
      timestamp: Date.parse('2025-03-02T10:00:00Z'),
      type: 'earn',
      currency: 'ETH',
      amount: amount.replace('-', ''),
      direction: amount.startsWith('-') ? 'out' : 'in',
      info: { type: 'earn', subtype, asset: 'XETH', amount },
    });
    const ledger = [
      ccxtEntry('A1', 'allocation', '-0.5000000000'),
      ccxtEntry('A2', 'allocation', '0.5000000000'),
      ccxtEntry('R1', 'reward', '0.0010000000'),
      ccxtEntry('R2', 'reward', '-0.0010000000'),
    ];
    expect(ledger.map(krakenLedgerKind)).toEqual(['none', 'none', 'reward', 'none']);
    expect(
      exchangeLegs([], ledger, () => '2100', krakenLedgerKind).map((l) => [
        l.transactionId,
        l.direction,
        l.amount,
      ]),
    ).toEqual([['ledger:R1', 'income', '0.001']]);
    // ccxt's unified reading alone booked both legs of the pair as income; now never a negative one.
    expect(exchangeLegs([], ledger, () => '2100').map((l) => [l.transactionId, l.direction])).toEqual([
      ['ledger:A2', 'income'],
      ['ledger:R1', 'income'],
    ]);
  });
});
