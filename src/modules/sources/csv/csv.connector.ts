import {
  singlePage,
  type ConnectorResult,
  type SourceConnector,
  type SourceDescription,
} from '../connectors/source-connector.js';
import { CSV_SOURCE } from './csv.source.js';

/**
 * The `csv` source: transactions arrive only through imports (admin API, CLI). A refresh has
 * nothing new to fetch; it recomputes the balances from the stored history at current prices.
 */
export class CsvConnector implements SourceConnector {
  describe(): SourceDescription {
    return CSV_SOURCE;
  }

  async fetch(): Promise<ConnectorResult> {
    return { status: 'ready', mode: 'incremental', pages: singlePage([]), reportedBalances: null };
  }
}
