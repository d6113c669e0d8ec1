import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';

/**
 * Flushes the buffered spans when the application shuts down (after the HTTP server has closed,
 * so the last requests' spans are in the buffer). Tracing off: nothing to load, nothing to do.
 */
@Injectable()
export class TracingLifecycle implements OnApplicationShutdown {
  constructor(private readonly config: AppConfig) {}

  async onApplicationShutdown(): Promise<void> {
    if (!this.config.otlpTracesUrl) return;
    const { stopTracing } = await import('./tracing-sdk.js');
    await stopTracing();
  }
}
