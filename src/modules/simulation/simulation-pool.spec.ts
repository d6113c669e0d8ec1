import { ErrorCode } from '../../common/errors/domain-error.js';
import { loadConfig } from '../../config/app-config.js';
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
