import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error.js';
import type { EncodedLedger } from '../../domain/cost-basis/index.js';
import { AccountsService, type AccountRecord } from '../accounts/index.js';
import {
  DEFAULT_COST_BASIS_METHOD,
  electionInForce,
  type CostBasisMethod,
  type MethodElection,
} from '../../domain/cost-basis/index.js';
import { selectionsData, type MethodData } from '../compute/index.js';
import { LedgerService } from '../ledger/index.js';

export interface AccountSelector {
  readonly accountId?: string;
  readonly identity?: string;
}

export interface SelectedLedger {
  /** The accounts the report is about (one, or every account of the tenant). */
  readonly accounts: readonly AccountRecord[];
  /** One account asked for by account_id or identity; null: the whole tenant. */
  readonly account: AccountRecord | null;
  /**
   * The engine's input, encoded for the compute pool: for one account, its entries and those of
   * every account linked to it by own-account transfers (so its lots are exactly those of a
   * tenant-wide computation); for the tenant, all entries.
   */
  readonly ledger: EncodedLedger;
  /** The distinct symbols of those entries. */
  readonly symbols: readonly string[];
}

/**
 * Design §7 account selection: `account_id` or `identity`, default every account of the tenant.
 * Another tenant's account answers 404 exactly like one that does not exist.
 */
export type MethodSource = 'query' | 'elected' | 'default';

export interface ReportMethod {
  /** With elections: the one in force for the scope at the date asked. */
  readonly method: CostBasisMethod;
  readonly source: MethodSource;
  /**
   * The engine's options as plain data for the compute pool: the method, the elections when each
   * disposal takes its elected method (methodFor is rebuilt from them in the worker), the tenant's
   * lot selections (they apply under every method: a `method` query changes only the other
   * disposals) and the confirmed safe-harbor allocation (like selections, a fact of identification).
   */
  readonly data: MethodData;
}

/** Only what methodForElections reads (not who recorded it). */
const electionData = (e: MethodElection): MethodElection => ({
  accountId: e.accountId,
  method: e.method,
  effectiveFrom: e.effectiveFrom,
  recordedAt: e.recordedAt,
});

@Injectable()
export class TaxAccountSelection {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
  ) {}

  /**
   * The lot selection of a report (docs/tax-report.md, "The method in a report"): a `method` asked
   * for is a what-if over the whole history (`query`); otherwise each disposal uses the method
   * elected for its account on its date (`elected`), FIFO when the tenant has no election
   * (`default`). `method` names the one in force for the scope (the account, else the tenant) at `at`.
   */
  async methodOf(
    tenantId: string,
    requested: CostBasisMethod | undefined,
    account: { readonly id: string } | null,
    at: Date,
  ): Promise<ReportMethod> {
    const selections = selectionsData(await this.ledger.lotSelectionsByDisposal(tenantId));
    const transition = await this.ledger.safeHarborTransition(tenantId);
    const data = (method: CostBasisMethod, elections?: readonly MethodElection[]): MethodData => ({
      method,
      elections,
      selections,
      transition,
    });
    if (requested !== undefined) return { method: requested, source: 'query', data: data(requested) };
    const elections = await this.ledger.costBasisElections(tenantId);
    if (elections.length === 0) {
      return {
        method: DEFAULT_COST_BASIS_METHOD,
        source: 'default',
        data: data(DEFAULT_COST_BASIS_METHOD),
      };
    }
    const date = at.toISOString().slice(0, 10);
    const inForce =
      (account ? electionInForce(elections, account.id, date) : null) ??
      electionInForce(elections, null, date);
    return {
      method: inForce?.method ?? DEFAULT_COST_BASIS_METHOD,
      source: 'elected',
      data: data(inForce?.method ?? DEFAULT_COST_BASIS_METHOD, elections.map(electionData)),
    };
  }

  async select(tenantId: string, selector: AccountSelector): Promise<SelectedLedger> {
    if (selector.accountId !== undefined && selector.identity !== undefined) {
      throw DomainError.validation('identity', 'Give account_id or identity, not both.');
    }
    const account =
      selector.accountId !== undefined
        ? await this.accounts.findById(tenantId, selector.accountId)
        : selector.identity !== undefined
          ? await this.accounts.byIdentity(tenantId, selector.identity)
          : null;
    if (selector.accountId !== undefined && !account) throw DomainError.notFound('Account');
    if (account) {
      const { ledger, symbols } = await this.ledger.encodedLedgerForAccount(tenantId, account);
      return { accounts: [account], account, ledger, symbols };
    }
    return {
      accounts: await this.accounts.listAllForTenant(tenantId),
      account: null,
      ...(await this.ledger.encodedLedgerForTenant(tenantId)),
    };
  }
}
