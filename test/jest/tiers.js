/**
 * The test tiers: every spec file belongs to exactly one. jest.config.js makes one Jest project of
 * each, so `npm run test:<tier>` (or `npx jest --selectProjects <tier>`) runs one tier alone, and
 * `node test/jest/tiers.js` lists them with their files. README.md, "Tests", says what each is for
 * and how long it takes.
 *
 *   domain   src/domain/**: pure rules (tax, cost basis, scores, checksums), no I/O. Milliseconds a test.
 *   unit     other specs that need no database and no application: guards, connectors against fakes,
 *            config parsing, the SDK with a fake fetch, lint-like checks over the source tree.
 *   service  a real database (PGlite, or PostgreSQL with DATABASE_URL) or Redis, the module under test
 *            and no HTTP: test/services/** and the few files listed in SERVICE below.
 *   e2e      test/**\/*.e2e-spec.ts: the application in-process over HTTP (supertest), one start a file.
 *   process  the built service or CLI (dist/, built by `pretest`) run as child processes: startup,
 *            shutdown, signals, logs, CLIs. Listed in PROCESS below (a guard keeps the list complete).
 *
 * `npm run test:db` (the PostgreSQL pass in .ci/run) runs service, e2e and process minus
 * BACKEND_INDEPENDENT: every file whose behaviour can depend on which database it runs against.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const TIER_NAMES = ['domain', 'unit', 'service', 'e2e', 'process'];

/** Specs outside test/services that use a real database or Redis without HTTP. */
const SERVICE = [
  'src/database/pglite-driver.spec.ts',
  'test/migrations.e2e-spec.ts',
  'test/rate-limit-storage.e2e-spec.ts',
];

/** Specs that start the built service (startService) or run the built CLI (run) as child processes. */
const PROCESS = [
  'test/admin-cli.e2e-spec.ts',
  'test/faults-sigkill.e2e-spec.ts',
  'test/logging-process.e2e-spec.ts',
  'test/pglite-template.e2e-spec.ts',
  'test/process.e2e-spec.ts',
  'test/runtime.e2e-spec.ts',
  'test/tracing.e2e-spec.ts',
  'test/webhooks.e2e-spec.ts',
];

/** Files of service/e2e/process whose behaviour is the same on either database: not in test:db. */
export const BACKEND_INDEPENDENT = [
  'src/database/pglite-driver.spec.ts', // the PGlite adapter itself
  'test/logging-process.e2e-spec.ts', // the log lines' format on a pipe and on a terminal
  'test/pglite-template.e2e-spec.ts', // the embedded database's template (skips on PostgreSQL)
  'test/runtime.e2e-spec.ts', // Node version refusal, before any database
];

/** A file that imports these from test/support/process.ts spawns the service or the CLI. */
const SPAWNS =
  /import\s*\{[^}]*\b(startService|run|DIST_MAIN|DIST_CLI)\b[^}]*\}\s*from\s*'(?:\.\.?\/)+support\/process\.js'/;

/** Spec files under a folder, relative to the repository (node_modules and dotfiles skipped). */
function specsUnder(folder) {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(spec|e2e-spec)\.ts$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/'))
    .filter((f) => !f.split('/').some((part) => part === 'node_modules' || part.startsWith('.')));
}

function tierOf(file) {
  if (file.startsWith('src/domain/')) return 'domain';
  if (PROCESS.includes(file)) return 'process';
  if (file.startsWith('test/services/') || SERVICE.includes(file)) return 'service';
  if (file.endsWith('.e2e-spec.ts')) return 'e2e';
  return 'unit';
}

/** Every spec file (paths relative to the repository) by tier. */
export function specFilesByTier() {
  const files = [...specsUnder('src'), ...specsUnder('test')].sort();
  const byTier = Object.fromEntries(TIER_NAMES.map((t) => [t, []]));
  const unlisted = [];
  for (const file of files) {
    const tier = tierOf(file);
    if (tier !== 'process' && SPAWNS.test(readFileSync(join(ROOT, file), 'utf8'))) unlisted.push(file);
    byTier[tier].push(file);
  }
  if (unlisted.length > 0) {
    throw new Error(
      `${unlisted.join(', ')} start the built service or CLI (test/support/process.ts): ` +
        'add them to PROCESS in test/jest/tiers.js, so that `npm run test:process` runs them ' +
        'and an interrupted run stops their children.',
    );
  }
  for (const listed of [...SERVICE, ...PROCESS, ...BACKEND_INDEPENDENT]) {
    if (!files.includes(listed))
      throw new Error(`test/jest/tiers.js lists ${listed}, which no longer exists`);
  }
  return byTier;
}

// `node test/jest/tiers.js`: the tiers and their files.
if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  for (const [tier, files] of Object.entries(specFilesByTier())) {
    console.log(`${tier} (${files.length} files)`);
    for (const f of files)
      console.log(`  ${f}${BACKEND_INDEPENDENT.includes(f) ? '  (not in test:db)' : ''}`);
  }
}
