/**
 * `npm run build`'s postbuild step: makes the embedded database template for this build's
 * migrations (pglite-template.ts) unless it exists already, and removes templates of other
 * migrations. About 4 s when the migrations changed; a hash of a few files otherwise.
 * Prints one line, on stderr (`npm run cli` builds first, and its stdout is the CLI's output). Never fails the build: without a template the service starts as before.
 */
import 'reflect-metadata';
import { PGlite } from '@electric-sql/pglite';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgBoss } from 'pg-boss';
import { DataSource } from 'typeorm';
import { DEFAULT_JOBS_SCHEMA } from '../config/app-config.js';
import { jobQueueDb } from '../modules/jobs/job-queue-db.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { TEMPLATE_DIRECTORY, templateFileName } from './pglite-template.js';

async function main(): Promise<void> {
  const name = templateFileName();
  const target = join(TEMPLATE_DIRECTORY, name);
  mkdirSync(TEMPLATE_DIRECTORY, { recursive: true });
  const existing = readdirSync(TEMPLATE_DIRECTORY);
  if (existing.includes(name)) {
    console.error(`Embedded database template up to date (${name}).`);
    return;
  }
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
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, target); // complete or absent, never half-written
    for (const other of existing.filter((file) => file.startsWith('pglite-') && file !== name))
      rmSync(join(TEMPLATE_DIRECTORY, other), { force: true });
    console.error(
      `Embedded database template made in ${Date.now() - startedAt} ms: ${applied.length} migrations (${name}).`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  // A build without a template still works (the database is created at first start, as before).
  console.warn(
    `Embedded database template not made: ${error instanceof Error ? error.message : String(error)}`,
  );
});
