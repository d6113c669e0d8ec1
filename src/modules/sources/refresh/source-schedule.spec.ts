import type { AppConfig } from '../../../config/app-config.js';
import {
  backoffDelayMs,
  DEFAULT_SOURCE_SCHEDULE,
  SOURCE_SCHEDULES,
  SourceSchedules,
} from './source-schedule.js';

const MINUTE = 60_000;
const config = (REFRESH_SCHEDULES?: string) => ({ REFRESH_SCHEDULES }) as AppConfig;

describe('backoffDelayMs', () => {
  const backoff = { baseMs: MINUTE, capMs: 10 * MINUTE, jitter: 0.5 };

  it('doubles per consecutive failure up to the cap; jitter shortens by up to its fraction', () => {
    expect([1, 2, 3, 4, 5, 60].map((n) => backoffDelayMs(backoff, n, 0))).toEqual([
      MINUTE,
      2 * MINUTE,
      4 * MINUTE,
      8 * MINUTE,
      10 * MINUTE,
      10 * MINUTE,
    ]);
    // r = 0.5, jitter 0.5: 75% of the step; r → 1: just over half.
    expect(backoffDelayMs(backoff, 3, 0.5)).toBe(3 * MINUTE);
    expect(backoffDelayMs(backoff, 1, 0.999999)).toBe(30_000);
  });
});

describe('SourceSchedules', () => {
  it('has a schedule per shipped source and the fixed 30-minute rule for any other', () => {
    const schedules = new SourceSchedules(config());
    for (const source of ['sandbox', 'csv', 'bitcoin', 'ethereum', 'solana', 'exchange'])
      expect(schedules.of(source)).toBe(SOURCE_SCHEDULES[source]);
    expect(schedules.of('anything-else')).toBe(DEFAULT_SOURCE_SCHEDULE);
    expect(DEFAULT_SOURCE_SCHEDULE).toEqual({
      intervalMs: 30 * MINUTE,
      maxConcurrent: 4,
      backoff: { baseMs: 30 * MINUTE, capMs: 30 * MINUTE, jitter: 0 },
    });
  });

  it('applies REFRESH_SCHEDULES field by field over the table', () => {
    const schedules = new SourceSchedules(
      config(
        '{"exchange": {"maxConcurrent": 5, "backoff": {"capMs": 3600000}}, "csv": {"intervalMs": 60000}}',
      ),
    );
    expect(schedules.of('exchange')).toEqual({
      ...SOURCE_SCHEDULES.exchange,
      maxConcurrent: 5,
      backoff: { ...SOURCE_SCHEDULES.exchange.backoff, capMs: 3_600_000 },
    });
    expect(schedules.of('csv')).toEqual({ ...SOURCE_SCHEDULES.csv, intervalMs: MINUTE });
  });

  const SOURCES = '(sources: bitcoin, csv, ethereum, exchange, sandbox, solana)';
  const SETTINGS = '(settings: intervalMs, maxConcurrent, backoff)';
  it.each([
    ['not json', `REFRESH_SCHEDULES must be a JSON object keyed by source ${SOURCES}.`],
    ['[1]', `REFRESH_SCHEDULES must be a JSON object keyed by source ${SOURCES}.`],
    ['{"kraken": {"intervalMs": 60000}}', `REFRESH_SCHEDULES.kraken is not a source ${SOURCES}.`],
    ['{"csv": 3}', `REFRESH_SCHEDULES.csv must be an object ${SETTINGS}.`],
    ['{"csv": {"every": 1}}', `REFRESH_SCHEDULES.csv.every is not a setting ${SETTINGS}.`],
    [
      '{"csv": {"backoff": []}}',
      'REFRESH_SCHEDULES.csv.backoff must be an object (settings: baseMs, capMs, jitter).',
    ],
    [
      '{"csv": {"backoff": {"factor": 2}}}',
      'REFRESH_SCHEDULES.csv.backoff.factor is not a setting (settings: baseMs, capMs, jitter).',
    ],
    [
      '{"csv": {"maxConcurrent": 0}}',
      'REFRESH_SCHEDULES.csv.maxConcurrent must be an integer from 1 to 100.',
    ],
    [
      '{"csv": {"intervalMs": -5}}',
      'REFRESH_SCHEDULES.csv.intervalMs must be a positive integer (milliseconds).',
    ],
    [
      '{"csv": {"backoff": {"jitter": 2}}}',
      'REFRESH_SCHEDULES.csv.backoff.jitter must be a number from 0 to 1.',
    ],
    [
      '{"csv": {"backoff": {"capMs": 1}}}',
      'REFRESH_SCHEDULES.csv.backoff.capMs must be an integer ≥ backoff.baseMs.',
    ],
  ])('refuses REFRESH_SCHEDULES=%s at start-up, naming the field', (text, message) => {
    expect(() => new SourceSchedules(config(text))).toThrow(message);
  });
});
