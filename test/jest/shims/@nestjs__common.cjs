// Returns the ES module instance Jest already loaded (test/jest/esm-bridge.setup.ts).
const bridged = globalThis.__esmBridge && globalThis.__esmBridge['@nestjs/common'];
if (!bridged) throw new Error('@nestjs/common required from CommonJS before the ESM bridge was set up');
module.exports = bridged;
