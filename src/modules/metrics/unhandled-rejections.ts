import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Counter } from 'prom-client';
import { METRIC_PREFIX, MetricsRegistry } from './metrics.registry.js';

/**
 * A promise rejection nobody handled (docs/decisions.md, "An unhandled rejection is logged, not a
 * crash"): Node's default ends the process with it, and with it every request in flight and
 * every other tenant's work; one forgotten `.catch` (issue 27 item 11: the sandbox seed's import
 * at start-up) took the service down. While the application runs, such a rejection is an error
 * line instead (structured: `event: "unhandled_rejection"`, `err` with its message and stack)
 * and a count (`cas_unhandled_rejections_total`, alert on any increase); the service goes on.
 * A rejection is one failed piece of work, and whatever awaited it has already moved on, so the
 * process's state is whole. An uncaught exception (a synchronous throw nothing caught) still ends
 * the process, as Node does by default: it may have stopped halfway through changing state.
 */
@Injectable()
export class UnhandledRejections implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Process');
  private readonly count: Counter;
  private readonly listener = (reason: unknown) => this.log(reason);

  constructor(metrics: MetricsRegistry) {
    this.count = new Counter({
      name: `${METRIC_PREFIX}unhandled_rejections_total`,
      help: 'Promise rejections nobody handled, logged (event unhandled_rejection) instead of ending the process.',
      registers: [metrics.registry],
    });
  }

  onModuleInit(): void {
    process.on('unhandledRejection', this.listener);
  }

  onModuleDestroy(): void {
    process.off('unhandledRejection', this.listener);
  }

  log(reason: unknown): void {
    this.count.inc();
    // `err`: the key the log lines keep an Error under (its stack printed below a pretty line).
    const err = reason instanceof Error ? reason : { type: typeof reason, message: String(reason) };
    const what =
      reason instanceof Error ? `${reason.name}: ${reason.message}` : `${typeof reason}: ${String(reason)}`;
    this.logger.error(
      { event: 'unhandled_rejection', err },
      `Unhandled promise rejection (logged; the service goes on): ${what}`,
    );
  }
}
