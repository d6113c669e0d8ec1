/** The sandbox module's public face: what other modules may import (docs/modules.md). */
export { SandboxModule } from './sandbox.module.js';
export { SandboxSeedRegistry } from './sandbox-seed.registry.js';
export { SANDBOX_TENANTS, sandboxTenantId, sandboxId } from './sandbox-ids.js';
