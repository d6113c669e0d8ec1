import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  DataSource,
  EntitySubscriberInterface,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import { currentAuditScope, isBookkeepingTransaction } from '../../common/audit/audit-scope.js';

/**
 * Appends an audited write's entry in the transaction that carries its change (common/audit/
 * audit-scope.ts): just before the first outermost transaction that wrote something commits while
 * the write's handler runs. "Wrote something" is the database's own answer: a transaction id has
 * been assigned (`txid_current_if_assigned()`), which happens at its first insert, update, delete
 * or row lock, and not for an insert skipped by ON CONFLICT DO NOTHING or an update of no row. So a
 * transaction that changed nothing never carries an entry that says it succeeded. If the entry
 * cannot be appended the transaction fails with it: a change is never committed without its
 * entry. Savepoints (nested transactions) and the audit trail's own transactions are left alone.
 */
@Injectable()
export class AuditTransactionSubscriber implements EntitySubscriberInterface {
  private readonly logger = new Logger('Audit');

  constructor(@InjectDataSource() dataSource: DataSource) {
    dataSource.subscribers.push(this);
  }

  async beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    const scope = currentAuditScope();
    const runner = event.queryRunner;
    if (!scope || scope.appended || scope.appending) return;
    if (outermostDepth(runner) !== 1 || isBookkeepingTransaction(runner)) return;
    scope.appending = runner;
    try {
      const [{ wrote }] = (await event.manager.query(
        'SELECT txid_current_if_assigned() IS NOT NULL AS "wrote"',
      )) as { wrote: boolean }[];
      if (!wrote || !(await scope.appendIn(event.manager))) scope.appending = null;
    } catch (error) {
      scope.appending = null;
      this.logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'could not append the audit entry of a write; its transaction is rolled back',
      );
      throw error;
    }
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const scope = currentAuditScope();
    if (scope?.appending === event.queryRunner && outermostDepth(event.queryRunner) === 0) {
      scope.appending = null;
      scope.appended = true;
    }
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    const scope = currentAuditScope();
    if (scope?.appending === event.queryRunner) scope.appending = null;
  }
}

/** The transaction depth of a TypeORM query runner (1 while the outermost transaction is open). */
function outermostDepth(runner: unknown): number {
  return (runner as { transactionDepth?: number }).transactionDepth ?? 1;
}
