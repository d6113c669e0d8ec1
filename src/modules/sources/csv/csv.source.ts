import type { SourceDescription } from '../connectors/source-connector.js';

/** The `csv` source: histories arrive through imports only; it takes no options. */
export const CSV_SOURCE: SourceDescription = {
  summary: '`csv` (imports)',
  synthetic: false,
  options: {},
  importOnly: true,
  // Partners link it by name (`source: "csv"`) for any platform, then upload files.
  linking: { platforms: [], accepts: ['file'] },
  examples: {
    csv: {
      summary:
        'CSV: an account whose transactions arrive in uploaded files, an exchange export or the service’s CSV (then POST …/import)',
      body: { platform: 'coinbase', source: 'csv' },
    },
  },
};
