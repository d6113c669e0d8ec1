// @ts-check
import tseslint from 'typescript-eslint';

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
            { group: ['@nestjs/*', 'typeorm', 'typeorm/*', 'pg', '@electric-sql/*', 'express'], message: 'src/domain is pure: no framework or database imports.' },
            { group: ['node:fs', 'fs', 'node:http', 'http', 'node:net', 'net', 'node:child_process'], message: 'src/domain does no I/O.' },
            { group: ['**/modules/**', '**/common/**', '**/database/**'], message: 'src/domain does not depend on the application layers.' },
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
