import { Module, type DynamicModule, type Type } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import { DatabaseModule, OpenDatabaseOnDemandModule } from '../database/database.module.js';

/**
 * The admin CLI's application for one command: the same services and database as the API,
 * without the HTTP layer, and only the modules of the command's group (`commands`: the tenant and
 * client commands load no account module). The database is opened by run-command.ts just before
 * the command runs, never while the application is built.
 */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig, commands: Type): DynamicModule {
    return {
      module: CliModule,
      imports: [ConfigModule.forRoot(config), OpenDatabaseOnDemandModule, DatabaseModule, commands],
    };
  }
}
