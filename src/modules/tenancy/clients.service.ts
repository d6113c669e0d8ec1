import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import argon2 from 'argon2';
import { noteAuditSubject } from '../../common/audit/audit-scope.js';
import { AppConfig } from '../../config/app-config.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import { TenancyRepository } from './tenancy.repository.js';
import type { ApiClientEntity, ClientScope } from './entities/api-client.entity.js';
import type { TenantEntity } from './entities/tenant.entity.js';

/** OWASP's argon2id profile (19 MiB, 2 passes): secrets are random, so this is ample. */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * How long a "client is still enabled, at this secret generation" answer may be reused before
 * asking the database again: how long disabling a client or rotating its secret takes to reach
 * an instance that did not make the change (another instance, or the CLI's process).
 */
export const CLIENT_STATE_CACHE_MS = 5_000;
/**
 * How long before CLIENT_STATE_CACHE_MS runs out a used answer is refreshed in the background:
 * the lookup has this long to come back before the client's requests wait for the database. On
 * the embedded default one tenant's ledger read may hold the session for about a second (issue
 * 28), so one second was too short there: the answer ran out while the lookup waited.
 */
export const CLIENT_STATE_REFRESH_AHEAD_MS = 3_000;
/**
 * How long a lookup in flight is shared with requests that arrive after it started. A lookup
 * older than this waits on a database in trouble (a partition, a failover); a request arriving
 * now asks for itself, so that once the database is back it is not refused with the old lookup's
 * failure.
 */
export const CLIENT_LOOKUP_SHARED_MS = 250;

export interface VerifiedClient {
  clientId: string;
  tenantId: string;
  scopes: ClientScope[];
  /** Tokens are issued under this generation (claim `sgen`); a rotation or a disable increments it. */
  secretGeneration: number;
}

/** What bearer verification needs to know about a client beyond its token. */
export interface ClientState {
  active: boolean;
  /** Tokens issued under an earlier generation were revoked by a secret rotation or a disable. */
  secretGeneration: number;
}

export interface IssuedSecret {
  clientId: string;
  tenantId: string;
  scopes: ClientScope[];
  /** Shown once; only its hash is stored. */
  clientSecret: string;
}

export const CLIENT_SCOPES: readonly ClientScope[] = ['partner', 'admin'];
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9._-]{3,128}$/;

/** A client as the admin API and CLI show it: never its secret or the secret's hash. */
export interface ClientSummary {
  clientId: string;
  tenantId: string;
  /** The owning tenant's slug. */
  tenant: string;
  scopes: ClientScope[];
  disabled: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
  secretRotatedAt: Date | null;
}

/**
 * Which client an admin operation on one client may touch: with `tenant` (the admin API always
 * names it) a client of another tenant answers 404 exactly as one that does not exist; without it
 * (the CLI, run by the operator on the database itself) any client.
 */
export interface ClientLookup {
  tenant?: string;
}

@Injectable()
export class ClientsService {
  private readonly activeCache = new Map<string, ClientState & { checkedAt: number }>();
  private readonly lookups = new Map<string, { startedAt: number; promise: Promise<ClientState> }>();
  /** Hash of a throw-away secret, so unknown client ids cost the same time as wrong secrets. */
  private readonly decoyHash: Promise<string>;

  constructor(
    private readonly repository: TenancyRepository,
    private readonly config: AppConfig,
  ) {
    this.decoyHash = argon2.hash(randomBytes(32).toString('base64url'), ARGON2_OPTIONS);
  }

  hashSecret(secret: string): Promise<string> {
    return argon2.hash(secret, ARGON2_OPTIONS);
  }

  /** Null for unknown client, wrong secret or disabled client; the caller answers 401 alike. */
  async verifyCredentials(clientId: string, clientSecret: string): Promise<VerifiedClient | null> {
    const client = await this.repository.findClientForAuthentication(clientId);
    if (!client) {
      await argon2.verify(await this.decoyHash, clientSecret).catch(() => false);
      return null;
    }
    const secretMatches = await argon2.verify(client.secretHash, clientSecret).catch(() => false);
    if (!secretMatches || client.disabled) return null;
    if (client.tenant.isSandbox && this.config.isProduction) return null;
    void this.repository.updateClient(clientId, { lastUsedAt: new Date() }).catch(() => undefined);
    return {
      clientId: client.clientId,
      tenantId: client.tenantId,
      scopes: grantedScopes(client),
      secretGeneration: client.secretGeneration,
    };
  }

  /**
   * state() from memory only: undefined when the answer is not cached (or too old). An answer in
   * its last CLIENT_STATE_REFRESH_AHEAD_MS is refreshed in the background (one lookup per client
   * at a time), so a client that keeps calling finds it current and never waits for the
   * database: without it, every CLIENT_STATE_CACHE_MS all of a busy client's requests in flight
   * went to the database at once.
   */
  knownState(clientId: string, now = Date.now()): ClientState | undefined {
    const cached = this.activeCache.get(clientId);
    if (!cached) return undefined;
    const age = now - cached.checkedAt;
    if (age >= CLIENT_STATE_CACHE_MS) return undefined;
    // In the background: never a second lookup while one is in flight, however old.
    if (age >= CLIENT_STATE_CACHE_MS - CLIENT_STATE_REFRESH_AHEAD_MS && !this.lookups.has(clientId))
      void this.lookup(clientId, now).catch(() => undefined);
    return cached;
  }

  /**
   * Checked on every authenticated request so a disabled client's live tokens, and tokens issued
   * before a secret rotation, stop working.
   */
  async state(clientId: string, now = Date.now()): Promise<ClientState> {
    return this.knownState(clientId, now) ?? this.lookup(clientId, now);
  }

  /**
   * The client's state from the database, remembered as checked at `now` (when it was asked);
   * concurrent lookups of one client share one query, unless it has been in flight for
   * CLIENT_LOOKUP_SHARED_MS or more (then this one replaces it). A lookup overtaken by `forget` (a
   * disable or rotation on this instance) or by a newer lookup answers its caller but is not
   * remembered.
   */
  private lookup(clientId: string, now: number): Promise<ClientState> {
    const inFlight = this.lookups.get(clientId);
    if (inFlight && now - inFlight.startedAt < CLIENT_LOOKUP_SHARED_MS) return inFlight.promise;
    const entry = { startedAt: now, promise: undefined as unknown as Promise<ClientState> };
    entry.promise = this.repository
      .findClientForAuthentication(clientId)
      .then((client) => {
        const active = !!client && !client.disabled && !(client.tenant.isSandbox && this.config.isProduction);
        const state = { active, secretGeneration: client?.secretGeneration ?? 0, checkedAt: now };
        if (this.lookups.get(clientId) === entry) this.activeCache.set(clientId, state);
        return state;
      })
      .finally(() => {
        if (this.lookups.get(clientId) === entry) this.lookups.delete(clientId);
      });
    this.lookups.set(clientId, entry);
    return entry.promise;
  }

  /** This instance asks the database again at the client's next request. */
  private forget(clientId: string): void {
    this.activeCache.delete(clientId);
    this.lookups.delete(clientId);
  }

  /**
   * Scopes default to `admin` in an operator tenant and `partner` elsewhere. The admin scope is
   * refused for a client of a partner tenant (design §3: admin clients belong to the operator).
   */
  async createClient(
    tenantSlug: string,
    scopes: ClientScope[] | undefined,
    clientId?: string,
  ): Promise<IssuedSecret> {
    const tenant = await this.repository.findTenantBySlug(tenantSlug);
    if (!tenant) throw unknownTenant(tenantSlug);
    const unknownScopes = (scopes ?? []).filter((scope) => !CLIENT_SCOPES.includes(scope));
    if (unknownScopes.length > 0 || scopes?.length === 0)
      throw DomainError.validation(
        'scopes',
        `scopes must be a non-empty list of: ${CLIENT_SCOPES.join(', ')}${unknownScopes.length ? ` (unknown: ${unknownScopes.join(', ')})` : ''}`,
      );
    scopes = scopes ? [...new Set(scopes)] : undefined;
    scopes ??= tenant.kind === 'operator' ? ['admin'] : ['partner'];
    if (scopes.includes('admin') && tenant.kind !== 'operator')
      throw DomainError.validation(
        'scopes',
        `The admin scope is only for clients of an operator tenant; "${tenant.slug}" is a partner tenant (create one with: tenant create <slug> --operator).`,
      );
    const id = clientId ?? `${tenant.slug}-${randomBytes(6).toString('hex')}`;
    if (!CLIENT_ID_PATTERN.test(id))
      throw DomainError.validation('clientId', 'clientId must be 3-128 characters of A-Z a-z 0-9 . _ -');
    const clientSecret = randomBytes(32).toString('base64url');
    noteAuditSubject({ tenantId: tenant.id, tenantSlug: tenant.slug });
    const inserted = await this.repository.insertClientIfAbsent({
      id: randomUUID(),
      tenantId: tenant.id,
      clientId: id,
      secretHash: await this.hashSecret(clientSecret),
      scopes,
    });
    if (!inserted) {
      const message = `clientId "${id}" already exists.`;
      throw new DomainError(ErrorCode.Conflict, message, { clientId: [message] });
    }
    return { clientId: id, tenantId: tenant.id, scopes, clientSecret };
  }

  /** Every client of one tenant, or of all tenants without `tenantSlug`; never a secret. */
  async listClients(tenantSlug?: string): Promise<ClientSummary[]> {
    const tenants = new Map((await this.repository.listTenants()).map((t) => [t.id, t]));
    if (tenantSlug === undefined)
      return (await this.repository.adminListAllClients()).map((c) => summarize(c, tenants.get(c.tenantId)));
    const tenant = [...tenants.values()].find((t) => t.slug === tenantSlug);
    if (!tenant) throw unknownTenant(tenantSlug);
    return (await this.repository.listClients(tenant.id)).map((c) => summarize(c, tenant));
  }

  async getClient(clientId: string, options: ClientLookup = {}): Promise<ClientSummary> {
    const client = await this.findInScope(clientId, options);
    return summarize(client, client.tenant);
  }

  async rotateSecret(clientId: string, options: ClientLookup = {}): Promise<IssuedSecret> {
    const client = await this.findInScope(clientId, options);
    noteAuditSubject({ tenantId: client.tenantId, tenantSlug: client.tenant.slug });
    const clientSecret = randomBytes(32).toString('base64url');
    await this.repository.rotateClientSecret(clientId, await this.hashSecret(clientSecret), new Date());
    // This instance refuses the old tokens at once; others within CLIENT_STATE_CACHE_MS.
    this.forget(clientId);
    return { clientId, tenantId: client.tenantId, scopes: client.scopes, clientSecret };
  }

  /**
   * Disables (its live tokens stop working) or re-enables a client. `actingClientId`: the admin
   * client making the request may not disable itself (409), so an admin cannot lock out the very
   * session it would need to undo the mistake. A disable also moves the client to its next secret
   * generation, as a rotation does: a client disabled after a leak and enabled again does not
   * bring back the tokens issued before the disable (the `sgen` claim is compared, not `iat`,
   * whose whole seconds could not tell a token from the same second apart). Its secret is kept.
   */
  async setDisabled(
    clientId: string,
    disabled: boolean,
    options: ClientLookup & { actingClientId?: string } = {},
  ): Promise<ClientSummary> {
    const client = await this.findInScope(clientId, options);
    if (disabled && options.actingClientId === client.clientId)
      throw new DomainError(
        ErrorCode.Conflict,
        `Client "${clientId}" is the client this request is authenticated with; disable it with another admin client or the CLI.`,
      );
    noteAuditSubject({ tenantId: client.tenantId, tenantSlug: client.tenant.slug });
    const updated = await this.repository.setClientDisabled(clientId, disabled);
    if (!updated) throw DomainError.notFound(`Client "${clientId}"`);
    this.forget(clientId);
    return summarize({ ...client, disabled }, client.tenant);
  }

  private async findInScope(
    clientId: string,
    options: ClientLookup,
  ): Promise<ApiClientEntity & { tenant: TenantEntity }> {
    if (options.tenant !== undefined && !(await this.repository.findTenantBySlug(options.tenant)))
      throw unknownTenant(options.tenant);
    const client = CLIENT_ID_PATTERN.test(clientId)
      ? await this.repository.findClientForAuthentication(clientId)
      : null;
    if (!client || (options.tenant !== undefined && client.tenant.slug !== options.tenant))
      throw DomainError.notFound(`Client "${clientId}"`);
    return client;
  }
}

function unknownTenant(slug: string): DomainError {
  return DomainError.validation('tenant', `Tenant "${slug}" does not exist.`);
}

function summarize(client: ApiClientEntity, tenant: TenantEntity | undefined): ClientSummary {
  return {
    clientId: client.clientId,
    tenantId: client.tenantId,
    tenant: tenant?.slug ?? client.tenantId,
    scopes: client.scopes,
    disabled: client.disabled,
    createdAt: client.createdAt,
    lastUsedAt: client.lastUsedAt,
    secretRotatedAt: client.secretRotatedAt,
  };
}

/**
 * The scopes a token may carry: `admin` only for a client of an operator tenant, so an admin
 * client left in a partner tenant (created before operator tenants existed) keeps its partner
 * scope but never acts on other tenants.
 */
function grantedScopes(client: { scopes: ClientScope[]; tenant: TenantEntity }): ClientScope[] {
  return client.tenant.kind === 'operator'
    ? client.scopes
    : client.scopes.filter((scope) => scope !== 'admin');
}
