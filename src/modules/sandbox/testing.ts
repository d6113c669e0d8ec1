/**
 * For tests only (the lint rule lets test/ import it, never src/): the seeder, to run its steps
 * again on a database a test changed (test/services/operator-migration.service.spec.ts).
 */
export { SandboxSeeder } from './sandbox-seeder.service.js';
