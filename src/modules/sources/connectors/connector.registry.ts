import { Injectable } from '@nestjs/common';
import { DomainError } from '../../../common/errors/domain-error.js';
import { SOURCE_CATALOGUE } from './source-catalogue.js';
import type { SourceConnector, SourceDescription } from './source-connector.js';

/** The sources registered at start-up (the document lists them as the enum). */
export const BUILT_IN_SOURCES = Object.keys(SOURCE_CATALOGUE);

/** A connector that describes nothing: no options, real data. */
const UNDESCRIBED: SourceDescription = { summary: '', synthetic: false, options: {}, examples: {} };

/** A connector that takes longer is abandoned (its refresh fails; the old data stays). */
export const CONNECTOR_TIMEOUT_MS = 60_000;

export interface ConnectorOptions {
  /** How long the refresh engine waits for this connector's whole history; default CONNECTOR_TIMEOUT_MS. */
  readonly timeoutMs?: number;
}

/**
 * Connectors by source name (account.source). The accounts module registers `sandbox` and `csv`
 * at start-up; later sources (ccxt exchanges, chain APIs) register here too. Tests register a
 * failing or slow connector under its own name, or replace one, to exercise the refresh engine.
 */
@Injectable()
export class ConnectorRegistry {
  private readonly connectors = new Map<string, { connector: SourceConnector; timeoutMs: number }>();

  /** Adds or replaces the connector of `source`; returns a function that restores the previous one. */
  register(source: string, connector: SourceConnector, options: ConnectorOptions = {}): () => void {
    const timeoutMs = options.timeoutMs ?? CONNECTOR_TIMEOUT_MS;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
      throw new RangeError(`timeoutMs must be a positive integer, got ${timeoutMs}`);
    const previous = this.connectors.get(source);
    this.connectors.set(source, { connector, timeoutMs });
    return () => {
      if (previous) this.connectors.set(source, previous);
      else this.connectors.delete(source);
    };
  }

  has(source: string): boolean {
    return this.connectors.has(source);
  }

  sources(): string[] {
    return [...this.connectors.keys()].sort();
  }

  get(source: string): SourceConnector {
    return this.entry(source).connector;
  }

  /** What the connector of `source` says about itself (its options, whether it is synthetic). */
  describe(source: string): SourceDescription {
    return this.entry(source).connector.describe?.() ?? UNDESCRIBED;
  }

  /** How long the refresh engine waits for the connector of `source`. */
  timeoutOf(source: string): number {
    return this.entry(source).timeoutMs;
  }

  private entry(source: string): { connector: SourceConnector; timeoutMs: number } {
    const entry = this.connectors.get(source);
    if (!entry) {
      throw DomainError.validation(
        'source',
        `Unknown source "${source}"; known: ${this.sources().join(', ')}`,
      );
    }
    return entry;
  }
}
