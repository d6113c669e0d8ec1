import { jest } from '@jest/globals';
import { SchedulerRegistry } from '@nestjs/schedule';
import type { AppConfig } from '../../config/app-config.js';
import type { JobHandler, JobQueue } from '../jobs/index.js';
import type { MarketRefreshService } from './market-refresh.service.js';
import { MarketScheduler } from './market.scheduler.js';

describe('MarketScheduler', () => {
  let registry: SchedulerRegistry;
  let refreshIfDue: jest.Mock<() => Promise<unknown>>;
  beforeEach(() => {
    jest.useFakeTimers();
    registry = new SchedulerRegistry();
    refreshIfDue = jest.fn<() => Promise<unknown>>().mockResolvedValue({ status: 'skipped' });
  });
  afterEach(() => {
    for (const name of registry.getIntervals()) registry.deleteInterval(name);
    for (const name of registry.getTimeouts()) registry.deleteTimeout(name);
    jest.useRealTimers();
  });

  /** A queue that runs a sent job at once on its registered handler (a throw: the job failed). */
  const queue = () => {
    const handlers = new Map<string, JobHandler<unknown>>();
    return {
      define: async () => undefined,
      work: async (name: string, _options: unknown, handler: JobHandler<unknown>) => {
        handlers.set(name, handler);
      },
      send: async (name: string, data: unknown) => {
        await handlers
          .get(name)?.({ id: '1', name, data, retryCount: 0 })
          .catch(() => undefined);
        return '1';
      },
    } as unknown as JobQueue;
  };

  const scheduler = (enabled: boolean) =>
    new MarketScheduler(
      { SCHEDULER_ENABLED: enabled } as AppConfig,
      registry,
      { refreshIfDue } as unknown as MarketRefreshService,
      queue(),
    );

  it('does nothing when SCHEDULER_ENABLED is false', async () => {
    scheduler(false).onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(5 * 60_000);
    expect(refreshIfDue).not.toHaveBeenCalled();
    expect(registry.getIntervals()).toEqual([]);
  });

  it('sends a job soon after start and then every minute; its worker asks the service, which decides whether a refresh is due', async () => {
    scheduler(true).onApplicationBootstrap();
    expect(registry.getIntervals()).toEqual(['market-refresh']);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(refreshIfDue).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(3 * 60_000);
    expect(refreshIfDue).toHaveBeenCalledTimes(4);
  });

  it('survives a failing tick', async () => {
    refreshIfDue.mockRejectedValueOnce(new Error('database unavailable'));
    scheduler(true).onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(62_000);
    expect(refreshIfDue).toHaveBeenCalledTimes(2);
  });
});
