/**
 * One line a finished test file: how many of how many, the time so far and an estimate of the time
 * left, so that a run of several minutes is never silent. Beside Jest's default reporter (its
 * PASS/FAIL blocks and the summary stay); lines go to stderr, as Jest's own, so `--json` on stdout
 * stays clean. When no file has finished for a while, a line names the files still running.
 *
 *   PASS e2e test/accounts.e2e-spec.ts (16.9 s)
 *     [41/167] 2:05 elapsed, ~3:40 left
 *
 * The time left: Jest's own estimate (the durations of the last run on this machine, from its cache)
 * scaled by how this run's files compare with theirs; without one, or past it, the mean time a
 * file so far times the files left.
 */
const QUIET_MS = 30_000;

function clock(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export default class ProgressReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.total = 0;
    this.done = 0;
    this.started = Date.now();
    this.estimatedMs = 0;
    this.running = new Map();
    this.lastLine = Date.now();
    this.timer = undefined;
    this.knownDurations = { expected: 0, actual: 0 };
  }

  onRunStart(results, options) {
    this.total = results.numTotalTestSuites;
    this.started = Date.now();
    this.lastLine = this.started;
    this.estimatedMs = (options?.estimatedTime ?? 0) * 1000;
    const estimate = this.estimatedMs > 0 ? `, ~${clock(this.estimatedMs)} by the last run` : '';
    this.write(`${this.total} test files${estimate}`);
    this.timer = setInterval(() => this.heartbeat(), 5_000);
    this.timer.unref();
  }

  onTestFileStart(test) {
    this.running.set(test.path, Date.now());
  }

  onTestFileResult(test, result) {
    this.running.delete(test.path);
    this.done++;
    const elapsed = Date.now() - this.started;
    const left = this.total - this.done;
    // Jest runs the files it knows to be slow first, so the mean so far overestimates early on.
    // Its own estimate, scaled by how much slower (or faster) the files with a known duration ran
    // this time, is better while the run is within it; past it, the mean.
    const known = this.knownDurations;
    if (test.duration && result?.perfStats) {
      known.expected += test.duration;
      known.actual += result.perfStats.end - result.perfStats.start;
    }
    const scaledMs = this.estimatedMs * (known.expected > 0 ? known.actual / known.expected : 1);
    const leftMs = scaledMs > elapsed ? scaledMs - elapsed : (elapsed / this.done) * left;
    const eta = left === 0 ? 'done' : `~${clock(leftMs)} left`;
    // Jest's PASS/FAIL line for the file comes just before.
    this.write(`  [${this.done}/${this.total}] ${clock(elapsed)} elapsed, ${eta}`);
  }

  onRunComplete() {
    clearInterval(this.timer);
  }

  heartbeat() {
    if (Date.now() - this.lastLine < QUIET_MS || this.running.size === 0) return;
    const now = Date.now();
    const files = [...this.running].map(([path, since]) => `${this.relative(path)} (${clock(now - since)})`);
    this.write(
      `[${this.done}/${this.total}] ${clock(now - this.started)} elapsed, running: ${files.join(', ')}`,
    );
  }

  relative(path) {
    return path.startsWith(`${this.rootDir}/`) ? path.slice(this.rootDir.length + 1) : path;
  }

  write(line) {
    this.lastLine = Date.now();
    process.stderr.write(`${line}\n`);
  }

  getLastError() {
    return undefined;
  }
}
