/**
 * `npm test` and `npm run test:<tier>`: `node scripts/test.mjs [tier] [jest options and paths]`.
 *
 *   tier: all (default), domain, unit, service, e2e, process (test/jest/tiers.js), or db (the files
 *   whose behaviour can depend on the database: the PostgreSQL pass in .ci/run).
 *
 * 1. Refuses Node < 24 with one sentence (package.json engines; Jest and the service need it).
 * 2. Builds dist/ (tsc -b, quick when up to date) unless only the domain tier runs: process tests run
 *    the built service and CLI, and the simulation pool's worker thread is the compiled file.
 * 3. Runs Jest in a process group of its own: Jest, its workers, and every service or CLI a test
 *    started. When this script is interrupted (Ctrl-C, SIGTERM from npm, a CI timeout, or its parent
 *    gone), it passes the signal to that whole group and, 10 s later, kills what is left; when Jest
 *    ends, it stops anything that Jest left behind. Nothing of the run stays running.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `The tests need Node.js 24 or newer but this is Node.js ${process.versions.node} (${process.execPath}): ` +
      'install Node.js 24 LTS (https://nodejs.org/en/download, or `nvm install 24`) and try again.',
  );
  process.exit(1);
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const TIERS = ['domain', 'unit', 'service', 'e2e', 'process'];
const GRACE_MS = 10_000;

const args = process.argv.slice(2);
const selection = ['all', 'db', ...TIERS].includes(args[0]) ? args.shift() : 'all';

if (selection !== 'domain') {
  console.error(
    'test: building dist/ (tsc -b tsconfig.build.json): process tests and the simulation worker use it',
  );
  const tsc = require.resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// After the caller's arguments: --selectProjects takes every word after it as a project name.
const jestArgs = TIERS.includes(selection) ? [...args, '--selectProjects', selection] : args;
const env = {
  ...process.env,
  NODE_OPTIONS: `--experimental-vm-modules ${process.env.NODE_OPTIONS ?? ''}`.trim(),
  TZ: 'UTC',
  ...(selection === 'db' ? { TEST_SELECTION: 'db' } : {}),
};
// Jest's workers inherit these V8 flags (jest-worker forks with the parent's execArgv; NODE_OPTIONS
// may not carry them). --no-wasm-code-gc: wasm code is never freed in a worker, the path on which V8
// aborted a worker once ("Check failed: jit_page_->allocations_.erase(addr) == 1", nodejs/node#64500);
// with pglite.wasm compiled once per worker (test/jest/pglite-environment.cjs) it costs a few MB.
const jest = spawn(process.execPath, ['--no-wasm-code-gc', require.resolve('jest/bin/jest'), ...jestArgs], {
  cwd: ROOT,
  env,
  stdio: 'inherit',
  // Its own process group (id: its pid): the terminal's Ctrl-C reaches this script only, which
  // passes it on to the whole group, workers and the services they spawned included. Not in watch
  // mode: Jest reads keys from the terminal then, which a background group may not.
  detached: !args.some((a) => /^--watch(All)?(=|$)/.test(a)),
});
const group = jest.pid;

/**
 * The group's live processes (pid and command line) from /proc on Linux; elsewhere one placeholder
 * while kill(-group, 0) finds the group. Zombies (ended, not yet reaped) do not count.
 */
function groupMembers() {
  try {
    const members = [];
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(pgrp) !== group || state === 'Z') continue;
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
        members.push(`${pid} ${cmdline.replaceAll(ROOT + '/', '')}`);
      } catch {
        /* ended meanwhile */
      }
    }
    return members;
  } catch {
    try {
      process.kill(-group, 0);
      return [`process group ${group}`];
    } catch {
      return [];
    }
  }
}

const groupAlive = () => groupMembers().length > 0;

async function waitForGroup(ms) {
  const deadline = Date.now() + ms;
  while (groupAlive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return !groupAlive();
}

function signalGroup(signal) {
  try {
    process.kill(-group, signal);
  } catch {
    /* the group is gone */
  }
}

async function stopGroup(signal) {
  signalGroup(signal);
  if (await waitForGroup(GRACE_MS)) return;
  console.error(
    `test: still running ${GRACE_MS / 1000} s after ${signal}, killed:\n  ${groupMembers().join('\n  ')}`,
  );
  signalGroup('SIGKILL');
}

let interrupted;
async function interrupt(signal) {
  if (interrupted) {
    signalGroup('SIGKILL'); // a second Ctrl-C: at once
    return;
  }
  interrupted = signal;
  console.error(`\ntest: ${signal}: stopping Jest, its workers and the processes they started`);
  await stopGroup(signal);
  process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[signal] ?? 1));
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void interrupt(signal));

// npm runs this through `sh -c`; if that shell or npm dies without passing the signal on, this
// script is orphaned: stop the run as for SIGTERM.
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    void interrupt('SIGTERM');
  }
}, 1000).unref();

jest.on('exit', async (code, signal) => {
  if (interrupted) return;
  // Jest ends its workers as it ends; anything of the group alive a moment later was left by a test.
  if (!(await waitForGroup(3000))) {
    console.error(
      `test: Jest ended, these processes of the run did not; stopping them:\n  ${groupMembers().join('\n  ')}`,
    );
    await stopGroup('SIGTERM');
  }
  process.exit(code ?? (signal ? 1 : 0));
});
