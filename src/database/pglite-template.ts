/**
 * A new embedded database starts from a template (issue 16, start-up).
 *
 * Creating a PGlite cluster (initdb, in WebAssembly) and applying every migration was half of a
 * first start: 3.0 of 6.0 s to ready on a quiet machine, the service's own seeding 1.8 s. The
 * build (`npm run build`, its `postbuild` step: pglite-template-cli.ts) makes the template once per
 * set of migrations and PGlite version: a fresh cluster with every migration applied, dumped with
 * PGlite's `dumpDataDir`. A data directory that holds no cluster yet, and an in-memory database,
 * is then unpacked from it (~0.5–0.7 s) and the start finds no migration pending. The test suite
 * makes one for the source tree's migrations (`pglite-template/`, test/support/test-app.ts).
 *
 * The template holds the schema and the migrations' own rows only (and the job queue's empty
 * `pgboss` schema, which pg-boss would otherwise install at the first start, ~6 s on PGlite): no signing keys, secrets,
 * tenants or sandbox data (those are made at start-up, per data directory, as before). Its name
 * carries a hash of the migration files and of PGlite's version, so a template from other
 * migrations is never used; without a matching template (a tree compiled with tsc alone) the
 * database is created as before. It is an optimisation, never a requirement, and the start still
 * runs the migrations (none pending), so even a wrong template could not leave one unapplied.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `dist/pglite-template/` in a build (the source tree's `pglite-template/` under Jest). */
export const TEMPLATE_DIRECTORY = fileURLToPath(new URL('../../pglite-template/', import.meta.url));
const MIGRATIONS_DIRECTORY = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** The template's file name for the migrations and PGlite version this build holds. */
export function templateFileName(): string {
  const hash = createHash('sha256');
  hash.update(`pglite ${packageVersion('@electric-sql/pglite')}\n`);
  // The job queue's schema (pg-boss installs it; docs/jobs.md) is in the template too.
  hash.update(`pg-boss ${packageVersion('pg-boss')}\n`);
  const files = readdirSync(MIGRATIONS_DIRECTORY)
    .filter((name) => /\.(js|ts)$/.test(name) && !name.endsWith('.d.ts'))
    .sort();
  for (const name of files) {
    hash.update(`${name}\n`);
    hash.update(readFileSync(join(MIGRATIONS_DIRECTORY, name)));
  }
  return `pglite-${hash.digest('hex').slice(0, 20)}.tar.gz`;
}

export function templatePath(): string {
  return join(TEMPLATE_DIRECTORY, templateFileName());
}

/** Whether `dataDir` holds a cluster already (PostgreSQL writes PG_VERSION at its top). */
export function holdsCluster(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

/**
 * The template to start a new database from: for a data directory that holds no cluster yet, or
 * for an in-memory database (`dataDir` undefined), when a template for these migrations exists;
 * otherwise undefined (PGlite creates or opens the cluster itself).
 */
export function templateFor(dataDir: string | undefined): Blob | undefined {
  if (dataDir !== undefined && holdsCluster(dataDir)) return undefined;
  try {
    const path = templatePath();
    if (!existsSync(path)) return undefined;
    // In-memory databases (tests) start often: the file is read once per process.
    if (cached?.path !== path) cached = { path, blob: new Blob([readFileSync(path)]) };
    return cached.blob;
  } catch {
    return undefined; // no migrations directory to hash (an unusual install): create as before
  }
}

let cached: { path: string; blob: Blob } | undefined;

function packageVersion(name: string): string {
  // Packages need not export their package.json: find it above the resolved entry point.
  let directory = dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    const candidate = join(directory, 'package.json');
    if (existsSync(candidate)) {
      const manifest = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === name) return manifest.version ?? 'unknown';
    }
    const parent = dirname(directory);
    if (parent === directory) return 'unknown';
    directory = parent;
  }
}
