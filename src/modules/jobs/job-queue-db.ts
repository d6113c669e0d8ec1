/**
 * pg-boss's database over the service's own DataSource (docs/jobs.md, "One database"): pg-boss
 * needs only `executeSql(text, values)`, so it runs on the connections the rest of the service
 * uses, on both backends, without a pool or a server of its own.
 *
 * - Postgres: the TypeORM pg pool. pg-boss's multi-statement blocks (BEGIN … COMMIT, no
 *   parameters) go out as one simple-protocol query on one pooled client, as with pg-boss's own pool.
 * - PGlite: one in-process session behind the driver's mutex (pglite-driver.ts). Each statement
 *   holds the session like any pool client, so it never lands inside a TypeORM transaction; a
 *   multi-statement block runs through `exec` and its rows are flattened (a RETURNING before the
 *   COMMIT is kept); a failed block is rolled back before the session is handed on.
 *   Never send a job from inside a TypeORM transaction on PGlite: the send would wait for the
 *   session the transaction holds.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { DataSource } from 'typeorm';

export interface JobQueueDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

interface PgPoolLike {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

interface EmbeddedPoolLike {
  exclusive<T>(fn: (db: PGlite) => Promise<T>): Promise<T>;
}

/** Same representations as the rest of the service (pglite-driver.ts): int8 and numeric as text. */
const PARSERS = { 20: (v: string) => v, 1700: (v: string) => v };

/** The connections are looked up per statement: the CLI opens its DataSource only when a command runs. */
export function jobQueueDb(dataSource: DataSource): JobQueueDb {
  const master = () => (dataSource.driver as unknown as { master: unknown }).master;
  return {
    executeSql: async (text, values) => {
      const pool = master();
      if (typeof (pool as Partial<EmbeddedPoolLike>).exclusive === 'function')
        return (pool as EmbeddedPoolLike).exclusive(async (db) => {
          try {
            if (values && values.length > 0) return await db.query(text, values, { parsers: PARSERS });
            const results = await db.exec(text, { parsers: PARSERS });
            return { rows: results.flatMap((r) => r.rows ?? []) };
          } catch (error) {
            // The session is this statement's alone until we return: an aborted block must not
            // poison the next holder. ROLLBACK outside a transaction is only a warning.
            await db.query('ROLLBACK').catch(() => undefined);
            throw error;
          }
        });
      return (await (pool as PgPoolLike).query(text, values)) as { rows: any[] }; // eslint-disable-line @typescript-eslint/no-explicit-any
    },
  };
}
