/**
 * The stored daily prices the export-file tests work their figures with by hand
 * (src/modules/sources/exports/export-files.spec.ts, and the parse pool's spec beside it).
 */
export const EXPORT_FIXTURE_PRICES: Readonly<Record<string, string>> = {
  'DOT 2024-03-01': '7.25',
  'BTC 2024-03-10': '68000',
  'BTC 2024-04-01': '70000',
  'ETH 2024-04-01': '3500',
  'ETH 2024-02-01': '2300',
};

/**
 * A price book (the exports' PriceBook, by shape) over `prices` ("SYMBOL YYYY-MM-DD" → USD),
 * null where it has none.
 */
export function priceBook(prices: Readonly<Record<string, string>> = EXPORT_FIXTURE_PRICES): {
  usdOn(symbol: string, date: string): string | null;
} {
  return { usdOn: (symbol, date) => prices[`${symbol} ${date}`] ?? null };
}
