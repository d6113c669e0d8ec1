/**
 * Makes the embedded database template (pglite-template.ts) for this tree's migrations unless it
 * exists: a fresh cluster with every migration applied and the job queue's (pg-boss) schema
 * installed, dumped with PGlite's `dumpDataDir`. Used
 * by the build's postbuild step (pglite-template-cli.ts) and by the test suite, whose in-memory
 * databases then start from it instead of creating a cluster and applying every migration each
 * time (test/support/test-app.ts).
 */
import 'reflect-metadata';
import { PGlite } from '@electric-sql/pglite';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgBoss } from 'pg-boss';
import { DataSource } from 'typeorm';
import { DEFAULT_JOBS_SCHEMA } from '../config/app-config.js';
import { jobQueueDb } from '../modules/jobs/job-queue-db.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { TEMPLATE_DIRECTORY, templateFileName } from './pglite-template.js';

export interface TemplateOutcome {
  readonly name: string;
  /** Undefined when it existed already. */
  readonly made?: { readonly ms: number; readonly migrations: number };
}

export async function ensurePGliteTemplate(): Promise<TemplateOutcome> {
  const name = templateFileName();
  const target = join(TEMPLATE_DIRECTORY, name);
  if (existsSync(target)) return { name };
  mkdirSync(TEMPLATE_DIRECTORY, { recursive: true });
  const startedAt = Date.now();
  const scratch = mkdtempSync(join(tmpdir(), 'cass-template-'));
  try {
    const dataSource = new DataSource(
      buildDataSourceOptions({
        DATABASE_URL: undefined,
        DATABASE_SCHEMA: undefined,
        DATA_DIR: scratch,
        DATABASE_POOL_SIZE: 1,
        DATABASE_TIMEOUT_MS: 60_000,
      }),
    );
    await dataSource.initialize();
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    // The job queue's schema (docs/jobs.md), as pg-boss installs it at a first start.
    const boss = new PgBoss({
      db: jobQueueDb(dataSource),
      schema: DEFAULT_JOBS_SCHEMA,
      backend: 'pglite',
      supervise: false,
      schedule: false,
      registerInstance: false,
      openTelemetry: { enabled: false },
    });
    await boss.start();
    await boss.stop({ graceful: false, close: false });
    await dataSource.destroy();
    const db = await PGlite.create(join(scratch, 'pglite'));
    const dump = await db.dumpDataDir('gzip');
    await db.close();
    const partial = `${target}.${process.pid}.${Date.now()}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, target); // complete or absent, never half-written (two makers: the last wins)
    for (const other of readdirSync(TEMPLATE_DIRECTORY).filter(
      (file) => file.startsWith('pglite-') && file !== name && !file.endsWith('.partial'),
    ))
      rmSync(join(TEMPLATE_DIRECTORY, other), { force: true });
    return { name, made: { ms: Date.now() - startedAt, migrations: applied.length } };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
