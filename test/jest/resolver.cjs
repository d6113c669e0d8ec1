// See test/jest/esm-bridge.setup.ts for why this exists.
const path = require('node:path');

const BRIDGED = new Set(['@nestjs/common', '@nestjs/core', '@apidevtools/json-schema-ref-parser']);

module.exports = (request, options) => {
  const conditions = options.conditions ?? [];
  if (BRIDGED.has(request) && conditions.includes('require') && !conditions.includes('import')) {
    return path.join(__dirname, 'shims', `${request.replace('/', '__')}.cjs`);
  }
  return options.defaultResolver(request, options);
};
