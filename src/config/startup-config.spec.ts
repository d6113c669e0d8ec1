import { ConfigValidationError } from './app-config.js';
import { loadStartupConfig } from './startup-config.js';

describe('loadStartupConfig', () => {
  it('answers the configuration when every variable is valid', () => {
    const config = loadStartupConfig({ REFRESH_SCHEDULES: '{"csv": {"maxConcurrent": 3}}' });
    expect(config.REFRESH_SCHEDULES).toBe('{"csv": {"maxConcurrent": 3}}');
  });

  it('refuses a bad REFRESH_SCHEDULES as a configuration error (exit 78), with the other problems', () => {
    const load = () => loadStartupConfig({ PORT: 'eighty', REFRESH_SCHEDULES: '{"csv": {"every": 1}}' });
    expect(load).toThrow(ConfigValidationError);
    try {
      load();
    } catch (error) {
      const { problems } = error as ConfigValidationError;
      expect(problems.some((problem) => problem.startsWith('PORT: '))).toBe(true);
      expect(problems.at(-1)).toBe(
        'REFRESH_SCHEDULES.csv.every is not a setting (settings: intervalMs, maxConcurrent, backoff).',
      );
    }
  });

  it('refuses a bad REFRESH_SCHEDULES alone', () => {
    expect(() => loadStartupConfig({ REFRESH_SCHEDULES: '{"csv": {"maxConcurrent": 0}}' })).toThrow(
      'Invalid configuration:\n  - REFRESH_SCHEDULES.csv.maxConcurrent must be an integer from 1 to 100.',
    );
  });
});
