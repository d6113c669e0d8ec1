/**
 * Accounts: partner lookups (collection, identity, list) and the admin operations (link, list
 * across tenants, refresh, import, delete). Owns account identity and lifecycle; the data of an
 * account is refreshed by RefreshService and read through AccountDataService.
 */
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import {
  ConnectorRegistry,
  CredentialsCipher,
  parseTransactionsCsv,
  RefreshService,
  SOURCE_CATALOGUE,
  sourceOptionFields,
  type RefreshOutcome,
} from '../sources/index.js';
import { TenancyRepository } from '../tenancy/tenancy.repository.js';
import type { AccountRecord } from './account-record.js';
import type { AccountEntity, SyncStatus } from './entities/account.entity.js';
import { AccountsRepository, type AccountKeysetPosition } from './repositories/accounts.repository.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export interface AccountPage {
  readonly accounts: readonly AccountEntity[];
  readonly nextCursor: string | null;
}

export interface NewAccount {
  readonly platform: string;
  readonly identity: string;
  readonly source: string;
  readonly collectionId?: string;
  readonly address?: string;
  readonly chain?: string;
  readonly credentials?: Readonly<Record<string, string>>;
  /** The source's options as sent (fields its description declares; SourceConnector.describe). */
  readonly sourceOptions?: Readonly<Record<string, unknown>>;
}

export interface ImportSummary {
  readonly rows: number;
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
}

interface AccountCursor {
  readonly c: number;
  readonly id: string;
}

const isAccountCursor = (value: unknown): value is AccountCursor =>
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as AccountCursor).c) &&
  typeof (value as AccountCursor).id === 'string' &&
  /^[0-9a-f-]{36}$/.test((value as AccountCursor).id);

const ADDRESS_FORMATS: Record<string, RegExp> = {
  bitcoin: /^(bc1[02-9ac-hj-np-z]{11,87}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/,
  ethereum: /^0x[0-9a-fA-F]{40}$/,
};

@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly tenancy: TenancyRepository,
    private readonly connectors: ConnectorRegistry,
    private readonly cipher: CredentialsCipher,
    private readonly cursors: CursorCodec,
    private readonly refresher: RefreshService,
    private readonly clock: Clock,
  ) {}

  /** The tenant's account, or null when it does not exist or belongs to another tenant. */
  findById(tenantId: string, accountId: string): Promise<AccountRecord | null> {
    return this.accounts.findById(tenantId, accountId);
  }

  /** Every account of the tenant in (createdOn, id) order (reports and summaries over the whole tenant). */
  listAllForTenant(tenantId: string): Promise<AccountRecord[]> {
    return this.accounts.listAllForTenant(tenantId);
  }

  /** Keyset page of the tenant's on-chain accounts (address and chain set), in (createdOn, id) order. */
  listOnChainPage(
    tenantId: string,
    after: AccountKeysetPosition | null,
    limit: number,
  ): Promise<AccountRecord[]> {
    return this.accounts.listOnChainPage(tenantId, after, limit);
  }

  async byCollection(tenantId: string, collectionId: string): Promise<AccountEntity> {
    const account = await this.accounts.findByCollection(tenantId, collectionId);
    if (!account) throw DomainError.notFound('Collection');
    return account;
  }

  async byIdentity(tenantId: string, identity: string): Promise<AccountEntity> {
    const account = await this.accounts.findByIdentity(tenantId, identity);
    if (!account) throw DomainError.notFound('Identity');
    return account;
  }

  async list(tenantId: string, limit = DEFAULT_PAGE_SIZE, cursor?: string): Promise<AccountPage> {
    return this.page(tenantId, 'accounts', limit, cursor, (after, size) =>
      this.accounts.listPage(tenantId, after, size),
    );
  }

  // ---- Admin API (the internal admin team; cross-tenant by design) ----

  /**
   * A page of accounts of one tenant or all, optionally in one sync state, with the number of
   * accounts in each state (the admin team's "what needs attention" view). A cursor is bound to
   * its tenant and state filter.
   */
  async adminList(
    tenantSlug: string | undefined,
    limit = DEFAULT_PAGE_SIZE,
    cursor?: string,
    syncStatus?: SyncStatus,
  ): Promise<AccountPage & { tenants: Map<string, string>; counts: Record<SyncStatus, number> }> {
    const tenantId = tenantSlug === undefined ? null : await this.tenantIdOf(tenantSlug);
    const binding = `admin:${tenantId ?? '*'}${syncStatus ? `:${syncStatus}` : ''}`;
    const page = await this.page(binding, 'admin-accounts', limit, cursor, (after, size) =>
      this.accounts.adminListPage(tenantId, after, size, syncStatus ?? null),
    );
    return {
      ...page,
      tenants: new Map((await this.tenancy.listTenants()).map((t) => [t.id, t.slug])),
      counts: await this.accounts.adminCountBySyncStatus(tenantId),
    };
  }

  /**
   * One account for the admin API / CLI. With `tenantSlug` (the admin API always names it) an
   * account of another tenant answers 404, exactly as one that does not exist.
   */
  async adminFind(accountId: string, tenantSlug?: string): Promise<AccountEntity> {
    const tenantId =
      tenantSlug === undefined
        ? await this.accounts.adminFindTenantOf(accountId)
        : await this.tenantIdOf(tenantSlug);
    const account = tenantId ? await this.accounts.findById(tenantId, accountId) : null;
    if (!account) throw DomainError.notFound('Account');
    return account;
  }

  async tenantSlugOf(tenantId: string): Promise<string> {
    return (await this.tenancy.findTenantById(tenantId))?.slug ?? tenantId;
  }

  async tenantIdOf(slug: string): Promise<string> {
    const tenant = await this.tenancy.findTenantBySlug(slug);
    if (!tenant) throw DomainError.validation('tenant', `Tenant "${slug}" does not exist.`);
    return tenant.id;
  }

  /** A tenant accounts may be linked to: a partner tenant, never the operator's (design §3). */
  async partnerTenantIdOf(slug: string): Promise<string> {
    const tenant = await this.tenancy.findTenantBySlug(slug);
    if (!tenant) throw DomainError.validation('tenant', `Tenant "${slug}" does not exist.`);
    if (tenant.kind === 'operator')
      throw DomainError.validation(
        'tenant',
        `Tenant "${slug}" is an operator tenant; it holds no partner data.`,
      );
    return tenant.id;
  }

  /**
   * Links an account for a tenant; it starts `syncing` and the scheduler (or a refresh) fetches it.
   * `syntheticAllowed`: whether sources serving synthetic data (the sandbox) may be linked.
   */
  async create(tenantId: string, input: NewAccount, syntheticAllowed: boolean): Promise<AccountEntity> {
    const allowed = (source: string) => !this.connectors.describe(source).synthetic || syntheticAllowed;
    if (!this.connectors.has(input.source) || !allowed(input.source)) {
      const known = this.connectors.sources().filter(allowed);
      throw DomainError.validation('source', `source must be one of: ${known.join(', ')}`);
    }
    const connector = this.connectors.get(input.source);
    const options = input.sourceOptions ?? {};
    if ((input.address === undefined) !== (input.chain === undefined))
      throw DomainError.validation(
        input.address === undefined ? 'address' : 'chain',
        'address and chain go together (on-chain accounts).',
      );
    if (input.chain !== undefined && input.address !== undefined) {
      const format = ADDRESS_FORMATS[input.chain];
      if (format && !format.test(input.address))
        throw DomainError.validation('address', `address is not a valid ${input.chain} address.`);
    }
    this.rejectForeignOptions(input.source, options);
    if (input.credentials) connector.checkCredentials?.(input.credentials);
    const id = randomUUID();
    const collectionId = input.collectionId ?? randomUUID();
    const taken = await this.accounts.conflicts(tenantId, input.identity, collectionId);
    if (taken.identity)
      throw conflict(
        'identity',
        `An account with identity "${input.identity}" already exists for this tenant.`,
      );
    if (taken.collectionId)
      throw conflict('collectionId', `Collection ${collectionId} already has an account.`);
    const now = this.clock.now();
    const sourceOptions =
      connector.accountOptions?.(options, { accountId: id, platform: input.platform }) ?? null;
    const account: AccountEntity = {
      id,
      tenantId,
      collectionId,
      identity: input.identity,
      platform: input.platform,
      source: input.source,
      sourceOptions,
      address: input.address ?? null,
      chain: input.chain ?? null,
      syncStatus: 'syncing',
      connectionStatus: 'connected',
      balanceSource: 'calculated',
      lastSyncedAt: null,
      createdOn: now,
      credentialsEncrypted: input.credentials ? await this.cipher.encrypt(id, input.credentials) : null,
      // Due at once: the scheduler's next run picks it up (or an admin refresh does it now).
      nextRefreshAt: now,
      lastRefreshAttemptAt: null,
      lastError: null,
      dataVersion: 0,
      refreshLeaseUntil: null,
      refreshLeaseOwner: null,
    };
    if (!(await this.accounts.insertIfAbsent(account)))
      throw conflict(
        'identity',
        `An account with identity "${input.identity}" or collection ${collectionId} already exists.`,
      );
    return account;
  }

  async adminRefresh(
    accountId: string,
    tenantSlug?: string,
  ): Promise<{ account: AccountEntity; outcome: RefreshOutcome }> {
    const account = await this.adminFind(accountId, tenantSlug);
    const outcome = await this.refresher.refresh(account.tenantId, accountId, 'admin');
    return { account: (await this.accounts.findById(account.tenantId, accountId)) ?? account, outcome };
  }

  /**
   * Imports a CSV file (docs/csv-format.md) into a `csv` account: all rows or none. Existing
   * transaction ids are updated, new ones inserted; balances are recomputed in the same transaction.
   */
  async importCsv(
    tenantId: string,
    accountId: string,
    csv: string,
    progress?: { parsed?: (rows: number) => void; written?: (rows: number, total: number) => void },
  ): Promise<ImportSummary> {
    const account = await this.accounts.findById(tenantId, accountId);
    if (!account) throw DomainError.notFound('Account');
    if (account.source !== 'csv') {
      throw new DomainError(
        ErrorCode.Conflict,
        `Account ${accountId} is fed by the "${account.source}" source; only accounts with source "csv" take imports.`,
      );
    }
    const parsed = parseTransactionsCsv(csv, { now: this.clock.now(), onProgress: progress?.parsed });
    if (!parsed.ok) {
      const more =
        parsed.errorCount > parsed.errors.length ? ` (the first ${parsed.errors.length} are listed)` : '';
      const summary = `${parsed.errorCount} problem(s) in the CSV${more}; nothing was imported.`;
      const errors: Record<string, string[]> = { csv: [summary] };
      for (const e of parsed.errors) (errors[`line ${e.line}`] ??= []).push(e.message);
      throw new DomainError(ErrorCode.ValidationFailed, summary, errors);
    }
    const total = parsed.transactions.length;
    const written = await this.refresher.importTransactions(
      tenantId,
      accountId,
      parsed.transactions,
      (rows) => progress?.written?.(rows, total),
    );
    return { rows: total, ...written, unchanged: total - written.inserted - written.updated };
  }

  /** Deletes the account with its transactions and balances; accounts it was linked to get new balances. */
  async adminDelete(accountId: string, tenantSlug?: string): Promise<void> {
    const account = await this.adminFind(accountId, tenantSlug);
    await this.refresher.recomputeLinked(account.tenantId, [accountId], async (manager) => {
      await this.accounts.delete(account.tenantId, accountId, manager);
    });
  }

  /** Options another source declares (e.g. sandboxProfile on a csv account) are a 400. */
  private rejectForeignOptions(source: string, options: Readonly<Record<string, unknown>>): void {
    const own = this.connectors.describe(source).options;
    const foreign = Object.keys(options).filter((field) => options[field] !== undefined && !(field in own));
    if (foreign.length === 0) return;
    // The owner may not be registered here (the sandbox in production): the catalogue knows it.
    const owner = sourceOptionFields().find(({ field }) => field === foreign[0])?.source;
    const fields = owner ? Object.keys(SOURCE_CATALOGUE[owner].options) : foreign;
    throw DomainError.validation(
      fields[0],
      owner
        ? `${fields.join(' and ')} apply to the ${owner} source only.`
        : `${foreign.join(', ')} do not apply to the ${source} source.`,
    );
  }

  private async page(
    binding: string,
    purpose: string,
    limit: number,
    cursor: string | undefined,
    load: (after: AccountKeysetPosition | null, size: number) => Promise<AccountEntity[]>,
  ): Promise<AccountPage> {
    const position = cursor ? await this.cursors.decode(binding, purpose, cursor, isAccountCursor) : null;
    const rows = await load(
      position ? { createdOn: new Date(position.c), id: position.id } : null,
      limit + 1,
    );
    const hasMore = rows.length > limit;
    const accounts = hasMore ? rows.slice(0, limit) : rows;
    const last = accounts[accounts.length - 1];
    return {
      accounts,
      nextCursor: hasMore
        ? await this.cursors.encode(binding, purpose, { c: last.createdOn.getTime(), id: last.id })
        : null,
    };
  }
}

function conflict(field: string, message: string): DomainError {
  return new DomainError(ErrorCode.Conflict, message, { [field]: [message] });
}
