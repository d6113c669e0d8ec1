/**
 * One line a finished test file: how many of how many, the time so far and an estimate of the time
 * left, so that a run of several minutes is never silent. Beside Jest's default reporter (its
 * PASS/FAIL blocks and the summary stay); lines go to stderr, as Jest's own, so `--json` on stdout
 * stays clean. When no file has finished for a while, a line names the files still running.
 *
 *   PASS e2e test/accounts.e2e-spec.ts (16.9 s)
 *     [41/167] 2:05 elapsed, ~3:40 left
 *
 * The time left: the mean time a file so far times the files left, or less when Jest's own estimate
 * (the durations of the last run on this machine, from its cache) says less.
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

  onTestFileResult(test) {
    this.running.delete(test.path);
    this.done++;
    const elapsed = Date.now() - this.started;
    const left = this.total - this.done;
    // Jest runs the files it knows to be slow first, so the mean so far overestimates early on,
    // and the last run's figure underestimates late (a slow straggler); the smaller of the two.
    let leftMs = (elapsed / this.done) * left;
    if (this.estimatedMs > elapsed) leftMs = Math.min(leftMs, this.estimatedMs - elapsed);
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
