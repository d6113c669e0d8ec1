import pg from 'pg';
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

/** Rows streamSql parses at most (and the rest of the socket read it is in) before the event loop gets a turn. */
const STREAM_TURN_ROWS = 500;

/**
 * Runs a SELECT through `manager` as runSql does, handing each row to `onRow` as node-postgres
 * parses it off the socket (no array of every row, no pass over them all at the end: the event
 * loop gets its turns between the socket's reads). PostgreSQL only: on the embedded database
 * (PGlite answers a statement whole) it runs nothing and answers null, for the caller's own way.
 * Otherwise the number of rows. An error thrown by `onRow` fails the call once the query ends.
 */
export async function streamSql<T>(
  manager: EntityManager,
  text: string,
  params: readonly unknown[],
  onRow: (row: T) => void,
): Promise<number | null> {
  const runner = manager.queryRunner ?? manager.dataSource.createQueryRunner();
  try {
    const client: unknown = await runner.connect();
    if (!(client instanceof pg.Client)) return null;
    const query = new pg.Query(text, params as unknown[]);
    // libuv reads a socket up to 32 times in one turn of the loop: a fast server's megabyte of
    // rows would be parsed in one go (75 ms for 10,000 rows). Pausing the socket every
    // STREAM_TURN_ROWS rows leaves the rest in the kernel until the next turn.
    const { stream } = (client as unknown as { connection: { stream: NodeJS.ReadableStream } }).connection;
    let paused = false;
    const resume = () => {
      paused = false;
      stream.resume();
    };
    let rows = 0;
    let failure: unknown = null;
    return await new Promise<number>((resolve, reject) => {
      // With a 'row' listener and no callback, node-postgres keeps no array of the rows.
      query.on('row', (row: T) => {
        if (failure !== null) return;
        try {
          onRow(row);
          rows++;
        } catch (error) {
          failure = error;
        }
        if (rows % STREAM_TURN_ROWS === 0 && !paused) {
          paused = true;
          stream.pause();
          setImmediate(resume);
        }
      });
      query.on('error', reject);
      query.on('end', () => (failure === null ? resolve(rows) : reject(failure)));
      client.query(query);
    });
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}
