/** Jest runs in native ESM mode: NestJS 12 packages are ESM-only. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
  },
  resolver: '<rootDir>/test/jest/resolver.cjs',
  setupFilesAfterEnv: ['<rootDir>/test/jest/esm-bridge.setup.ts'],
  // Hooks too: an application's start (migrated template, sandbox seed, a token) took over 60 s
  // once on a slow 2-core host with two suites at once (2026-11-24, ninth session).
  testTimeout: 120000,
  maxWorkers: 2,
};
