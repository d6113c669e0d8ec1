import { dailyRows, decimalText } from './coingecko-market.provider.js';

const at = (iso: string) => Date.parse(iso);

describe('CoinGecko market_chart → daily rows', () => {
  it('keeps one row per UTC day, the latest point of the day winning, within the date range', () => {
    const chart = {
      prices: [
        [at('2026-03-30T00:00:00Z'), 100],
        [at('2026-03-31T00:00:00Z'), 101],
        [at('2026-04-01T00:00:00Z'), 102],
        [at('2026-04-01T12:34:56Z'), 103.5],
      ],
      market_caps: [
        [at('2026-03-30T00:00:00Z'), 1_000],
        [at('2026-03-31T00:00:00Z'), 1_010],
        [at('2026-04-01T00:00:00Z'), 1_020],
        [at('2026-04-01T12:34:56Z'), 1_035],
      ],
      total_volumes: [
        [at('2026-03-31T00:00:00Z'), 55],
        [at('2026-04-01T12:34:56Z'), 66],
      ],
    };
    expect(dailyRows(chart, '2026-03-31', '2026-04-01')).toEqual([
      { date: '2026-03-31', priceUsd: '101', marketCapUsd: '1010', volumeUsd: '55' },
      { date: '2026-04-01', priceUsd: '103.5', marketCapUsd: '1035', volumeUsd: '66' },
    ]);
  });

  it('skips non-positive prices and leaves market cap and volume null when their point is missing', () => {
    const chart = {
      prices: [
        [at('2026-03-30T00:00:00Z'), 0],
        [at('2026-03-31T00:00:00Z'), 2.5],
      ],
      market_caps: [],
      total_volumes: [],
    };
    expect(dailyRows(chart, '2020-01-01', '2030-01-01')).toEqual([
      { date: '2026-03-31', priceUsd: '2.5', marketCapUsd: null, volumeUsd: null },
    ]);
  });
});

describe('decimalText', () => {
  it.each<[number | null | undefined, string | null]>([
    [84250.5, '84250.5'],
    [1e-7, '0.0000001'],
    [1.5e21, '1500000000000000000000'],
    [0, '0'],
    [null, null],
    [undefined, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
  ])('%p → %p (plain decimal text, never an exponent)', (value, expected) => {
    expect(decimalText(value)).toBe(expected);
  });
});
