/**
 * The configuration the service and the CLI start with: loadConfig(), plus the variables whose
 * rules live with the module that uses them (REFRESH_SCHEDULES: sources/refresh/source-schedule.ts).
 * Every problem is a configuration error found before Nest starts, reported together and ending
 * the process with 78 (EX_CONFIG): not a Nest stack trace and 1 from inside the injector.
 *
 * Not part of app-config.ts: those modules inject AppConfig, so importing them there would make
 * an import cycle (and load them with every reader of the configuration).
 */
import { AppConfig, ConfigValidationError, loadConfig } from './app-config.js';
import { InvalidScheduleError, SourceSchedules } from '../modules/sources/refresh/source-schedule.js';

export function loadStartupConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  let config: AppConfig | undefined;
  const problems: string[] = [];
  try {
    config = loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigValidationError)) throw error;
    problems.push(...error.problems);
  }
  const schedules = config ? config.REFRESH_SCHEDULES : env.REFRESH_SCHEDULES || undefined;
  if (schedules !== undefined) {
    try {
      new SourceSchedules({ REFRESH_SCHEDULES: schedules } as AppConfig);
    } catch (error) {
      if (!(error instanceof InvalidScheduleError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length > 0 || !config) throw new ConfigValidationError(problems);
  return config;
}
