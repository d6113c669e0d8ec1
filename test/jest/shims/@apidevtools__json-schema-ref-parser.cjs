// Returns the ES module instance Jest already loaded (test/jest/esm-bridge.setup.ts).
const bridged = globalThis.__esmBridge && globalThis.__esmBridge['@apidevtools/json-schema-ref-parser'];
if (!bridged)
  throw new Error(
    '@apidevtools/json-schema-ref-parser required from CommonJS before the ESM bridge was set up',
  );
// A plain object with the same exports: CommonJS consumers that patch the default export
// (openapi-backend binds $RefParser's static methods) cannot write to a module namespace.
module.exports = Object.assign({ __esModule: true }, bridged);
