// @ts-check
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

/**
 * See the "Module boundaries" block below and docs/modules.md. Every folder of src/modules is a
 * module with a face (index.ts); another module, the CLI and the app's root files import it only
 * there. The pattern is anchored on the importing file's depth (a module's own sub-folder may share
 * a module's name, e.g. sources/sandbox), so one block per depth.
 */
const MODULES = readdirSync(new URL('./src/modules', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .join('|');
const faceOf = (prefix) => [
  {
    regex: `^${prefix}(?:${MODULES})/(?!index\\.js$)`,
    message: 'Import another module through its index.ts (its public face), never its internals.',
  },
];
const MODULE_FACE_BLOCKS = [
  { files: ['src/*.ts'], patterns: faceOf('\\./modules/') },
  { files: ['src/cli/**/*.ts'], patterns: faceOf('(?:\\.\\./)+modules/') },
  ...[1, 2, 3, 4].map((depth) => ({
    files: [`src/modules/*/${'*/'.repeat(depth - 1)}*.ts`],
    patterns: faceOf(`(?:\\.\\./){${depth}}`),
  })),
];
/** Any module: no other module's repositories or entities (a type such as a column's union may be named). */
const FOREIGN_STORES = [
  {
    regex: '^(?:\\.\\./)+(?:modules/)?[a-z-]+/(?:repositories|entities)/',
    allowTypeImports: true,
    message: "Another module's repositories and entities are its own: use the services its index.ts exports.",
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through AppConfig (src/config), never process.env directly.',
        },
      ],
    },
  },
  {
    // Pure domain code makes the numbers: no framework, ORM or I/O.
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@nestjs/*', 'typeorm', 'typeorm/*', 'pg', '@electric-sql/*', 'express'],
              message: 'src/domain is pure: no framework or database imports.',
            },
            {
              group: ['node:fs', 'fs', 'node:http', 'http', 'node:net', 'net', 'node:child_process'],
              message: 'src/domain does no I/O.',
            },
            {
              group: ['**/modules/**', '**/common/**', '**/database/**'],
              message: 'src/domain does not depend on the application layers.',
            },
          ],
        },
      ],
    },
  },
  // Module boundaries (docs/modules.md): every module is used through its public face, index.ts;
  // no module reaches into another's repositories/ or entities/ (its own are ./ or ../x/).
  ...MODULE_FACE_BLOCKS.map(({ files, patterns }) => ({
    files,
    ignores: ['src/modules/*/entities/*.entity.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns }],
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: FOREIGN_STORES }],
    },
  })),
  {
    // Entities may point at another module's entity: a foreign key is a fact of the one schema.
    files: ['src/modules/*/entities/*.entity.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(?:\\.\\./)+(?:${MODULES})/(?!index\\.js$|entities/)`,
              message:
                "Entities may import another module's entities (foreign keys) or its index.ts, nothing else.",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests use the faces too: index.ts, or testing.ts for what only tests need (repositories,
    // internal services, constants), which the face rules keep out of src/.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(?:\\.\\./)+src/modules/(?:${MODULES})/(?!index\\.js$|testing\\.js$)`,
              message:
                'Tests import a module through its index.ts, or its testing.ts for what only tests need (repositories, internals, test doubles).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/config/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'migrations/**/*.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
