import { Injectable } from '@nestjs/common';
import { DomainError } from '../../../common/errors/domain-error.js';
import type { SourceConnector } from './source-connector.js';

/**
 * Connectors by source name (account.source). The accounts module registers `sandbox` and `csv`
 * at start-up; later sources (ccxt exchanges, chain APIs) register here too. Tests register a
 * failing or slow connector under its own name, or replace one, to exercise the refresh engine.
 */
@Injectable()
export class ConnectorRegistry {
  private readonly connectors = new Map<string, SourceConnector>();

  /** Adds or replaces the connector of `source`; returns a function that restores the previous one. */
  register(source: string, connector: SourceConnector): () => void {
    const previous = this.connectors.get(source);
    this.connectors.set(source, connector);
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
    const connector = this.connectors.get(source);
    if (!connector) {
      throw DomainError.validation(
        'source',
        `Unknown source "${source}"; known: ${this.sources().join(', ')}`,
      );
    }
    return connector;
  }
}
