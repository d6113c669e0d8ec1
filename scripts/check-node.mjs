/**
 * Runs before `npm start`, `npm run cli` and the build: are npm's scripts on Node 24?
 *
 * `npm install` brings Node 24 itself: the `node` package (a pinned devDependency) puts a Node 24
 * binary at node_modules/.bin/node, and npm puts node_modules/.bin first on PATH for every script,
 * so `npm start` and `npm test` run on it whatever node the machine has. This check says, in one
 * sentence and before a minute of compiling, what is wrong when that did not happen (an install
 * without devDependencies, or with install scripts turned off). Plain JavaScript, no imports that
 * an old Node could not load.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const MINIMUM = 24;
const major = Number.parseInt(process.versions.node, 10);
if (major < MINIMUM) {
  const bundled = join(import.meta.dirname ?? '.', '..', 'node_modules', 'node', 'bin', 'node');
  const why = existsSync(bundled)
    ? 'npm did not put node_modules/.bin first on PATH'
    : 'the Node 24 that `npm install` brings (the `node` devDependency) is not in node_modules: run `npm install` again (with devDependencies and install scripts on)';
  console.error(
    `This project needs Node.js ${MINIMUM} or newer, but npm's scripts run on Node.js ${process.versions.node} (${process.execPath}): ${why}, or install Node.js ${MINIMUM} LTS (https://nodejs.org/en/download).`,
  );
  process.exit(1);
}
