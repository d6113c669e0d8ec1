/**
 * The `sandbox` source: serves the synthetic household histories of sandbox-history.ts with the
 * behaviour named by the account's profile (slow initial sync, expired authorization, outage).
 * Deterministic: the same account and `now` always give the same answer.
 */
import { Injectable } from '@nestjs/common';
import { DomainError } from '../../../common/errors/domain-error.js';
import { toExact } from '../../../domain/money/exact-decimal.js';
import { canonicalDecimal } from '../../../domain/money/format.js';
import {
  generateSandboxHistories,
  type GeneratedHistory,
  type SandboxAccountScript,
} from './sandbox-history.js';
import { SANDBOX_SCRIPTS, type SandboxProfile, type SandboxSourceOptions } from './sandbox-fixtures.js';
import { SANDBOX_PROFILES, SANDBOX_SOURCE } from './sandbox.source.js';
import {
  SourceAuthorizationError,
  SourceUnavailableError,
  singlePage,
  type ConnectorRequest,
  type ConnectorResult,
  type NewAccountContext,
  type SourceConnector,
  type SourceDescription,
} from '../connectors/source-connector.js';

const PROFILES = SANDBOX_PROFILES;
/** Default script per platform for accounts linked through the admin API. */
const SCRIPT_BY_PLATFORM: Readonly<Record<string, string>> = {
  coinbase: 'coinbase-main',
  kraken: 'kraken-trading',
  gemini: 'gemini-earn',
  ethereum: 'eth-defi-wallet',
  bitcoin: 'btc-watch-wallet',
};
const MINUTE_MS = 60_000;
/** Households generated recently, by seed and minute (the seeder asks once per account). */
const CACHE_SIZE = 4;

@Injectable()
export class SandboxConnector implements SourceConnector {
  private readonly cache = new Map<string, Map<string, GeneratedHistory>>();

  describe(): SourceDescription {
    return SANDBOX_SOURCE;
  }

  /**
   * An account linked through the admin API gets a household of its own (seeded by its id), the
   * script of its platform, and the profile asked for.
   */
  accountOptions(
    options: Readonly<Record<string, unknown>>,
    account: NewAccountContext,
  ): Record<string, unknown> {
    return {
      ...parseSandboxOptions({ profile: options.sandboxProfile ?? 'normal' }, account.accountId),
      script: SCRIPT_BY_PLATFORM[account.platform] ?? 'coinbase-main',
      ...(options.syncDelayMinutes !== undefined ? { syncDelayMinutes: options.syncDelayMinutes } : {}),
    };
  }

  async fetch(request: ConnectorRequest): Promise<ConnectorResult> {
    const options = parseSandboxOptions(request.account.sourceOptions, request.account.id);
    switch (options.profile) {
      // Failures played on purpose: marked simulated, so they are not logged as warnings.
      case 'reconnect_required':
        throw new SourceAuthorizationError('Sandbox: the authorization of this account has expired.', {
          simulated: true,
        });
      case 'outage_after_first_sync':
        if (request.account.lastSyncedAt !== null)
          throw new SourceUnavailableError('Sandbox: the exchange API is down (simulated outage).', {
            simulated: true,
          });
        break;
      case 'slow_initial_sync': {
        const readyAt = new Date(
          request.account.createdOn.getTime() + (options.syncDelayMinutes ?? 15) * MINUTE_MS,
        );
        if (request.now < readyAt) return { status: 'pending', retryAt: readyAt };
        break;
      }
      case 'normal':
        break;
    }
    const history = this.household(options.seed, request.now).get(options.script);
    if (!history) return { status: 'ready', mode: 'full', pages: singlePage([]), reportedBalances: null };
    const script = SANDBOX_SCRIPTS.find((s) => s.key === options.script);
    return {
      status: 'ready',
      mode: 'full',
      pages: singlePage(history.transactions),
      // Exchanges report balances themselves; wallets' balances are calculated from the history.
      reportedBalances: script?.kind === 'exchange' ? reported(history.trueBalances, script) : null,
    };
  }

  /** The generated history of one script of a household, as of `now` (to the minute). */
  history(seed: string, script: string, now: Date): GeneratedHistory | undefined {
    return this.household(seed, now).get(script);
  }

  private household(seed: string, now: Date): Map<string, GeneratedHistory> {
    // Truncated to the minute: events of the current minute simply arrive with the next refresh.
    const until = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
    const key = `${seed}@${until.getTime()}`;
    let histories = this.cache.get(key);
    if (!histories) {
      histories = generateSandboxHistories(seed, SANDBOX_SCRIPTS, until);
      this.cache.set(key, histories);
      if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    }
    return histories;
  }
}

/** Validates sandbox source options (admin input or seeded fixtures). */
export function parseSandboxOptions(
  options: Readonly<Record<string, unknown>> | null,
  accountId: string,
): SandboxSourceOptions {
  const profile = (options?.profile ?? 'normal') as SandboxProfile;
  if (!PROFILES.includes(profile)) {
    throw DomainError.validation('sandboxProfile', `sandboxProfile must be one of ${PROFILES.join(', ')}`);
  }
  const delay = options?.syncDelayMinutes;
  return {
    profile,
    // Accounts linked through the admin API get a household of their own, seeded by their id.
    seed: typeof options?.seed === 'string' ? options.seed : `sandbox-accounts:account:${accountId}`,
    script: typeof options?.script === 'string' ? options.script : 'coinbase-main',
    ...(typeof delay === 'number' ? { syncDelayMinutes: delay } : {}),
  };
}

export { SANDBOX_PROFILES };

/**
 * What a sandbox exchange reports: the account's true balances, plus the script's synthetic
 * drift where it has one (a deliberate reconciliation mismatch, docs/sources.md).
 */
function reported(
  trueBalances: ReadonlyMap<string, string>,
  script: SandboxAccountScript,
): ReadonlyMap<string, string> {
  const drift = script.reportedBalanceDrift;
  if (!drift) return trueBalances;
  const balances = new Map(trueBalances);
  balances.set(drift.symbol, canonicalDecimal(toExact(balances.get(drift.symbol) ?? '0').plus(drift.amount)));
  return balances;
}
