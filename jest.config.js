import { BACKEND_INDEPENDENT, specFilesByTier } from './test/jest/tiers.js';

/**
 * One Jest project a tier (test/jest/tiers.js says which file is in which and why):
 * `npx jest --selectProjects domain` runs one; `npm run test:<tier>` does the same.
 * TEST_SELECTION=db (`npm run test:db`, the PostgreSQL pass) keeps the files whose behaviour can
 * depend on the database: service, e2e and process, minus the few that are backend-independent.
 */
const DB_ONLY = process.env.TEST_SELECTION === 'db';
const COLORS = { domain: 'green', unit: 'cyan', service: 'blue', e2e: 'magenta', process: 'yellow' };

/** Jest runs in native ESM mode: NestJS 12 packages are ESM-only. */
const project = {
  // Node's, with one compiled pglite.wasm per worker for every file (test/jest/pglite-environment.cjs).
  testEnvironment: '<rootDir>/test/jest/pglite-environment.cjs',
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // Transpile only (SWC): types are checked once over the whole tree by `npm run typecheck`
  // (tsc --noEmit), not per file in every worker. NestJS reads constructor parameter types from
  // decorator metadata, so legacy decorators with emitted metadata, as tsconfig.json has them.
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  resolver: '<rootDir>/test/jest/resolver.cjs',
  setupFilesAfterEnv: ['<rootDir>/test/jest/esm-bridge.setup.ts'],
};

export default {
  projects: Object.entries(specFilesByTier())
    .filter(([tier]) => !DB_ONLY || ['service', 'e2e', 'process'].includes(tier))
    .map(([tier, files]) => ({
      ...project,
      displayName: { name: tier, color: COLORS[tier] },
      // Domain code imports no framework (lint rule): no need to load NestJS for the ESM bridge.
      ...(tier === 'domain' ? { setupFilesAfterEnv: [] } : {}),
      testMatch: files
        .filter((f) => !DB_ONLY || !BACKEND_INDEPENDENT.includes(f))
        .map((f) => `<rootDir>/${f}`),
    })),
  // Jest's own output and summary, and a line a finished file with done/total and time left.
  reporters: ['default', '<rootDir>/test/jest/progress-reporter.js'],
  // Hooks too: an application's start (migrated template, sandbox seed, a token) took over 60 s
  // once on a slow 2-core host with two suites at once (2026-11-24, ninth session).
  testTimeout: 120000,
  maxWorkers: 2,
  // Each test file loads the application's ES modules into its worker anew, and Jest cannot unload
  // them: a worker's heap grew ~25 MB a file (1.4 GB after 24 e2e files) and its files ran 2-4x
  // slower than alone. A worker past this after a file is replaced (48 e2e files: 390 -> 280 s).
  workerIdleMemoryLimit: '600MB',
};
