import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Clock } from '../../common/clock/clock.js';
import { SANDBOX_HISTORY_START } from '../../domain/market/sandbox-assets.js';
import type { ScoreInputsSource } from './entities/asset.entity.js';
import { catalogAsset, MARKET_CATALOG, type CatalogAsset } from './market-catalog.js';
import { addDays, utcDate } from './market-dates.js';
import {
  MarketRepository,
  type AssetWrite,
  type HistoryRow,
  type ScoreInputsWrite,
  type SnapshotWrite,
  type StoredAssetState,
} from './market.repository.js';
import {
  MARKET_DATA_PROVIDER,
  type MarketDataProvider,
  type ProviderQuote,
  type ProviderScoreInputs,
} from './providers/market-data-provider.js';

export const MARKET_REFRESH_JOB = 'market-refresh';
/** Minimum time between two successful refreshes, across all instances. */
export const REFRESH_INTERVAL_SECONDS = 5 * 60;
/** While history is still being backfilled (budget-limited), refresh every minute instead. */
export const BACKFILL_INTERVAL_SECONDS = 60;
/** A lease outlives the slowest refresh (provider retries included); a crashed owner frees it. */
export const REFRESH_LEASE_SECONDS = 10 * 60;
/** Developer/community counts change slowly: fetch them once a day. */
export const SCORE_INPUTS_MAX_AGE_MS = 24 * 3_600_000;
/** History starts on the sandbox's first day for every provider. */
export const HISTORY_START = SANDBOX_HISTORY_START;

export type RefreshStatus = 'refreshed' | 'partial' | 'skipped' | 'failed';

export interface RefreshOutcome {
  status: RefreshStatus;
  /** Assets whose snapshot was written. */
  quotedAssets: number;
  historyRows: number;
  /** Per-asset or whole-run failures (provider status and message only). */
  errors: string[];
}

/**
 * Refreshes the market store from the configured provider. Claims the job lease in one short
 * statement, does all provider I/O outside any transaction, then writes the whole result in one
 * short transaction. A failure keeps the stored data: requests go on serving the last good copy.
 */
@Injectable()
export class MarketRefreshService {
  private readonly logger = new Logger(MarketRefreshService.name);
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly repository: MarketRepository,
    @Inject(MARKET_DATA_PROVIDER) private readonly provider: MarketDataProvider,
    private readonly clock: Clock,
  ) {}

  get providerSource(): MarketDataProvider['source'] {
    return this.provider.source;
  }

  /** The scheduled path: runs only when no instance refreshed within the interval. */
  async refreshIfDue(): Promise<RefreshOutcome> {
    const states = await this.repository.storedAssetStates(utcDate(this.clock.now()));
    // Until every stored asset has some history before today, a budget-limited provider is still
    // backfilling: run every minute instead of every five.
    const backfilling =
      states.size === 0 || [...states.values()].some((state) => state.lastHistoryDate === null);
    return this.run(backfilling ? BACKFILL_INTERVAL_SECONDS : REFRESH_INTERVAL_SECONDS);
  }

  /** Refreshes now (still under the lease, so never concurrently with another instance). */
  refreshNow(): Promise<RefreshOutcome> {
    return this.run(0);
  }

  /**
   * The refresh holding the lease now (any instance: the scheduler's or an admin's), or null. What
   * an admin is told when a refresh they asked for could not start.
   */
  async currentRun(): Promise<{ startedAt: Date | null; leaseUntil: Date } | null> {
    const job = await this.repository.jobState(MARKET_REFRESH_JOB);
    // The lease is compared with the database clock when claimed; here it is only reported.
    if (!job?.leaseUntil) return null;
    return {
      startedAt: job.lastStartedAt ? new Date(job.lastStartedAt) : null,
      leaseUntil: new Date(job.leaseUntil),
    };
  }

  /**
   * True when every tracked asset has a snapshot and a complete history through today (yesterday
   * stored, today's row written): the sandbox seed then has nothing to do.
   */
  async isCurrent(): Promise<boolean> {
    const today = utcDate(this.clock.now());
    const yesterday = addDays(today, -1);
    const states = await this.repository.storedAssetStates(today);
    return MARKET_CATALOG.every((asset) => {
      const state = states.get(asset.id);
      return (
        !!state?.hasSnapshot &&
        state.hasToday &&
        (state.lastHistoryDate === yesterday || today === HISTORY_START)
      );
    });
  }

  private async run(minIntervalSeconds: number): Promise<RefreshOutcome> {
    const claimed = await this.repository.claimJob(
      MARKET_REFRESH_JOB,
      this.owner,
      REFRESH_LEASE_SECONDS,
      minIntervalSeconds,
    );
    if (!claimed) return { status: 'skipped', quotedAssets: 0, historyRows: 0, errors: [] };
    let outcome: RefreshOutcome;
    try {
      outcome = await this.refreshClaimed();
    } catch (error) {
      outcome = { status: 'failed', quotedAssets: 0, historyRows: 0, errors: [describe(error)] };
    }
    await this.repository.finishJob(MARKET_REFRESH_JOB, this.owner, {
      failed: outcome.status === 'failed',
      error: outcome.errors.length > 0 ? outcome.errors.join('; ').slice(0, 2000) : null,
    });
    if (outcome.status === 'failed') {
      this.logger.warn(`Market refresh failed; stored data is kept: ${outcome.errors.join('; ')}`);
    } else if (outcome.status === 'partial') {
      this.logger.warn(`Market refresh partly failed: ${outcome.errors.join('; ')}`);
    }
    return outcome;
  }

  private async refreshClaimed(): Promise<RefreshOutcome> {
    const now = this.clock.now();
    const today = utcDate(now);
    const states = await this.repository.storedAssetStates(today);
    const errors: string[] = [];

    // ---- provider I/O, outside any transaction ----
    const quotes = new Map(
      (
        await this.provider.quotes(
          MARKET_CATALOG.map((asset) => asset.coingeckoId),
          now,
        )
      ).map((quote) => [quote.coingeckoId, quote]),
    );
    const tracked = MARKET_CATALOG.filter((asset) => quotes.has(asset.coingeckoId) || states.has(asset.id));
    let budget = this.provider.perAssetCallBudget;

    const history: HistoryRow[] = [];
    // Most out-of-date first, so a budget-limited run backfills the worst gaps.
    const byStaleness = [...tracked].sort((a, b) =>
      (states.get(a.id)?.lastHistoryDate ?? '').localeCompare(states.get(b.id)?.lastHistoryDate ?? ''),
    );
    for (const asset of byStaleness) {
      // Days after the last stored day before today, through yesterday; today's row comes from
      // the quote below.
      const last = states.get(asset.id)?.lastHistoryDate ?? null;
      const from = last ? addDays(last, 1) : HISTORY_START;
      const to = addDays(today, -1);
      if (from > to || budget <= 0) continue;
      if (!quotes.has(asset.coingeckoId) && !last) continue;
      budget--;
      try {
        const rows = await this.provider.dailyHistory(asset.coingeckoId, from, to);
        for (const row of rows) history.push({ assetId: asset.id, ...row });
      } catch (error) {
        errors.push(`history of ${asset.coingeckoId}: ${describe(error)}`);
      }
    }

    const scoreInputs: ScoreInputsWrite[] = [];
    for (const asset of tracked) {
      const state = states.get(asset.id);
      const fresh =
        state?.scoreInputsAsOf &&
        now.getTime() - new Date(state.scoreInputsAsOf).getTime() < SCORE_INPUTS_MAX_AGE_MS;
      if (fresh || budget <= 0 || !quotes.has(asset.coingeckoId)) continue;
      budget--;
      let fetched: ProviderScoreInputs | null = null;
      try {
        fetched = await this.provider.scoreInputs(asset.coingeckoId);
      } catch (error) {
        errors.push(`score inputs of ${asset.coingeckoId}: ${describe(error)}`);
        if (state?.scoreInputsAsOf) continue; // keep what is stored; retry next run
      }
      scoreInputs.push(this.scoreInputsToStore(asset, fetched, state, now));
    }

    // ---- one short write ----
    const assets: AssetWrite[] = [];
    const snapshots: SnapshotWrite[] = [];
    for (const asset of tracked) {
      const quote = quotes.get(asset.coingeckoId);
      if (!quote) continue;
      assets.push(this.assetWrite(asset, quote));
      snapshots.push({
        assetId: asset.id,
        priceUsd: quote.priceUsd,
        marketCapUsd: quote.marketCapUsd,
        volume24hUsd: quote.volume24hUsd,
        marketCapRank: quote.marketCapRank,
        providerUpdatedAt: quote.updatedAt,
        asOf: now,
        source: this.provider.source,
      });
      history.push({
        assetId: asset.id,
        date: today,
        priceUsd: quote.priceUsd,
        marketCapUsd: quote.marketCapUsd,
        volumeUsd: quote.volume24hUsd,
      });
    }
    // The quote's row for today wins over a provider history row for the same day.
    const deduplicated = [...new Map(history.map((row) => [`${row.assetId}|${row.date}`, row])).values()];
    await this.repository.writeRefresh({ assets, scoreInputs, snapshots, history: deduplicated });
    if (snapshots.length === 0) errors.push('the provider returned no quote for any tracked asset');
    return {
      status: snapshots.length === 0 ? 'failed' : errors.length > 0 ? 'partial' : 'refreshed',
      quotedAssets: snapshots.length,
      historyRows: deduplicated.length,
      errors,
    };
  }

  private assetWrite(asset: CatalogAsset, quote: ProviderQuote): AssetWrite {
    return {
      id: asset.id,
      coingeckoId: asset.coingeckoId,
      symbol: quote.symbol.toUpperCase(),
      name: quote.name,
      circulatingSupply: quote.circulatingSupply,
      totalSupply: quote.totalSupply,
      maxSupply: quote.maxSupply,
      source: this.provider.source,
    };
  }

  /**
   * What to store as developer/community inputs. The provider's own counts when it has any; when
   * it publishes none (CoinGecko dropped them), counts it published earlier, else the catalog's
   * reference counts, labelled "catalog" so records never pass them off as provider data.
   */
  private scoreInputsToStore(
    asset: CatalogAsset,
    fetched: ProviderScoreInputs | null,
    stored: StoredAssetState | undefined,
    now: Date,
  ): ScoreInputsWrite {
    if (fetched && (fetched.developer || fetched.community)) {
      return {
        assetId: asset.id,
        developerData: fetched.developer,
        communityData: fetched.community,
        source: this.provider.source,
        asOf: now,
      };
    }
    if (stored && stored.scoreInputsSource === this.provider.source) {
      return {
        assetId: asset.id,
        developerData: stored.developerData,
        communityData: stored.communityData,
        source: stored.scoreInputsSource,
        asOf: now,
      };
    }
    const reference = catalogAsset(asset.coingeckoId);
    const source: ScoreInputsSource = reference ? 'catalog' : 'none';
    return {
      assetId: asset.id,
      developerData: reference?.developer ?? null,
      communityData: reference?.community ?? null,
      source,
      asOf: now,
    };
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message.slice(0, 300);
  return String(error).slice(0, 300);
}
