import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { CommunityData, DeveloperData } from '../../domain/market/derived-scores.js';
import { AssetEntity, type MarketSource, type ScoreInputsSource } from './entities/asset.entity.js';
import { MarketSnapshotEntity } from './entities/market-snapshot.entity.js';

/** Rows per history INSERT: one statement with five array parameters (unnest) per chunk. */
const HISTORY_CHUNK_ROWS = 5_000;

export interface StoredAssetState {
  assetId: number;
  coingeckoId: string;
  /**
   * Last stored day before `today`, or null when none. (Today's row comes from the quote of every
   * refresh, so it says nothing about whether the days before it were backfilled.)
   */
  lastHistoryDate: string | null;
  hasToday: boolean;
  scoreInputsSource: ScoreInputsSource;
  scoreInputsAsOf: Date | null;
  developerData: DeveloperData | null;
  communityData: CommunityData | null;
  hasSnapshot: boolean;
}

export interface AssetWrite {
  id: number;
  coingeckoId: string;
  symbol: string;
  name: string;
  circulatingSupply: string | null;
  totalSupply: string | null;
  maxSupply: string | null;
  source: MarketSource;
}

export interface ScoreInputsWrite {
  assetId: number;
  developerData: DeveloperData | null;
  communityData: CommunityData | null;
  source: ScoreInputsSource;
  asOf: Date;
}

export interface SnapshotWrite {
  assetId: number;
  priceUsd: string;
  marketCapUsd: string | null;
  volume24hUsd: string | null;
  marketCapRank: number | null;
  providerUpdatedAt: Date;
  asOf: Date;
  source: MarketSource;
}

export interface HistoryRow {
  assetId: number;
  date: string;
  priceUsd: string;
  marketCapUsd: string | null;
  volumeUsd: string | null;
}

export interface RefreshWrite {
  assets: AssetWrite[];
  scoreInputs: ScoreInputsWrite[];
  snapshots: SnapshotWrite[];
  history: HistoryRow[];
}

/** An asset with its latest snapshot: everything a market-data record needs but the history. */
export interface StoredMarketRow {
  assetId: number;
  coingeckoId: string;
  symbol: string;
  name: string;
  circulatingSupply: string | null;
  totalSupply: string | null;
  maxSupply: string | null;
  developerData: DeveloperData | null;
  communityData: CommunityData | null;
  scoreInputsSource: ScoreInputsSource;
  priceUsd: string;
  marketCapUsd: string | null;
  volume24hUsd: string | null;
  marketCapRank: number | null;
  providerUpdatedAt: Date;
  asOf: Date;
  source: MarketSource;
}

export interface JobState {
  name: string;
  owner: string | null;
  leaseUntil: Date | null;
  lastStartedAt: Date | null;
  lastSucceededAt: Date | null;
  lastFailedAt: Date | null;
  lastError: string | null;
}

const STORED_MARKET_COLUMNS = `
  a.id AS "assetId", a.coingecko_id AS "coingeckoId", a.symbol, a.name,
  a.circulating_supply AS "circulatingSupply", a.total_supply AS "totalSupply", a.max_supply AS "maxSupply",
  a.developer_data AS "developerData", a.community_data AS "communityData",
  a.score_inputs_source AS "scoreInputsSource",
  s.price_usd AS "priceUsd", s.market_cap_usd AS "marketCapUsd", s.volume24h_usd AS "volume24hUsd",
  s.market_cap_rank AS "marketCapRank", s.provider_updated_at AS "providerUpdatedAt", s.as_of AS "asOf",
  s.source`;

/**
 * The market store: assets, latest snapshots, daily history and the refresh job's lease. The only
 * class that touches these tables. Market data is global (not tenant data), so no tenant id here.
 * Symbols are stored and matched upper-case; when two stored assets share a ticker, the
 * better-ranked wins.
 */
@Injectable()
export class MarketRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  // ---- refresh job lease -------------------------------------------------------------------

  /**
   * Claims the job in one statement: succeeds when no live lease exists and (unless
   * `minIntervalSeconds` is 0) the last success is older than that. Uses the database clock, so
   * instances with skewed clocks agree.
   */
  async claimJob(
    name: string,
    owner: string,
    leaseSeconds: number,
    minIntervalSeconds: number,
  ): Promise<boolean> {
    await this.dataSource.query(
      `INSERT INTO market_refresh_job (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`,
      [name],
    );
    const rows: unknown[] = await this.dataSource.query(
      `WITH claimed AS (
         UPDATE market_refresh_job
            SET owner = $2, lease_until = now() + make_interval(secs => $3::int), last_started_at = now()
          WHERE name = $1
            AND (lease_until IS NULL OR lease_until < now())
            AND ($4::int = 0 OR last_succeeded_at IS NULL
                 OR last_succeeded_at < now() - make_interval(secs => $4::int))
         RETURNING name)
       SELECT name FROM claimed`,
      [name, owner, leaseSeconds, minIntervalSeconds],
    );
    return rows.length === 1;
  }

  /** Releases the lease and records the outcome; `failed` keeps the last success time as it was. */
  async finishJob(
    name: string,
    owner: string,
    outcome: { failed: boolean; error: string | null },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE market_refresh_job
          SET owner = NULL, lease_until = NULL, last_error = $3,
              last_succeeded_at = CASE WHEN $4::boolean THEN last_succeeded_at ELSE now() END,
              last_failed_at = CASE WHEN $4::boolean THEN now() ELSE last_failed_at END
        WHERE name = $1 AND owner = $2`,
      [name, owner, outcome.error, outcome.failed],
    );
  }

  async jobState(name: string): Promise<JobState | null> {
    const rows: JobState[] = await this.dataSource.query(
      `SELECT name, owner, lease_until AS "leaseUntil", last_started_at AS "lastStartedAt",
              last_succeeded_at AS "lastSucceededAt", last_failed_at AS "lastFailedAt", last_error AS "lastError"
         FROM market_refresh_job WHERE name = $1`,
      [name],
    );
    return rows[0] ?? null;
  }

  // ---- refresh writes ----------------------------------------------------------------------

  async storedAssetStates(today: string): Promise<Map<number, StoredAssetState>> {
    const rows: StoredAssetState[] = await this.dataSource.query(
      `SELECT a.id AS "assetId", a.coingecko_id AS "coingeckoId",
              (SELECT max(h.date) FROM price_history h WHERE h.asset_id = a.id AND h.date < $1)
                AS "lastHistoryDate",
              EXISTS (SELECT 1 FROM price_history h WHERE h.asset_id = a.id AND h.date = $1) AS "hasToday",
              a.score_inputs_source AS "scoreInputsSource", a.score_inputs_as_of AS "scoreInputsAsOf",
              a.developer_data AS "developerData", a.community_data AS "communityData",
              EXISTS (SELECT 1 FROM market_snapshot s WHERE s.asset_id = a.id) AS "hasSnapshot"
         FROM asset a`,
      [today],
    );
    return new Map(rows.map((row) => [row.assetId, row]));
  }

  /** Writes one refresh in a single short transaction: readers see all of it or none. */
  async writeRefresh(write: RefreshWrite): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      if (write.assets.length > 0) {
        await manager
          .createQueryBuilder()
          .insert()
          .into(AssetEntity)
          .values(write.assets)
          .orUpdate(
            [
              'coingecko_id',
              'symbol',
              'name',
              'circulating_supply',
              'total_supply',
              'max_supply',
              'source',
              'updated_at',
            ],
            ['id'],
          )
          .execute();
      }
      for (const inputs of write.scoreInputs) {
        await manager.update(
          AssetEntity,
          { id: inputs.assetId },
          {
            developerData: inputs.developerData,
            communityData: inputs.communityData,
            scoreInputsSource: inputs.source,
            scoreInputsAsOf: inputs.asOf,
          },
        );
      }
      if (write.snapshots.length > 0) {
        await manager
          .createQueryBuilder()
          .insert()
          .into(MarketSnapshotEntity)
          .values(write.snapshots)
          .orUpdate(
            [
              'price_usd',
              'market_cap_usd',
              'volume24h_usd',
              'market_cap_rank',
              'provider_updated_at',
              'as_of',
              'source',
            ],
            ['asset_id'],
          )
          .execute();
      }
      await this.insertHistory(manager, write.history);
    });
  }

  private async insertHistory(manager: EntityManager, rows: readonly HistoryRow[]): Promise<void> {
    for (let start = 0; start < rows.length; start += HISTORY_CHUNK_ROWS) {
      const chunk = rows.slice(start, start + HISTORY_CHUNK_ROWS);
      await manager.query(
        `INSERT INTO price_history (asset_id, date, price_usd, market_cap_usd, volume_usd)
         SELECT * FROM unnest($1::int[], $2::date[], $3::numeric[], $4::numeric[], $5::numeric[])
         ON CONFLICT (asset_id, date) DO UPDATE
           SET price_usd = EXCLUDED.price_usd, market_cap_usd = EXCLUDED.market_cap_usd,
               volume_usd = EXCLUDED.volume_usd`,
        [
          chunk.map((row) => row.assetId),
          chunk.map((row) => row.date),
          chunk.map((row) => row.priceUsd),
          chunk.map((row) => row.marketCapUsd),
          chunk.map((row) => row.volumeUsd),
        ],
      );
    }
  }

  // ---- reads -------------------------------------------------------------------------------

  async hasAnySnapshot(): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM market_snapshot LIMIT 1`);
    return rows.length > 0;
  }

  /** Time of the newest snapshot (ISO text), or null: changes with every refresh of any instance. */
  async latestSnapshotTime(): Promise<string | null> {
    const [row]: { latest: Date | null }[] = await this.dataSource.query(
      `SELECT max(as_of) AS latest FROM market_snapshot`,
    );
    return row?.latest ? new Date(row.latest).toISOString() : null;
  }

  /** Assets with a snapshot, by CoinGecko id; ids not stored are absent. */
  async findByCoingeckoIds(coingeckoIds: readonly string[]): Promise<StoredMarketRow[]> {
    if (coingeckoIds.length === 0) return [];
    return this.dataSource.query(
      `SELECT ${STORED_MARKET_COLUMNS}
         FROM asset a JOIN market_snapshot s ON s.asset_id = a.id
        WHERE a.coingecko_id = ANY($1::text[])`,
      [coingeckoIds],
    );
  }

  /**
   * Assets with a snapshot, keyed by upper-case symbol (all of them when `symbols` is undefined).
   * A ticker shared by several assets resolves to the best-ranked one.
   */
  async findBySymbols(symbols?: readonly string[]): Promise<Map<string, StoredMarketRow>> {
    const rows: StoredMarketRow[] = await this.dataSource.query(
      `SELECT DISTINCT ON (a.symbol) ${STORED_MARKET_COLUMNS}
         FROM asset a JOIN market_snapshot s ON s.asset_id = a.id
        WHERE $1::text[] IS NULL OR a.symbol = ANY($1::text[])
        ORDER BY a.symbol, s.market_cap_rank ASC NULLS LAST, a.id`,
      [symbols ? symbols.map((symbol) => symbol.toUpperCase()) : null],
    );
    return new Map(rows.map((row) => [row.symbol, row]));
  }

  /** The symbols of the assets with a snapshot (findBySymbols' keys, without its columns), unordered. */
  async snapshotSymbols(): Promise<string[]> {
    const rows: { symbol: string }[] = await this.dataSource.query(
      `SELECT DISTINCT a.symbol FROM asset a JOIN market_snapshot s ON s.asset_id = a.id`,
    );
    return rows.map((row) => row.symbol);
  }

  /**
   * One symbol's daily prices between two UTC dates inclusive (the asset findBySymbols would pick
   * for it), as two comma-separated texts in ascending date order: each day's whole days after
   * `fromDate`, and its price as the numeric's own text; null texts when there are none. Two fields
   * for ten years instead of five per day as history() gives: the embedded driver copies and
   * decodes every field on its own: ten assets' ten years as rows took about as long as the
   * simulation of them.
   */
  async dailyPriceSeriesText(
    symbol: string,
    fromDate: string,
    toDate: string,
  ): Promise<{ days: string | null; prices: string | null }> {
    const [row]: { days: string | null; prices: string | null }[] = await this.dataSource.query(
      `SELECT string_agg((h.date - $2::date)::text, ',' ORDER BY h.date) AS days,
              string_agg(h.price_usd::text, ',' ORDER BY h.date) AS prices
         FROM price_history h
        WHERE h.asset_id = (SELECT a.id FROM asset a JOIN market_snapshot s ON s.asset_id = a.id
                             WHERE a.symbol = $1
                             ORDER BY s.market_cap_rank ASC NULLS LAST, a.id LIMIT 1)
          AND h.date BETWEEN $2 AND $3`,
      [symbol.toUpperCase(), fromDate, toDate],
    );
    return row ?? { days: null, prices: null };
  }

  /** Daily rows of the given assets between two UTC dates inclusive, ascending by date. */
  async history(assetIds: readonly number[], fromDate: string, toDate: string): Promise<HistoryRow[]> {
    if (assetIds.length === 0) return [];
    return this.dataSource.query(
      `SELECT asset_id AS "assetId", date, price_usd AS "priceUsd", market_cap_usd AS "marketCapUsd",
              volume_usd AS "volumeUsd"
         FROM price_history
        WHERE asset_id = ANY($1::int[]) AND date BETWEEN $2 AND $3
        ORDER BY asset_id, date`,
      [assetIds, fromDate, toDate],
    );
  }

  /** Per asset, the last daily row on or before `date`. */
  async lastRowOnOrBefore(assetIds: readonly number[], date: string): Promise<Map<number, HistoryRow>> {
    if (assetIds.length === 0) return new Map();
    const rows: HistoryRow[] = await this.dataSource.query(
      `SELECT h.asset_id AS "assetId", h.date, h.price_usd AS "priceUsd",
              h.market_cap_usd AS "marketCapUsd", h.volume_usd AS "volumeUsd"
         FROM unnest($1::int[]) AS wanted(asset_id)
         CROSS JOIN LATERAL (
           SELECT * FROM price_history p
            WHERE p.asset_id = wanted.asset_id AND p.date <= $2
            ORDER BY p.date DESC LIMIT 1) h`,
      [assetIds, date],
    );
    return new Map(rows.map((row) => [row.assetId, row]));
  }
}
