import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseHealthService } from './database-health.service.js';
import { HealthController } from './health.controller.js';
import { LifecycleService } from './lifecycle.service.js';
import { StatusController } from './status.controller.js';

@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
  controllers: [StatusController, HealthController],
  providers: [LifecycleService, DatabaseHealthService],
  exports: [LifecycleService],
})
export class StatusModule {}
