/**
 * The assets the service tracks, whichever provider serves them: the ~30 well-known assets of the
 * sandbox catalog, with their stable integer ids (the market-data record's `id`), CoinGecko ids,
 * tickers and names. The same ids under both providers, so switching MARKET_PROVIDER never
 * renumbers an asset. The catalog's developer/community counts are rounded reference values
 * (not fetched); the coingecko provider falls back to them only when CoinGecko publishes none,
 * and records say so (`scoreInputsSource: "catalog"`).
 */
import { SANDBOX_ASSETS, type SandboxAsset } from '../../domain/market/sandbox-assets.js';

export type CatalogAsset = Pick<
  SandboxAsset,
  'id' | 'coingeckoId' | 'symbol' | 'name' | 'developer' | 'community'
>;

export const MARKET_CATALOG: readonly CatalogAsset[] = SANDBOX_ASSETS;

const byCoingeckoId = new Map(MARKET_CATALOG.map((asset) => [asset.coingeckoId, asset]));

export function catalogAsset(coingeckoId: string): CatalogAsset | undefined {
  return byCoingeckoId.get(coingeckoId);
}
