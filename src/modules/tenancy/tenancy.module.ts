import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiClientEntity } from './entities/api-client.entity.js';
import { TenantEntity } from './entities/tenant.entity.js';
import { ClientsService } from './clients.service.js';
import { TenancyRepository } from './tenancy.repository.js';
import { TenantsService } from './tenants.service.js';

/** Owns tenants and API clients (credentials). Never returns a secret hash outside this module. */
@Module({
  imports: [TypeOrmModule.forFeature([TenantEntity, ApiClientEntity])],
  providers: [TenancyRepository, ClientsService, TenantsService],
  exports: [ClientsService, TenantsService, TenancyRepository],
})
export class TenancyModule {}
