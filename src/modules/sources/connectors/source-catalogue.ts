/**
 * The sources this service ships, with their descriptions: what the admin API's `source` field
 * lists and which options it takes (the DTO and the OpenAPI document are built from this, at
 * start-up, before any connector is registered). A new source adds its description here.
 */
import { BITCOIN_SOURCE } from '../bitcoin/bitcoin.source.js';
import { CSV_SOURCE } from '../csv/csv.source.js';
import { ETHEREUM_SOURCE } from '../ethereum/ethereum.source.js';
import { EXCHANGE_SOURCE } from '../exchange/exchange.source.js';
import { SANDBOX_SOURCE } from '../sandbox/sandbox.source.js';
import { SOLANA_SOURCE } from '../solana/solana.source.js';
import type { SourceDescription, SourceLinkExample } from './source-connector.js';

export const SOURCE_CATALOGUE: Readonly<Record<string, SourceDescription>> = {
  sandbox: SANDBOX_SOURCE,
  csv: CSV_SOURCE,
  bitcoin: BITCOIN_SOURCE,
  ethereum: ETHEREUM_SOURCE,
  solana: SOLANA_SOURCE,
  exchange: EXCHANGE_SOURCE,
};

/** Every option field of every source, with the source it belongs to, in catalogue order. */
export function sourceOptionFields(): {
  source: string;
  field: string;
  spec: SourceDescription['options'][string];
}[] {
  return Object.entries(SOURCE_CATALOGUE).flatMap(([source, description]) =>
    Object.entries(description.options).map(([field, spec]) => ({ source, field, spec })),
  );
}

/** Every source's link examples, by name, in catalogue order (the admin API's request examples). */
export function sourceLinkExamples(): Record<string, SourceLinkExample> {
  return Object.fromEntries(
    Object.values(SOURCE_CATALOGUE).flatMap((description) => Object.entries(description.examples)),
  );
}

/**
 * The same ways of linking as partner bodies (`POST /v1/api/accounts`' examples): only the sources
 * partners link (their description has `linking`), each body's platform and what the partner
 * sends for it; `source` stays only where the partner names it (a source fed by files), and
 * `chain` goes (the platform is the chain).
 */
export function partnerLinkExamples(): Record<string, SourceLinkExample> {
  return Object.fromEntries(
    Object.values(SOURCE_CATALOGUE)
      .filter((description) => description.linking !== undefined)
      .flatMap((description) =>
        Object.entries(description.examples).map(([name, { summary, body }]) => {
          const { source, chain: _chain, ...rest } = body;
          const named = description.linking!.accepts.includes('file') ? { source } : {};
          return [name, { summary, body: { platform: rest['platform'], ...named, ...rest } }];
        }),
      ),
  );
}
