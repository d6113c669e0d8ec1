/**
 * The universal-to-per-wallet transition (issue 19 item 6; docs/cost-basis.md, "Universal to
 * per-wallet"): the tenant (the taxpayer, docs/decisions.md) proposes the safe-harbor allocation
 * of its universal pool to its accounts as of 2025-01-01, and confirms it once; the confirmed
 * allocation is stored and the balances recomputed from it in the same transaction, through the
 * ledger's one writer (LedgerWriter). The figures are made in
 * src/domain/cost-basis/safe-harbor.ts, in the compute pool's worker threads over the tenant's
 * encoded ledger, inside a heavy-work slot of the tenant (issue 28: the engine runs twice over the
 * whole history, universal and per account; 429/503 with Retry-After as for the reports).
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../../common/errors/domain-error.js';
import { CursorCodec } from '../../../common/pagination/cursor-codec.js';
import {
  DEFAULT_LIST_PAGE,
  decodeListCursor,
  listCursorPurpose,
  pageOfList,
  type ListPosition,
} from '../../../common/pagination/list-page.js';
import {
  DEFAULT_COST_BASIS_METHOD,
  SAFE_HARBOR_SHORTFALL_ORIGIN,
  type AllocatedLot,
  type CostBasisMethod,
  type OpenLot,
  type SafeHarborAllocation,
  type SafeHarborAsset,
} from '../../../domain/cost-basis/index.js';
import { parseScaled, SCALED_ZERO, sumScaled } from '../../../domain/money/scaled-decimal.js';
import { LedgerService, LedgerWriter, type StoredSafeHarborAllocation } from '../../ledger/index.js';
import { AccountsService } from '../../accounts/index.js';
import {
  ComputePool,
  HeavyWorkAdmission,
  reviveSafeHarborAllocation,
  selectionsData,
} from '../../compute/index.js';

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

/**
 * One row of the allocation's lots (the paged list): an allocated lot of a position, or one of
 * its own per-account lots at the end of 2024 (for comparison).
 */
export interface SafeHarborLotRow {
  readonly kind: 'allocated' | 'per_account';
  readonly lot: AllocatedLot | OpenLot;
}

export interface SafeHarborView {
  readonly status: 'proposed' | 'confirmed';
  readonly transitionAt: Date;
  readonly universalMethod: CostBasisMethod;
  readonly firstDisposalAt: Date | null;
  readonly confirmedAt: Date | null;
  readonly confirmedBy: string | null;
  readonly accountId: string | null;
  /** Every position (summary figures; their lots are in `lots`, paged). */
  readonly positions: readonly SafeHarborPositionView[];
  readonly assets: readonly SafeHarborAsset[];
  /** One page of the positions' lots: position by position, its allocated lots then its own. */
  readonly lots: readonly SafeHarborLotRow[];
  readonly nextCursor: string | null;
}

export interface SafeHarborPage {
  /** Default DEFAULT_LIST_PAGE (the DTO checks 1 to MAX_LIST_PAGE). */
  readonly limit?: number;
  readonly cursor?: string;
}

/** The lot rows of the positions, in order. */
function lotRowsOf(positions: readonly SafeHarborPositionView[]): SafeHarborLotRow[] {
  return positions.flatMap((p) => [
    ...p.lots.map((lot): SafeHarborLotRow => ({ kind: 'allocated', lot })),
    ...p.perAccountLots.map((lot): SafeHarborLotRow => ({ kind: 'per_account', lot })),
  ]);
}

/**
 * A row's key: its position, kind and place there, with its origin and quantity, so a cursor
 * whose row changed (the proposal moved with the history) no longer resumes (list-page.ts).
 */
function lotRowKeys(rows: readonly SafeHarborLotRow[]): Map<SafeHarborLotRow, string> {
  const keys = new Map<SafeHarborLotRow, string>();
  const seen = new Map<string, number>();
  for (const row of rows) {
    const group = [row.lot.accountId, row.lot.symbol, row.kind].join('\u0000');
    const nth = (seen.get(group) ?? 0) + 1;
    seen.set(group, nth);
    keys.set(row, [group, nth, row.lot.originTransactionId, row.lot.quantity].join('\u0000'));
  }
  return keys;
}

const sum = (values: readonly string[]) => sumScaled(values.map((v) => parseScaled(v) ?? SCALED_ZERO));

@Injectable()
export class SafeHarborService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly ledger: LedgerService,
    private readonly writer: LedgerWriter,
    private readonly clock: Clock,
    private readonly cursors: CursorCodec,
    private readonly admission: HeavyWorkAdmission,
    private readonly pool: ComputePool,
  ) {}

  /**
   * The confirmed allocation if there is one, else the one proposed under `universalMethod`; one
   * page of its lots (the positions and totals are always whole).
   */
  async view(
    tenantId: string,
    universalMethod: CostBasisMethod | undefined,
    accountId: string | null,
    page: SafeHarborPage = {},
  ): Promise<SafeHarborView> {
    if (accountId !== null && !(await this.accounts.findById(tenantId, accountId))) {
      throw DomainError.notFound('Account');
    }
    const confirmed = await this.ledger.safeHarborAllocation(tenantId);
    const method = confirmed?.universalMethod ?? universalMethod ?? DEFAULT_COST_BASIS_METHOD;
    const purpose = lotsPurpose(confirmed ? 'confirmed' : 'proposed', method, accountId);
    // A tampered or foreign cursor is refused before the allocation is computed.
    const after = await decodeListCursor(this.cursors, tenantId, purpose, page.cursor);
    return this.admission.run(tenantId, async () => {
      const view = confirmed
        ? this.confirmedView(confirmed, await this.propose(tenantId, method))
        : this.proposedView(await this.propose(tenantId, method));
      const positions =
        accountId === null ? view.positions : view.positions.filter((p) => p.accountId === accountId);
      return {
        ...view,
        accountId,
        positions,
        ...(await this.lotsPage(tenantId, purpose, positions, page, after)),
      };
    });
  }

  /**
   * Stores the allocation proposed now and recomputes the balances from it; 409 if one is
   * confirmed. The answer holds the first page of the lots (`limit`); its cursor continues with GET.
   */
  async confirm(
    tenantId: string,
    universalMethod: CostBasisMethod | undefined,
    confirmedBy: string,
    limit?: number,
  ): Promise<SafeHarborView> {
    if (await this.ledger.safeHarborAllocation(tenantId)) {
      throw new DomainError(
        ErrorCode.Conflict,
        'The safe-harbor allocation of this tenant is already confirmed; it is fixed once confirmed.',
      );
    }
    return this.admission.run(tenantId, async () => {
      const allocation = await this.propose(tenantId, universalMethod ?? DEFAULT_COST_BASIS_METHOD);
      const stored = await this.writer.recordSafeHarborAllocation(
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
      const view = this.confirmedView(stored, allocation);
      // The purpose GET uses for the confirmed allocation of the whole tenant: the cursor continues there.
      const purpose = lotsPurpose('confirmed', stored.universalMethod, null);
      return {
        ...view,
        accountId: null,
        ...(await this.lotsPage(tenantId, purpose, view.positions, { limit }, null)),
      };
    });
  }

  private async lotsPage(
    tenantId: string,
    purpose: string,
    positions: readonly SafeHarborPositionView[],
    page: SafeHarborPage,
    after: ListPosition | null,
  ): Promise<Pick<SafeHarborView, 'lots' | 'nextCursor'>> {
    const rows = lotRowsOf(positions);
    const keys = lotRowKeys(rows);
    const { items, nextCursor } = await pageOfList(
      this.cursors,
      tenantId,
      purpose,
      rows,
      (row) => keys.get(row)!,
      page.limit ?? DEFAULT_LIST_PAGE,
      after,
    );
    return { lots: items, nextCursor };
  }

  /** The allocation proposed now under `universalMethod`: computed in the compute pool. */
  private async propose(tenantId: string, universalMethod: CostBasisMethod): Promise<SafeHarborAllocation> {
    const accounts = await this.accounts.listAllForTenant(tenantId);
    const { ledger } = await this.ledger.encodedLedgerForTenant(tenantId);
    const allocation = await this.pool.run({
      kind: 'safeHarbor',
      input: {
        ledger,
        universalMethod,
        elections: await this.ledger.costBasisElections(tenantId),
        selections: selectionsData(await this.ledger.lotSelectionsByDisposal(tenantId)),
        // listAllForTenant is in (created_on, id) order: the order the accounts were linked.
        accountOrder: accounts.map((account) => account.id),
      },
    });
    return reviveSafeHarborAllocation(allocation);
  }

  private proposedView(
    allocation: SafeHarborAllocation,
  ): Omit<SafeHarborView, 'accountId' | 'lots' | 'nextCursor'> {
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
  ): Omit<SafeHarborView, 'accountId' | 'lots' | 'nextCursor'> {
    const keyOf = (accountId: string, symbol: string) => `${accountId}\u0000${symbol}`;
    const now = new Map(current.positions.map((p) => [keyOf(p.accountId, p.symbol), p]));
    // Grouped in place: copying a group per lot made a large allocation quadratic (issue 27 item 10).
    const groups = new Map<string, AllocatedLot[]>();
    for (const lot of stored.lots) {
      const key = keyOf(lot.accountId, lot.symbol);
      const group = groups.get(key);
      if (group) group.push(lot);
      else groups.set(key, [lot]);
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
    const lotsBySymbol = groupBy(stored.lots, (lot) => lot.symbol);
    const positionsBySymbol = groupBy(positions, (position) => position.symbol);
    const assets = current.assets.map((asset): SafeHarborAsset => {
      const assetLots = lotsBySymbol.get(asset.symbol) ?? [];
      const assetPositions = positionsBySymbol.get(asset.symbol) ?? [];
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

/** The cursor purpose of the allocation's lots: which allocation (status, method) and which account. */
function lotsPurpose(
  status: SafeHarborView['status'],
  method: CostBasisMethod,
  accountId: string | null,
): string {
  return listCursorPurpose('safe-harbor-lots', [status, method, accountId]);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
