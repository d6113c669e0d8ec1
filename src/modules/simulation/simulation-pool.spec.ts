import { ErrorCode } from '../../common/errors/domain-error.js';
import { loadConfig } from '../../config/app-config.js';
import { SeededRandom } from '../../domain/random/seeded-random.js';
import { simulatePortfolio } from '../../domain/simulation/monte-carlo.js';
import { SimulationBusyError, SimulationPool, workerFilename } from './simulation-pool.js';

describe('workerFilename', () => {
  it('is the compiled worker next to the compiled pool', () => {
    expect(workerFilename('file:///srv/app/dist/src/modules/simulation/simulation-pool.js')).toBe(
      '/srv/app/dist/src/modules/simulation/simulation.worker.js',
    );
  });

  it('is the build in dist/ when the pool runs from TypeScript sources (Jest)', () => {
    expect(workerFilename('file:///srv/app/src/modules/simulation/simulation-pool.ts')).toBe(
      '/srv/app/dist/src/modules/simulation/simulation.worker.js',
    );
  });
});

describe('SimulationPool admission', () => {
  /** Work that runs until `finish` is called. */
  const held = () => {
    let finish!: (fail?: boolean) => void;
    const work = () =>
      new Promise<string>((resolve, reject) => {
        finish = (fail = false) => (fail ? reject(new Error('failed')) : resolve('done'));
      });
    return { work, finish: (fail?: boolean) => finish(fail) };
  };
  const pool = (env: Record<string, string>) =>
    new SimulationPool(loadConfig({ NODE_ENV: 'test', SIMULATION_WORKERS: '1', ...env }));
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SimulationBusyError);
    const busy = error as SimulationBusyError;
    return { code: busy.code, reason: busy.reason, retryAfterSeconds: busy.retryAfterSeconds };
  };

  it('refuses a client past its cap with 429 and the instance past workers + queue with 503', async () => {
    const simulations = pool({ SIMULATION_QUEUE: '1', SIMULATION_PER_CLIENT: '1' });
    expect(simulations.capacity).toBe(2);
    const a = held();
    const b = held();
    const runningA = simulations.admit('a', a.work);
    await expect(refusal(simulations.admit('a', async () => 'x'))).resolves.toEqual({
      code: ErrorCode.RateLimited,
      reason: 'too_many_simulations',
      retryAfterSeconds: 5,
    });
    const runningB = simulations.admit('b', b.work);
    expect(simulations.inFlight).toBe(2);
    await expect(refusal(simulations.admit('c', async () => 'x'))).resolves.toEqual({
      code: ErrorCode.ServiceUnavailable,
      reason: 'simulations_busy',
      retryAfterSeconds: 5,
    });
    a.finish();
    await expect(runningA).resolves.toBe('done');
    await expect(simulations.admit('c', async () => 'x')).resolves.toBe('x');
    b.finish(true);
    await expect(runningB).rejects.toThrow('failed');
    expect(simulations.inFlight).toBe(0);
    // A failed run gave its slot back: b may run again.
    await expect(simulations.admit('b', async () => 'again')).resolves.toBe('again');
  });
});

describe('SimulationPool.run', () => {
  it('moves Float64Array return series to the worker (no copy) and answers what arrays give', async () => {
    const simulations = new SimulationPool(loadConfig({ NODE_ENV: 'test', SIMULATION_WORKERS: '1' }));
    try {
      const random = new SeededRandom('pool-transfer');
      const series = [0, 1].map(() => Array.from({ length: 60 }, () => random.normal() * 0.03));
      const input = {
        assets: [
          { symbol: 'A', weight: 0.6 },
          { symbol: 'B', weight: 0.4 },
        ],
        horizonYears: 2,
        seed: 7,
        paths: 101,
      };
      const moved = series.map((values) => Float64Array.from(values));
      const fromTyped = await simulations.run({ ...input, dailyLogReturns: moved });
      // Moved, not cloned: the buffers are detached on this side.
      expect(moved.map((values) => values.length)).toEqual([0, 0]);
      const fromArrays = await simulations.run({ ...input, dailyLogReturns: series });
      expect(series.map((values) => values.length)).toEqual([60, 60]);
      expect(fromTyped).toEqual(fromArrays);
      expect(fromTyped).toEqual(simulatePortfolio({ ...input, dailyLogReturns: series }));
      // Views of one buffer: moved once.
      const shared = Float64Array.from(series.flat());
      const views = [shared.subarray(0, 60), shared.subarray(60)];
      await expect(simulations.run({ ...input, dailyLogReturns: views })).resolves.toEqual(fromArrays);
    } finally {
      await simulations.onApplicationShutdown();
    }
  });
});
