import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { asBulkRead } from './bulk-lane.js';
import { BULK_WAITS_AT_MOST, createPGliteDriverModule, SHARED_WASM_MODULE } from './pglite-driver.js';
import { ensurePGliteTemplate } from './pglite-template-maker.js';

interface WasmModuleClass {
  new (bytes: Uint8Array): object;
  exports(module: object): unknown[];
}

describe('PGlite driver adapter', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    const { Pool } = createPGliteDriverModule(undefined);
    dataSource = await new DataSource({ type: 'postgres', driver: { Pool }, entities: [] }).initialize();
    await dataSource.query('CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)');
    await dataSource.query('INSERT INTO counter VALUES (1, 0)');
  });
  afterAll(() => dataSource.destroy());

  it('returns values the way node-postgres does', async () => {
    const [row] = await dataSource.query(
      `SELECT 1.50::numeric AS n, 12::int8 AS big, '2024-01-02'::date AS d, now() AS ts`,
    );
    expect(row).toMatchObject({ n: '1.50', big: '12', d: '2024-01-02' });
    expect(row.ts).toBeInstanceOf(Date);
  });

  it('reports affected rows for UPDATE and DELETE', async () => {
    const result = await dataSource
      .createQueryBuilder()
      .update('counter')
      .set({ n: 0 })
      .where('id = 1')
      .execute();
    expect(result.affected).toBe(1);
  });

  it('runs concurrent transactions one after another, never interleaved in one session', async () => {
    // Each transaction reads, waits, then writes read+1. Interleaving would lose increments.
    const increment = () =>
      dataSource.transaction(async (manager) => {
        const [{ n }] = await manager.query('SELECT n FROM counter WHERE id = 1');
        await new Promise((resolve) => setTimeout(resolve, 5));
        await manager.query('UPDATE counter SET n = $1 WHERE id = 1', [n + 1]);
      });
    await Promise.all(Array.from({ length: 10 }, increment));
    const [{ n }] = await dataSource.query('SELECT n FROM counter WHERE id = 1');
    expect(n).toBe(10);
  });

  it('lets a short query go ahead of bulk reads waiting for the session, never starving them', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // A bulk read holds the session; a second waits; then short queries arrive.
    const first = asBulkRead(() =>
      dataSource.transaction(async (manager) => {
        await manager.query('SELECT 1');
        await held;
        order.push('bulk 1');
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = asBulkRead(() =>
      dataSource.transaction(async (manager) => {
        await manager.query('SELECT 1');
        order.push('bulk 2');
      }),
    );
    const shorts = Array.from({ length: BULK_WAITS_AT_MOST + 2 }, (_, i) =>
      dataSource.query('SELECT $1::int AS i', [i]).then(() => order.push(`short ${i}`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    await Promise.all([first, second, ...shorts]);
    // The bulk read in progress finishes; BULK_WAITS_AT_MOST short queries go next, then the
    // waiting bulk read, then the rest.
    expect(order).toEqual([
      'bulk 1',
      ...Array.from({ length: BULK_WAITS_AT_MOST }, (_, i) => `short ${i}`),
      'bulk 2',
      `short ${BULK_WAITS_AT_MOST}`,
      `short ${BULK_WAITS_AT_MOST + 1}`,
    ]);
  });

  it('rolls back a failed transaction and keeps serving', async () => {
    await expect(
      dataSource.transaction(async (manager) => {
        await manager.query('UPDATE counter SET n = 999 WHERE id = 1');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const [{ n }] = await dataSource.query('SELECT n FROM counter WHERE id = 1');
    expect(n).not.toBe(999);
  });

  it("in the test runner, opens every file's databases on the worker's one compiled pglite.wasm", () => {
    // test/jest/pglite-environment.cjs: compiled once per worker, never freed (nodejs/node#64500).
    const shared = (globalThis as Record<symbol, unknown>)[SHARED_WASM_MODULE] as object;
    // (WebAssembly has no type in this project's lib: ES2022, no DOM.)
    const { Module } = (globalThis as unknown as { WebAssembly: { Module: WasmModuleClass } }).WebAssembly;
    expect(shared).toBeInstanceOf(Module);
    expect(Module.exports(shared).length).toBeGreaterThan(100);
  });

  it('starts an in-memory database from the template, with every migration applied', async () => {
    await ensurePGliteTemplate();
    const { Pool } = createPGliteDriverModule(undefined);
    const pool = new Pool();
    const result = (await pool.query(`SELECT count(*)::int AS n FROM "migrations"`)) as {
      rows: { n: number }[];
    };
    expect(result.rows[0]!.n).toBeGreaterThan(0);
    await new Promise((resolve) => pool.end(resolve));
  });

  it('runs a statement sent just before the pool ends, then closes', async () => {
    const { Pool } = createPGliteDriverModule(undefined);
    const pool = new Pool();
    await pool.query('CREATE TABLE t (n int)');
    const sent = pool.query('INSERT INTO t VALUES (1) RETURNING n');
    const ended = new Promise<Error | null | undefined>((resolve) => pool.end(resolve));
    await expect(sent).resolves.toMatchObject({ rows: [{ n: 1 }] });
    expect(await ended).toBeNull();
    await expect(pool.query('SELECT 1')).rejects.toThrow(/closed/);
  });
});
