import type { EntityManager } from 'typeorm';

export interface SqlResult<T> {
  rows: T[];
  affected: number;
}

/**
 * Runs raw SQL through `manager`: inside a transaction its own query runner (never another
 * connection: on PGlite that would wait for the transaction's own lock), else a pooled one.
 * Returns rows and affected count alike for SELECT, INSERT/UPDATE/DELETE ... RETURNING.
 */
export async function runSql<T = Record<string, unknown>>(
  manager: EntityManager,
  text: string,
  params: readonly unknown[] = [],
): Promise<SqlResult<T>> {
  const runner = manager.queryRunner ?? manager.dataSource.createQueryRunner();
  try {
    const result = await runner.query(text, params as unknown[], true);
    return { rows: (result.records ?? []) as T[], affected: result.affected ?? 0 };
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}
