/**
 * The universal-to-per-wallet transition (issue 19 item 6; docs/cost-basis.md, "Universal to
 * per-wallet"): the tenant (the taxpayer, docs/decisions.md) proposes the safe-harbor allocation
 * of its universal pool to its accounts as of 2025-01-01, and confirms it once; the confirmed
 * allocation is stored and the balances recomputed from it in the same transaction, through the
 * refresh engine (the ledger's one writer). The figures are made in
 * src/domain/cost-basis/safe-harbor.ts.
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../../common/errors/domain-error.js';
import {
  computeSafeHarborAllocation,
  DEFAULT_COST_BASIS_METHOD,
  methodForElections,
  SAFE_HARBOR_SHORTFALL_ORIGIN,
  type AllocatedLot,
  type CostBasisMethod,
  type OpenLot,
  type SafeHarborAllocation,
  type SafeHarborAsset,
} from '../../../domain/cost-basis/index.js';
import { parseScaled, SCALED_ZERO, sumScaled } from '../../../domain/money/scaled-decimal.js';
import { LedgerService, type StoredSafeHarborAllocation } from '../../ledger/index.js';
import { RefreshService } from '../../sources/index.js';
import { AccountsService } from '../../accounts/index.js';

export interface SafeHarborPositionView {
  readonly accountId: string;
  readonly symbol: string;
  readonly quantity: string;
  readonly allocatedQuantity: string;
  readonly shortfallQuantity: string;
  readonly allocatedCostBasisUsd: string;
  readonly perAccountCostBasisUsd: string;
  readonly basisChangeUsd: string;
  readonly applied: boolean;
  readonly lots: readonly AllocatedLot[];
  readonly perAccountLots: readonly OpenLot[];
}

export interface SafeHarborView {
  readonly status: 'proposed' | 'confirmed';
  readonly transitionAt: Date;
  readonly universalMethod: CostBasisMethod;
  readonly firstDisposalAt: Date | null;
  readonly confirmedAt: Date | null;
  readonly confirmedBy: string | null;
  readonly accountId: string | null;
  readonly positions: readonly SafeHarborPositionView[];
  readonly assets: readonly SafeHarborAsset[];
}

const sum = (values: readonly string[]) => sumScaled(values.map((v) => parseScaled(v) ?? SCALED_ZERO));

@Injectable()
export class SafeHarborService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
    private readonly refresher: RefreshService,
    private readonly clock: Clock,
  ) {}

  /** The confirmed allocation if there is one, else the one proposed under `universalMethod`. */
  async view(
    tenantId: string,
    universalMethod: CostBasisMethod | undefined,
    accountId: string | null,
  ): Promise<SafeHarborView> {
    if (accountId !== null && !(await this.accounts.findById(tenantId, accountId))) {
      throw DomainError.notFound('Account');
    }
    const confirmed = await this.ledger.safeHarborAllocation(tenantId);
    const view = confirmed
      ? this.confirmedView(confirmed, await this.propose(tenantId, confirmed.universalMethod))
      : this.proposedView(await this.propose(tenantId, universalMethod ?? DEFAULT_COST_BASIS_METHOD));
    return {
      ...view,
      accountId,
      positions:
        accountId === null ? view.positions : view.positions.filter((p) => p.accountId === accountId),
    };
  }

  /** Stores the allocation proposed now and recomputes the balances from it; 409 if one is confirmed. */
  async confirm(
    tenantId: string,
    universalMethod: CostBasisMethod | undefined,
    confirmedBy: string,
  ): Promise<SafeHarborView> {
    if (await this.ledger.safeHarborAllocation(tenantId)) {
      throw new DomainError(
        ErrorCode.Conflict,
        'The safe-harbor allocation of this tenant is already confirmed; it is fixed once confirmed.',
      );
    }
    const allocation = await this.propose(tenantId, universalMethod ?? DEFAULT_COST_BASIS_METHOD);
    const stored = await this.refresher.recordSafeHarborAllocation(
      tenantId,
      {
        transitionAt: allocation.transitionAt,
        universalMethod: allocation.universalMethod,
        firstDisposalAt: allocation.firstDisposalAt,
        confirmedAt: this.clock.now(),
        confirmedBy,
        lots: allocation.transition.lots,
      },
      [...new Set(allocation.positions.map((p) => p.accountId))],
    );
    return { ...this.confirmedView(stored, allocation), accountId: null };
  }

  private async propose(tenantId: string, universalMethod: CostBasisMethod): Promise<SafeHarborAllocation> {
    const accounts = await this.accounts.listAllForTenant(tenantId);
    return computeSafeHarborAllocation({
      entries: await this.ledger.ledgerForTenant(tenantId),
      universalMethod,
      methodFor: methodForElections(await this.ledger.costBasisElections(tenantId)),
      selections: await this.ledger.lotSelectionsByDisposal(tenantId),
      // listAllForTenant is in (created_on, id) order: the order the accounts were linked.
      accountOrder: accounts.map((account) => account.id),
    });
  }

  private proposedView(allocation: SafeHarborAllocation): Omit<SafeHarborView, 'accountId'> {
    return {
      status: 'proposed',
      transitionAt: allocation.transitionAt,
      universalMethod: allocation.universalMethod,
      firstDisposalAt: allocation.firstDisposalAt,
      confirmedAt: null,
      confirmedBy: null,
      positions: allocation.positions.map((p) => ({ ...p, applied: true })),
      assets: allocation.assets,
    };
  }

  /**
   * The stored lots, position by position, against the history as it stands now (`current`, the
   * allocation proposed now under the same method): `applied` when the account still holds the
   * allocated quantity on 2025-01-01 (the engine's own test).
   */
  private confirmedView(
    stored: StoredSafeHarborAllocation,
    current: SafeHarborAllocation,
  ): Omit<SafeHarborView, 'accountId'> {
    const keyOf = (accountId: string, symbol: string) => `${accountId}\u0000${symbol}`;
    const now = new Map(current.positions.map((p) => [keyOf(p.accountId, p.symbol), p]));
    const groups = new Map<string, AllocatedLot[]>();
    for (const lot of stored.lots) {
      const key = keyOf(lot.accountId, lot.symbol);
      groups.set(key, [...(groups.get(key) ?? []), lot]);
    }
    const positions = [...groups].map(([key, lots]): SafeHarborPositionView => {
      const { accountId, symbol } = lots[0];
      const ownNow = now.get(key);
      const quantity = sum(lots.map((l) => l.quantity));
      const shortfall = sum(
        lots.filter((l) => l.originTransactionId === SAFE_HARBOR_SHORTFALL_ORIGIN).map((l) => l.quantity),
      );
      const allocatedBasis = sum(lots.filter((l) => l.basisKnown).map((l) => l.costBasisUsd));
      const ownBasis = parseScaled(ownNow?.perAccountCostBasisUsd ?? '0') ?? SCALED_ZERO;
      return {
        accountId,
        symbol,
        quantity: quantity.toCanonical(),
        allocatedQuantity: quantity.minus(shortfall).toCanonical(),
        shortfallQuantity: shortfall.toCanonical(),
        allocatedCostBasisUsd: allocatedBasis.toCanonical(),
        perAccountCostBasisUsd: ownBasis.toCanonical(),
        basisChangeUsd: allocatedBasis.minus(ownBasis).toCanonical(),
        applied:
          ownNow !== undefined && (parseScaled(ownNow.quantity) ?? SCALED_ZERO).compare(quantity) === 0,
        lots,
        perAccountLots: ownNow?.perAccountLots ?? [],
      };
    });
    const assets = current.assets.map((asset): SafeHarborAsset => {
      const assetLots = stored.lots.filter((l) => l.symbol === asset.symbol);
      const assetPositions = positions.filter((p) => p.symbol === asset.symbol);
      return {
        ...asset,
        allocatedQuantity: sum(assetPositions.map((p) => p.allocatedQuantity)).toCanonical(),
        allocatedCostBasisUsd: sum(
          assetLots.filter((l) => l.basisKnown).map((l) => l.costBasisUsd),
        ).toCanonical(),
        shortfallQuantity: sum(assetPositions.map((p) => p.shortfallQuantity)).toCanonical(),
      };
    });
    return {
      status: 'confirmed',
      transitionAt: stored.transitionAt,
      universalMethod: stored.universalMethod,
      firstDisposalAt: stored.firstDisposalAt,
      confirmedAt: stored.confirmedAt,
      confirmedBy: stored.confirmedBy,
      positions,
      assets,
    };
  }
}
