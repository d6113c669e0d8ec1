/**
 * Fetch with timeout, the refresh engine's second step: calls the account's connector outside any
 * database transaction, collects its pages, checks every transaction (source-transaction.rules)
 * and gives up after the connector's timeout. Never touches the database.
 */
import { Injectable } from '@nestjs/common';
import { ConnectorRegistry } from '../connectors/connector.registry.js';
import type { ConnectorResult, SourceTransaction } from '../connectors/source-connector.js';
import {
  canonicalSourceTransaction,
  checkSourceTransaction,
} from '../connectors/source-transaction.rules.js';
import { CredentialsCipher } from '../credentials/credentials-cipher.js';
import type { AccountHistory, SyncAccount } from '../../ledger/index.js';

/** Retry delay for a source that is still preparing the history without saying when it is ready. */
const PENDING_RETRY_MS = 60_000;

export type FetchedHistory = AccountHistory;

/** The source sent something that cannot be stored: the refresh fails, the old data stays. */
export class InvalidSourceDataError extends Error {
  override name = 'InvalidSourceDataError';
}

@Injectable()
export class SourceFetcher {
  constructor(
    private readonly connectors: ConnectorRegistry,
    private readonly cipher: CredentialsCipher,
  ) {}

  /** The source's transactions arrive only by import (SourceDescription.importOnly). */
  importOnly(source: string): boolean {
    return this.connectors.has(source) && this.connectors.describe(source).importOnly === true;
  }

  /** Calls the connector with a timeout and collects its pages; no database transaction is open. */
  async fetch(account: SyncAccount, now: Date): Promise<FetchedHistory | { pending: Date }> {
    const connector = this.connectors.get(account.source);
    const timeoutMs = this.connectors.timeoutOf(account.source);
    const credentials = account.credentialsEncrypted
      ? await this.cipher.decrypt(account.id, account.credentialsEncrypted)
      : null;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new Error(`The source did not answer within ${timeoutMs / 1000} s.`));
      }, timeoutMs);
      timer.unref?.();
    });
    const collect = async (): Promise<FetchedHistory | { pending: Date }> => {
      const result: ConnectorResult = await connector.fetch({
        account: {
          id: account.id,
          tenantId: account.tenantId,
          platform: account.platform,
          identity: account.identity,
          address: account.address,
          chain: account.chain,
          createdOn: account.createdOn,
          lastSyncedAt: account.lastSyncedAt,
          sourceOptions: account.sourceOptions,
        },
        credentials,
        now,
        signal: abort.signal,
      });
      if (result.status === 'pending') {
        const retryAt =
          result.retryAt && result.retryAt > now
            ? result.retryAt
            : new Date(now.getTime() + PENDING_RETRY_MS);
        return { pending: retryAt };
      }
      const transactions: SourceTransaction[] = [];
      const seen = new Set<string>();
      for await (const page of result.pages) {
        for (const tx of page) {
          const problems = checkSourceTransaction(tx, now);
          if (problems.length > 0) {
            throw new InvalidSourceDataError(
              `The source sent an invalid transaction ${JSON.stringify(String(tx.transactionId).slice(0, 80))}: ` +
                problems.map((p) => `${p.field} ${p.message}`).join('; '),
            );
          }
          if (seen.has(tx.transactionId))
            throw new InvalidSourceDataError(`The source sent transaction ${tx.transactionId} twice.`);
          seen.add(tx.transactionId);
          transactions.push(canonicalSourceTransaction(tx));
        }
      }
      return { transactions, mode: result.mode, reportedBalances: result.reportedBalances };
    };
    try {
      return await Promise.race([collect(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
