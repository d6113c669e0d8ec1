// Preload (node --import ./bench/sql-trace.mjs dist/src/main.js): prints every SQL statement the
// process sends through `pg`, with its parameters, to stderr as one JSON line each
// ({"sql":…,"params":…}). Used to learn which statements an endpoint runs, so that
// bench/reference-servers.mjs' "bare NestJS + the same query" floors run exactly those.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(join(process.cwd(), 'package.json'));
const pg = require('pg');
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function query(config, values, callback) {
  const sql = typeof config === 'string' ? config : config?.text;
  const params = Array.isArray(values) ? values : config?.values;
  if (sql) process.stderr.write(`SQLTRACE ${JSON.stringify({ sql, params })}\n`);
  return original.call(this, config, values, callback);
};
