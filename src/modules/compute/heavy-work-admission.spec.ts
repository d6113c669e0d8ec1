import { ErrorCode } from '../../common/errors/domain-error.js';
import { loadConfig } from '../../config/app-config.js';
import { HeavyWorkAdmission, HeavyWorkBusyError } from './heavy-work-admission.js';

describe('HeavyWorkAdmission', () => {
  const admission = (env: Record<string, string>) =>
    new HeavyWorkAdmission(loadConfig({ NODE_ENV: 'test', ...env }));
  /** Work that runs until `finish` is called. */
  const held = () => {
    let finish!: (fail?: boolean) => void;
    const work = () =>
      new Promise<string>((resolve, reject) => {
        finish = (fail = false) => (fail ? reject(new Error('failed')) : resolve('done'));
      });
    return { work, finish: (fail?: boolean) => finish(fail) };
  };
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HeavyWorkBusyError);
    const busy = error as HeavyWorkBusyError;
    return { code: busy.code, reason: busy.reason, retryAfterSeconds: busy.retryAfterSeconds };
  };

  it('answers 429 past the tenant’s queue and 503 past the instance’s, with Retry-After', async () => {
    const heavy = admission({
      HEAVY_WORK_SLOTS: '1',
      HEAVY_WORK_PER_TENANT: '1',
      HEAVY_WORK_TENANT_QUEUE: '1',
      HEAVY_WORK_QUEUE: '2',
    });
    const a = held();
    const running = heavy.run('a', a.work);
    const waiting = heavy.run('a', async () => 'second');
    await expect(refusal(heavy.run('a', async () => 'x'))).resolves.toEqual({
      code: ErrorCode.RateLimited,
      reason: 'too_many_heavy_requests',
      retryAfterSeconds: 2,
    });
    const other = heavy.run('b', async () => 'b');
    await expect(refusal(heavy.run('c', async () => 'x'))).resolves.toEqual({
      code: ErrorCode.ServiceUnavailable,
      reason: 'heavy_work_busy',
      retryAfterSeconds: 2,
    });
    expect(heavy.inFlight).toBe(1);
    expect(heavy.queued).toBe(2);
    a.finish(true);
    await expect(running).rejects.toThrow('failed');
    await expect(waiting).resolves.toBe('second');
    await expect(other).resolves.toBe('b');
    expect(heavy.inFlight).toBe(0);
    expect(heavy.queued).toBe(0);
  });

  it('runs work of the tenant inside its own slot at once (a snapshot’s report), never waiting for a second', async () => {
    const heavy = admission({ HEAVY_WORK_SLOTS: '1', HEAVY_WORK_PER_TENANT: '1' });
    const waits: number[] = [];
    heavy.onWait((seconds) => waits.push(seconds));
    await expect(heavy.run('a', () => heavy.run('a', async () => 'inner'))).resolves.toBe('inner');
    expect(waits).toEqual([0]);
  });
});
