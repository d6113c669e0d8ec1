import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MetricsRegistry } from './metrics.registry.js';
import { UnhandledRejections } from './unhandled-rejections.js';

/** Issue 27 item 11: a rejection nobody handled is an error line and a count, not the end of the process. */
describe('UnhandledRejections', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs a rejection nobody handled as a structured error and counts it', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const metrics = new MetricsRegistry();
    const watch = new UnhandledRejections(metrics);
    watch.onModuleInit();
    const reason = new Error('A refresh or import of this account is running; retry in a moment.');
    try {
      // What Node does with a rejection nobody handled (Jest keeps real ones to itself: the
      // process test below makes one).
      process.emit('unhandledRejection', reason, Promise.resolve());
    } finally {
      watch.onModuleDestroy();
    }
    expect(errors).toHaveBeenCalledWith(
      { event: 'unhandled_rejection', err: reason },
      'Unhandled promise rejection (logged; the service goes on): Error: A refresh or import of this account is running; retry in a moment.',
    );
    expect(await metrics.render()).toMatch(/^cas_unhandled_rejections_total 1$/m);
  });

  it('says what was thrown when it is no Error, and stops listening when the application closes', () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const watch = new UnhandledRejections(new MetricsRegistry());
    const before = process.listenerCount('unhandledRejection');
    watch.onModuleInit();
    expect(process.listenerCount('unhandledRejection')).toBe(before + 1);
    watch.log('a string');
    expect(errors).toHaveBeenCalledWith(
      { event: 'unhandled_rejection', err: { type: 'string', message: 'a string' } },
      'Unhandled promise rejection (logged; the service goes on): string: a string',
    );
    watch.onModuleDestroy();
    expect(process.listenerCount('unhandledRejection')).toBe(before);
  });

  it('in a real Node process, a forgotten rejection no longer ends it (the build in dist/)', () => {
    const dist = (file: string) => pathToFileURL(resolve(`dist/src/modules/metrics/${file}`)).href;
    const script = (watched: boolean) => `
      const { MetricsRegistry } = await import(${JSON.stringify(dist('metrics.registry.js'))});
      const { UnhandledRejections } = await import(${JSON.stringify(dist('unhandled-rejections.js'))});
      const watch = new UnhandledRejections(new MetricsRegistry());
      if (${watched}) watch.onModuleInit();
      Promise.reject(new Error('forgotten'));
      setTimeout(() => { console.log('still running'); process.exit(0); }, 100);`;
    const run = (watched: boolean) =>
      spawnSync(process.execPath, ['--input-type=module', '-e', script(watched)], { encoding: 'utf8' });
    // Node's default: the process ends with 1.
    expect(run(false)).toMatchObject({ status: 1, stdout: '' });
    const watched = run(true);
    expect(watched).toMatchObject({ status: 0, stdout: 'still running\n' });
    expect(watched.stderr + watched.stdout).toMatch(/Unhandled promise rejection .*forgotten/);
  });
});
