/**
 * The first import of both entry points (src/main.ts, src/cli.ts): ES modules evaluate their
 * imports in order, so this body runs before Nest, TypeORM or any other dependency loads, and a
 * too-old Node stops with one sentence instead of a stack trace from deep inside a package.
 * No imports here, on purpose. Keep MINIMUM_NODE_MAJOR in step with `engines` in package.json.
 */
export const MINIMUM_NODE_MAJOR = 24;

/** The sentence to print when `version` (process.versions.node) is too old, or undefined. */
export function runtimeProblem(version: string): string | undefined {
  const major = Number.parseInt(version, 10);
  if (major >= MINIMUM_NODE_MAJOR) return undefined;
  return (
    `This service needs Node.js ${MINIMUM_NODE_MAJOR} or newer but is running on Node.js ${version}: ` +
    `install Node.js ${MINIMUM_NODE_MAJOR} LTS (https://nodejs.org/en/download, or \`nvm install ${MINIMUM_NODE_MAJOR}\`) and try again.`
  );
}

const problem = runtimeProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
