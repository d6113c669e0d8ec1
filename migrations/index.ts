/** Every migration, in order. `npm run migration:generate` appends here. */
import type { MigrationInterface } from 'typeorm';
import { InitialTenancy1795261121274 } from './1795261121274-InitialTenancy.js';
export const MIGRATIONS: Array<new () => MigrationInterface> = [InitialTenancy1795261121274];
