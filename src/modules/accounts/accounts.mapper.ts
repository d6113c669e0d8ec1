/** Account records → response DTOs. */
import type {
  AccountCollectionDto,
  AccountReviewDto,
  AccountIdentityDto,
  AccountListItemDto,
  AccountStateDto,
} from './dto/account-responses.dto.js';
import type { AdminAccountDto } from './dto/admin-accounts.dto.js';
import type { AccountRecord } from './account-record.js';

export function toState(account: AccountRecord): AccountStateDto {
  return {
    syncStatus: account.syncStatus,
    connectionStatus: account.connectionStatus,
    balanceSource: account.balanceSource,
    lastSyncedAt: account.lastSyncedAt?.toISOString() ?? null,
  };
}

/** The account's reconciliation review, or null when it needs none. */
export function toReview(account: AccountRecord): AccountReviewDto | null {
  if (account.reviewReason === null) return null;
  return {
    status: 'needs_review',
    reason: account.reviewReason,
    since: (account.reviewSince ?? account.lastSyncedAt ?? account.createdOn).toISOString(),
  };
}

export function toCollectionResult(account: AccountRecord): AccountCollectionDto {
  return {
    accountId: account.id,
    collectionId: account.collectionId,
    platform: account.platform,
    createdOn: account.createdOn.toISOString(),
    ...toState(account),
  };
}

export function toIdentityResult(account: AccountRecord): AccountIdentityDto {
  return {
    accountId: account.id,
    identity: account.identity,
    platform: account.platform,
    ...toState(account),
  };
}

export function toListItem(account: AccountRecord): AccountListItemDto {
  return {
    accountId: account.id,
    collectionId: account.collectionId,
    identity: account.identity,
    platform: account.platform,
    address: account.address,
    chain: account.chain,
    createdOn: account.createdOn.toISOString(),
    ...toState(account),
  };
}

export function toAdminAccount(account: AccountRecord, tenantSlug: string): AdminAccountDto {
  return {
    ...toListItem(account),
    tenant: tenantSlug,
    source: account.source,
    hasCredentials: account.credentialsEncrypted !== null,
    nextRefreshAt: account.nextRefreshAt?.toISOString() ?? null,
    lastRefreshAttemptAt: account.lastRefreshAttemptAt?.toISOString() ?? null,
    lastError: account.lastError,
    refreshFailures: account.refreshFailures,
    review: toReview(account),
  };
}
