import { SANDBOX_ASSETS, sandboxAssetByCoingeckoId, sandboxAssetBySymbol } from './sandbox-assets.js';

describe('SANDBOX_ASSETS', () => {
  it('lists about 30 assets with stable ids 1..N and unique ids, symbols and CoinGecko ids', () => {
    expect(SANDBOX_ASSETS.length).toBeGreaterThanOrEqual(30);
    expect(SANDBOX_ASSETS.map((a) => a.id)).toEqual(SANDBOX_ASSETS.map((_, i) => i + 1));
    expect(new Set(SANDBOX_ASSETS.map((a) => a.symbol)).size).toBe(SANDBOX_ASSETS.length);
    expect(new Set(SANDBOX_ASSETS.map((a) => a.coingeckoId)).size).toBe(SANDBOX_ASSETS.length);
  });

  it.each(SANDBOX_ASSETS.map((a) => [a.symbol, a] as const))(
    '%s is marked sandbox and consistent',
    (_, asset) => {
      expect(asset.source).toBe('sandbox');
      expect(asset.symbol).toMatch(/^[A-Z0-9]+$/);
      expect(asset.coingeckoId).toMatch(/^[a-z0-9-]+$/);
      const { circulating, circulatingAt2020, total, max } = asset.supply;
      expect(circulating).toBeGreaterThan(0);
      expect(circulatingAt2020).toBeGreaterThan(0);
      expect(total).toBeGreaterThanOrEqual(circulating);
      if (max !== null) {
        expect(max).toBeGreaterThan(0);
        expect(max).toBeGreaterThanOrEqual(total);
      }
      const m = asset.model;
      expect(m.startPriceUsd).toBeGreaterThan(0);
      expect(m.anchorPriceUsd).toBeGreaterThan(0);
      expect(m.marketFactorLoading).toBeGreaterThanOrEqual(0);
      expect(m.marketFactorLoading).toBeLessThanOrEqual(1);
      expect(m.volumeToMarketCap).toBeGreaterThan(0);
    },
  );

  it('has ETH uncapped (null, never 0) and the stablecoins pinned at 1', () => {
    expect(sandboxAssetByCoingeckoId('ethereum')?.supply.max).toBeNull();
    expect(sandboxAssetBySymbol('BTC')?.supply.max).toBe(21_000_000);
    for (const symbol of ['USDT', 'USDC']) {
      const model = sandboxAssetBySymbol(symbol)?.model;
      expect(model).toMatchObject({ stablecoin: true, startPriceUsd: 1, anchorPriceUsd: 1 });
    }
  });

  it('finds assets by CoinGecko id and by symbol in any case', () => {
    expect(sandboxAssetByCoingeckoId('avalanche-2')?.symbol).toBe('AVAX');
    expect(sandboxAssetBySymbol('sol')?.coingeckoId).toBe('solana');
    expect(sandboxAssetByCoingeckoId('not-a-coin')).toBeUndefined();
  });
});
