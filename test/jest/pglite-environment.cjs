/**
 * Jest's node environment, plus one compiled pglite.wasm per worker process, handed to every test
 * file under the key the PGlite driver looks for (src/database/pglite-driver.ts, SHARED_WASM_MODULE).
 *
 * Why: each test file loads @electric-sql/pglite into a module registry of its own, so PGlite's own
 * cache of the compiled module lasted one file. Every file compiled the 9 MB module again (lazily,
 * function by function, then optimised in the background) and, once the old file was collected,
 * V8 freed the previous copy's code. That churn of wasm code is what crashed a worker once in the
 * CI rehearsal of 481deba ("Check failed: jit_page_->allocations_.erase(addr) == 1", SIGTRAP,
 * nodejs/node#64500 reports the same under PGlite create/close churn). One module kept for the
 * worker's life is compiled once and never freed, and later files run its already optimised code.
 * This module is loaded once per worker, outside the files' registries; a worker Jest replaces
 * (workerIdleMemoryLimit) compiles its own.
 */
const { readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

const KEY = Symbol.for('crypto-asset-service.pglite.wasmModule');
let compiled;

function pgliteWasmModule() {
  // The package's exports hide dist/, but its entry point lives there.
  compiled ??= new WebAssembly.Module(
    readFileSync(join(dirname(require.resolve('@electric-sql/pglite')), 'pglite.wasm')),
  );
  return compiled;
}

class PGliteSharingEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    const module = pgliteWasmModule();
    // PGlite's loader asks `module instanceof WebAssembly.Module` in the file's own realm, whose
    // WebAssembly is not this one's; the files of a worker run one after another, so the module
    // takes on the current file's prototype (V8 itself checks the object's internal type).
    Object.setPrototypeOf(module, this.global.WebAssembly.Module.prototype);
    this.global[KEY] = module;
  }
}

module.exports = PGliteSharingEnvironment;
