/**
 * The version of the API this service serves, in one spelling everywhere: `/api/status`, the
 * OpenAPI document's `info.version`, the CLI's `--version` and the start-up log. No imports: the
 * CLI answers `--version` before it loads anything else.
 *
 * package.json carries the same version in npm's spelling (semver allows no leading zero:
 * `2026.4.1` for `2026.04.1`); src/version.spec.ts keeps the two in step.
 */
export const API_VERSION = '2026.04.1';
