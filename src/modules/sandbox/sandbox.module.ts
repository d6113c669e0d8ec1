import { Global, Module } from '@nestjs/common';
import { TenancyModule } from '../tenancy/index.js';
import { SandboxSeedRegistry } from './sandbox-seed.registry.js';
import { SandboxSeeder } from './sandbox-seeder.service.js';

/** Synthetic sandbox fixtures. Never runs in production (AppConfig.sandboxEnabled). */
@Global()
@Module({
  imports: [TenancyModule],
  providers: [SandboxSeedRegistry, SandboxSeeder],
  exports: [SandboxSeedRegistry],
})
export class SandboxModule {}
