/**
 * Accounts: partner lookups (collection, identity, list) and the admin operations (link, list
 * across tenants, refresh, import, delete). Owns account identity and lifecycle; the data of an
 * account is refreshed by RefreshService and read through AccountDataService.
 */
import { Inject, Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { noteAuditSubject } from '../../common/audit/audit-scope.js';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { identityProblem } from '../../common/validation/account-identity.js';
import { isBitcoinAddress } from '../../domain/chains/bitcoin/index.js';
import { EVM_PLATFORMS, isEthereumAddress } from '../../domain/chains/ethereum/index.js';
import { isSolanaAddress } from '../../domain/chains/solana/index.js';
import {
  ACCOUNT_EVENTS,
  NO_ACCOUNT_EVENTS,
  type AccountEventsPort,
} from '../../common/ports/account-events.port.js';
import {
  ConnectorRegistry,
  CredentialsCipher,
  ImportFileService,
  IMPORT_FORMATS,
  RefreshService,
  SOURCE_CATALOGUE,
  SourceAuthorizationError,
  sourceOptionFields,
  type ConnectorAccount,
  type RefreshOutcome,
  type SourceConnector,
} from '../sources/index.js';
import { LedgerWriter } from '../ledger/index.js';
import { TenancyRepository } from '../tenancy/index.js';
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
  /** The file's format: `csv` (docs/csv-format.md) or an exchange export's id (docs/sources.md). */
  readonly format: string;
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

/** The address's shape, for accounts whose address is a label (e.g. a csv account's wallet). */
const ADDRESS_FORMATS: Record<string, RegExp> = {
  bitcoin: /^(bc1[02-9ac-hj-np-z]{11,87}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/,
  // Every EVM chain of the table (ethereum, base, arbitrum, optimism, polygon) has Ethereum's addresses.
  ...Object.fromEntries(EVM_PLATFORMS.map((chain) => [chain, /^0x[0-9a-fA-F]{40}$/])),
  solana: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
};

/**
 * Address checks by chain for sources that watch the address (their description links
 * addresses), with the domain's parsers: bech32/bech32m and base58check checksums; EIP-55;
 * Solana: base58 of 32 bytes.
 */
const ADDRESS_CHECKS: Record<string, (address: string) => boolean> = {
  bitcoin: (address) => isBitcoinAddress(address),
  ...Object.fromEntries(
    EVM_PLATFORMS.map((chain) => [chain, (address: string) => isEthereumAddress(address)]),
  ),
  solana: (address) => isSolanaAddress(address),
};

/** How long the link flow waits for a source to say whether credentials work. */
export const VERIFY_TIMEOUT_MS = 15_000;
/** Retry-After of a link or reconnect refused because the source could not be reached. */
export const VERIFY_RETRY_AFTER_SECONDS = 30;

/**
 * What a partner sends to link an account (POST /v1/api/accounts): one of credentials, address,
 * xpub; or, for a source fed by uploaded files, its name in `source` and none of them.
 */
export interface PartnerLink {
  readonly platform: string;
  /** A source whose description links by file (`csv`); absent: the source serving `platform`. */
  readonly source?: string;
  readonly identity: string;
  readonly collectionId?: string;
  readonly credentials?: Readonly<Record<string, string>>;
  readonly address?: string;
  readonly xpub?: string;
}

const LINK_FIELDS = ['credentials', 'address', 'xpub'] as const;

@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly tenancy: TenancyRepository,
    private readonly connectors: ConnectorRegistry,
    private readonly cipher: CredentialsCipher,
    private readonly cursors: CursorCodec,
    private readonly refresher: RefreshService,
    private readonly writer: LedgerWriter,
    private readonly clock: Clock,
    private readonly importFiles: ImportFileService,
    @Optional() @Inject(ACCOUNT_EVENTS) events?: AccountEventsPort,
  ) {
    this.events = events ?? NO_ACCOUNT_EVENTS;
  }

  /** The outbox (webhooks module): `account.linked` / `account.unlinked` in the write's transaction. */
  private readonly events: AccountEventsPort;

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
    review?: 'needs_review',
  ): Promise<
    AccountPage & { tenants: Map<string, string>; counts: Record<SyncStatus, number>; needsReview: number }
  > {
    const tenantId = tenantSlug === undefined ? null : await this.tenantIdOf(tenantSlug);
    const binding = `admin:${tenantId ?? '*'}${syncStatus ? `:${syncStatus}` : ''}${review ? `:${review}` : ''}`;
    const page = await this.page(binding, 'admin-accounts', limit, cursor, (after, size) =>
      this.accounts.adminListPage(tenantId, after, size, syncStatus ?? null, review === 'needs_review'),
    );
    return {
      ...page,
      tenants: new Map((await this.tenancy.listTenants()).map((t) => [t.id, t.slug])),
      counts: await this.accounts.adminCountBySyncStatus(tenantId),
      needsReview: await this.accounts.adminCountNeedingReview(tenantId),
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
    // The HTTP bodies check it already (@IsAccountIdentity); the CLI's `accounts create` does not.
    const identityRefused = identityProblem(input.identity);
    if (identityRefused) throw DomainError.validation('identity', identityRefused);
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
      const watched = this.connectors.describe(input.source).linking?.accepts.includes('address') ?? false;
      const format = ADDRESS_FORMATS[input.chain];
      const check = watched ? ADDRESS_CHECKS[input.chain] : format && ((a: string) => format.test(a));
      if (check && !check(input.address))
        throw DomainError.validation('address', `address is not a valid ${input.chain} address.`);
    }
    this.rejectForeignOptions(input.source, options);
    this.requireWatchTarget(input);
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
    if (input.credentials) {
      await this.verifyCredentials(connector, input.credentials, {
        id,
        tenantId,
        platform: input.platform,
        identity: input.identity,
        address: input.address ?? null,
        chain: input.chain ?? null,
        createdOn: now,
        lastSyncedAt: null,
        sourceOptions,
      });
    }
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
      refreshLeaseImport: null,
      reviewReason: null,
      reviewSince: null,
      refreshFailures: 0,
    };
    noteAuditSubject({ accountId: id }); // the entry of this link names the account it creates
    const inserted = await this.accounts.transaction(async (manager) => {
      if (!(await this.accounts.insertIfAbsent(account, manager))) return false;
      await this.events.record(
        [
          {
            type: 'account.linked',
            tenantId,
            accountId: id,
            occurredAt: now,
            data: {
              accountId: id,
              collectionId,
              identity: account.identity,
              platform: account.platform,
              address: account.address,
              chain: account.chain,
              syncStatus: account.syncStatus,
              createdOn: now.toISOString(),
            },
          },
        ],
        manager,
      );
      return true;
    });
    if (!inserted)
      throw conflict(
        'identity',
        `An account with identity "${input.identity}" or collection ${collectionId} already exists.`,
      );
    return account;
  }

  // ---- Partner link flow (issue 15: POST/PUT/DELETE /v1/api/accounts) ----

  /**
   * Links an account for the partner's tenant: the source is the one whose description lists the
   * platform (`linking.platforms`), and the partner sends what it accepts (credentials, an address
   * or an xpub). Credentials are checked with the source first where it can. The account starts
   * `syncing` with a refresh already started (its outcome lands in the account's state). A source
   * fed by uploaded files (`source: "csv"`) takes none of them and starts no refresh: the account
   * waits for its first upload (importCsv).
   */
  async link(tenantId: string, input: PartnerLink): Promise<AccountEntity> {
    const source =
      input.source === undefined ? this.sourceOfPlatform(input.platform) : this.fileSource(input.source);
    const description = this.connectors.describe(source);
    const accepts = description.linking?.accepts ?? [];
    const sent = LINK_FIELDS.filter((field) => input[field] !== undefined);
    if (accepts.includes('file')) {
      if (sent.length > 0)
        throw DomainError.validation(
          sent[0]!,
          `The ${source} source takes no ${sent[0]}: its transactions arrive in uploaded files (POST /v1/api/accounts/{accountId}/import).`,
        );
    } else {
      const takes = `The ${input.platform} platform is linked with ${accepts.join(' or ')}`;
      if (sent.length === 0) throw DomainError.validation(accepts[0] ?? 'credentials', `${takes}; send it.`);
      if (sent.length > 1)
        throw DomainError.validation(
          sent[1]!,
          `Send only one of ${sent.join(', ')}; ${takes.toLowerCase()}.`,
        );
      if (!accepts.includes(sent[0]!)) throw DomainError.validation(sent[0]!, `${takes}, not ${sent[0]}.`);
    }
    const account = await this.create(
      tenantId,
      {
        platform: input.platform,
        identity: input.identity,
        source,
        collectionId: input.collectionId,
        ...(input.address !== undefined ? { address: input.address, chain: input.platform } : {}),
        ...(input.credentials !== undefined ? { credentials: input.credentials } : {}),
        ...(input.xpub !== undefined ? { sourceOptions: { xpub: input.xpub } } : {}),
      },
      false,
    );
    // A file-fed account has nothing to fetch: it waits for its first upload (a refresh now would
    // only hold the account while the partner's upload arrives).
    if (!description.importOnly) this.refresher.startRefresh(tenantId, account.id, 'link');
    return account;
  }

  /**
   * New credentials for an account (the end client reconnects): checked like a link's, stored
   * encrypted in place of the old ones; the account is connected and `syncing` again, with a
   * refresh started. Unknown account or another tenant's: 404.
   */
  async reconnect(
    tenantId: string,
    accountId: string,
    credentials: Readonly<Record<string, string>>,
  ): Promise<AccountEntity> {
    const account = await this.accounts.findById(tenantId, accountId);
    if (!account) throw DomainError.notFound('Account');
    const takesCredentials =
      this.connectors.has(account.source) &&
      (this.connectors.describe(account.source).linking?.accepts.includes('credentials') ?? false);
    if (!takesCredentials)
      throw DomainError.validation(
        'credentials',
        `This account is fed by the ${account.source} source, which takes no credentials.`,
      );
    const connector = this.connectors.get(account.source);
    connector.checkCredentials?.(credentials);
    await this.verifyCredentials(connector, credentials, {
      id: account.id,
      tenantId,
      platform: account.platform,
      identity: account.identity,
      address: account.address,
      chain: account.chain,
      createdOn: account.createdOn,
      lastSyncedAt: account.lastSyncedAt,
      sourceOptions: account.sourceOptions,
    });
    await this.accounts.updateCredentials(
      tenantId,
      accountId,
      await this.cipher.encrypt(accountId, credentials),
    );
    await this.refresher.markReconnected(tenantId, accountId);
    this.refresher.startRefresh(tenantId, accountId, 'link');
    return (await this.accounts.findById(tenantId, accountId)) ?? account;
  }

  /**
   * Unlinks an account: the row goes with its encrypted credentials, transactions and balance
   * snapshots (docs/sources.md "Linking accounts" says why nothing is kept); accounts it had
   * transfers with get new balances. Unknown account or another tenant's: 404.
   */
  async unlink(tenantId: string, accountId: string): Promise<void> {
    const account = await this.accounts.findById(tenantId, accountId);
    if (!account) throw DomainError.notFound('Account');
    await this.writer.recomputeLinked(tenantId, [accountId], async (manager) => {
      if (!(await this.accounts.delete(tenantId, accountId, manager))) return;
      await this.events.record(
        [
          {
            type: 'account.unlinked',
            tenantId,
            accountId,
            occurredAt: this.clock.now(),
            data: {
              accountId,
              collectionId: account.collectionId,
              identity: account.identity,
              platform: account.platform,
              unlinkedAt: this.clock.now().toISOString(),
            },
          },
        ],
        manager,
      );
    });
  }

  /** The source serving a platform (its description's `linking.platforms`); 400 naming `platform`. */
  private sourceOfPlatform(platform: string): string {
    const linkable = this.connectors
      .sources()
      .map((source) => ({ source, description: this.connectors.describe(source) }))
      .filter(({ description }) => description.linking && !description.synthetic);
    const match = linkable.find(({ description }) => description.linking!.platforms.includes(platform));
    if (match) return match.source;
    const platforms = [
      ...new Set(linkable.flatMap(({ description }) => description.linking!.platforms)),
    ].sort();
    const byFile = linkable
      .filter(({ description }) => description.linking!.accepts.includes('file'))
      .map(({ source }) => `"${source}"`);
    const files =
      byFile.length > 0
        ? ` (or any platform with source ${byFile.join(' or ')}, to upload its export files)`
        : '';
    throw DomainError.validation('platform', `platform must be one of: ${platforms.join(', ')}${files}`);
  }

  /**
   * The source a partner names in `source`: one fed by uploaded files (its description links by
   * `file`); every other source follows from the platform. 400 naming `source`.
   */
  private fileSource(source: string): string {
    const byFile = this.connectors.sources().filter((name) => {
      const description = this.connectors.describe(name);
      return !description.synthetic && (description.linking?.accepts.includes('file') ?? false);
    });
    if (byFile.includes(source)) return source;
    throw DomainError.validation(
      'source',
      `source may only name a source fed by uploaded files (${byFile.join(', ')}); leave it out to link by platform.`,
    );
  }

  /**
   * Asks the source whether the credentials work (where its connector can): refused → 422 naming
   * `credentials`; the source unreachable or too slow → 503 with Retry-After. Neither the
   * credentials nor the source's own message go into the answer or a log line.
   */
  private async verifyCredentials(
    connector: SourceConnector,
    credentials: Readonly<Record<string, string>>,
    account: ConnectorAccount,
  ): Promise<void> {
    if (!connector.verifyCredentials) return;
    try {
      await connector.verifyCredentials({
        account,
        credentials,
        now: this.clock.now(),
        signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
      });
    } catch (error) {
      if (error instanceof SourceAuthorizationError) {
        throw new DomainError(
          ErrorCode.Unprocessable,
          'The source refused the credentials.',
          {
            credentials: [
              'The source refused these credentials: check that the API key is active, has read permissions and was copied whole.',
            ],
          },
          'credentials_refused',
        );
      }
      throw new DomainError(
        ErrorCode.ServiceUnavailable,
        'The source could not be reached to check the credentials; nothing was stored. Retry later.',
        undefined,
        'source_unavailable',
        VERIFY_RETRY_AFTER_SECONDS,
      );
    }
  }

  /**
   * A watch-only source (its description links addresses or xpubs, not credentials) needs one of
   * them: 400 naming `address`. Both an address and an xpub: 400 naming `xpub`.
   */
  private requireWatchTarget(input: NewAccount): void {
    const accepts = this.connectors.describe(input.source).linking?.accepts ?? [];
    if (accepts.includes('credentials') || !(accepts.includes('address') || accepts.includes('xpub'))) return;
    const xpub = input.sourceOptions?.['xpub'] !== undefined;
    if (xpub && input.address !== undefined)
      throw DomainError.validation('xpub', 'Send an address or an xpub, not both.');
    if (!xpub && input.address === undefined)
      throw DomainError.validation(
        'address',
        `The ${input.source} source watches ${accepts.includes('xpub') ? 'an address (with chain) or an xpub' : 'an address (with chain)'}; send one.`,
      );
    const platforms = this.connectors.describe(input.source).linking?.platforms ?? [];
    if (input.chain !== undefined && !platforms.includes(input.chain))
      throw DomainError.validation(
        'chain',
        `The ${input.source} source watches chain ${platforms.join(' or ')}.`,
      );
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
   * `leaseFrom`: the account's lease may be taken from that owner (the sandbox seed's).
   */
  async importCsv(
    tenantId: string,
    accountId: string,
    csv: string,
    progress?: { parsed?: (rows: number) => void; written?: (rows: number, total: number) => void },
    format?: string,
    leaseFrom?: string,
  ): Promise<ImportSummary> {
    const account = await this.accounts.findById(tenantId, accountId);
    if (!account) throw DomainError.notFound('Account');
    if (format !== undefined && !(IMPORT_FORMATS as readonly string[]).includes(format))
      throw DomainError.validation('format', `format must be one of ${IMPORT_FORMATS.join(', ')}.`);
    if (account.source !== 'csv') {
      throw new DomainError(
        ErrorCode.Conflict,
        `Account ${accountId} is fed by the "${account.source}" source; only accounts with source "csv" take imports.`,
      );
    }
    const parsed = await this.importFiles.parse(csv, {
      now: this.clock.now(),
      format,
      onProgress: progress?.parsed,
    });
    if (!parsed.ok) {
      const more =
        parsed.errorCount > parsed.errors.length ? ` (the first ${parsed.errors.length} are listed)` : '';
      const what = parsed.format === 'csv' ? 'the CSV' : `the ${parsed.format} file`;
      const summary =
        parsed.summary ?? `${parsed.errorCount} problem(s) in ${what}${more}; nothing was imported.`;
      const errors: Record<string, string[]> = { csv: [summary] };
      for (const e of parsed.errors) (errors[`line ${e.line}`] ??= []).push(e.message);
      throw new DomainError(ErrorCode.ValidationFailed, summary, errors);
    }
    const total = parsed.transactions.length;
    const written = await this.refresher.importTransactions(tenantId, accountId, parsed.transactions, {
      onProgress: (rows) => progress?.written?.(rows, total),
      // What the account says if this import never finishes (its process dies).
      what: `a ${parsed.format} file (${total} rows)`,
      from: leaseFrom,
    });
    return {
      rows: total,
      ...written,
      unchanged: total - written.inserted - written.updated,
      format: parsed.format,
    };
  }

  /** Deletes the account with its transactions and balances; accounts it was linked to get new balances. */
  async adminDelete(accountId: string, tenantSlug?: string): Promise<void> {
    const account = await this.adminFind(accountId, tenantSlug);
    await this.unlink(account.tenantId, accountId);
  }

  /** New credentials for an account of any tenant (the admin API's reconnect). */
  async adminReconnect(
    accountId: string,
    tenantSlug: string,
    credentials: Readonly<Record<string, string>>,
  ): Promise<AccountEntity> {
    const account = await this.adminFind(accountId, tenantSlug);
    return this.reconnect(account.tenantId, accountId, credentials);
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
