/**
 * npm run migration:generate -- <PascalName> | migration:run | migration:revert
 * Generation diffs the entities against a scratch in-memory PGlite database with every migration
 * applied, so it never depends on the state of ./data or a server.
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app-config.js';
import { buildDataSourceOptions, configuredSchemaOf } from './data-source-options.js';
import { ensureSchema } from './ensure-schema.js';
import { diffEntitiesAgainstMigrations } from './schema-diff.js';
import { ENTITY_GROUPS, type EntityGroup } from './entities.js';

const escape = (sql: string) => sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

async function generate(name: string | undefined, group: string | undefined): Promise<void> {
  if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
    throw new Error('usage: npm run migration:generate -- <PascalCaseName> [--group <entity group>]');
  }
  if (group !== undefined && !(group in ENTITY_GROUPS)) {
    throw new Error(`Unknown entity group "${group}"; known: ${Object.keys(ENTITY_GROUPS).join(', ')}`);
  }
  // With --group, only core + that group: a module's migration never swallows another's tables.
  const entities = group ? [...ENTITY_GROUPS.core, ...ENTITY_GROUPS[group as EntityGroup]] : undefined;
  const diff = await diffEntitiesAgainstMigrations(
    { ...loadConfig(), DATABASE_URL: undefined, DATA_DIR: 'memory' },
    entities,
  );
  if (diff.up.length === 0) {
    console.log('No changes: entities and migrations agree.');
    return;
  }
  const timestamp = Date.now();
  const className = `${name}${timestamp}`;
  const fileBase = `${timestamp}-${name}`;
  const body = `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  public async up(queryRunner: QueryRunner): Promise<void> {
${diff.up.map((q) => `    await queryRunner.query(\`${escape(q)}\`);`).join('\n')}
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
${diff.down.map((q) => `    await queryRunner.query(\`${escape(q)}\`);`).join('\n')}
  }
}
`;
  const root = resolve(process.cwd(), 'migrations');
  writeFileSync(resolve(root, `${fileBase}.ts`), body);
  const indexPath = resolve(root, 'index.ts');
  const index = readFileSync(indexPath, 'utf8')
    .replace(
      /(import type \{ MigrationInterface \} from 'typeorm';\n)/,
      `$1import { ${className} } from './${fileBase}.js';\n`,
    )
    .replace(
      /export const MIGRATIONS: Array<new \(\) => MigrationInterface> = \[([^\]]*)\];/,
      (_m, list: string) => {
        const items = list
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        return `export const MIGRATIONS: Array<new () => MigrationInterface> = [${[...items, className].join(', ')}];`;
      },
    );
  writeFileSync(indexPath, index);
  execFileSync(
    process.execPath,
    [resolve(process.cwd(), 'node_modules/prettier/bin/prettier.cjs'), '--write', indexPath],
    { stdio: 'ignore' },
  );
  console.log(`Wrote migrations/${fileBase}.ts (${diff.up.length} statements).`);
}

async function withDataSource(action: (ds: DataSource) => Promise<void>): Promise<void> {
  const dataSource = new DataSource(buildDataSourceOptions(loadConfig()));
  await dataSource.initialize();
  try {
    await action(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

const [command, argument, ...rest] = process.argv.slice(2);
const groupFlag = rest.indexOf('--group');
const actions: Record<string, () => Promise<void>> = {
  generate: () => generate(argument, groupFlag >= 0 ? rest[groupFlag + 1] : undefined),
  run: () =>
    withDataSource(async (ds) => {
      // As the service's start does: a DATABASE_SCHEMA that does not exist yet is created first.
      await ensureSchema(ds, configuredSchemaOf(ds.options), { log: (message) => console.log(message) });
      const applied = await ds.runMigrations({ transaction: 'each' });
      console.log(applied.length ? `Applied: ${applied.map((m) => m.name).join(', ')}` : 'Nothing to apply.');
    }),
  revert: () => withDataSource((ds) => ds.undoLastMigration({ transaction: 'each' })),
};
const action = command ? actions[command] : undefined;
if (!action) {
  console.error('usage: migration-cli generate <Name> | run | revert');
  process.exit(2);
}
action().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
