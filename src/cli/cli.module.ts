import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import { DatabaseModule, OpenDatabaseOnDemandModule } from '../database/database.module.js';
import { TenancyModule } from '../modules/tenancy/index.js';
import { TENANCY_COMMANDS } from './tenancy.commands.js';
import { AccountsCliModule } from './accounts.commands.js';
import { CommandLifecycle } from './command-lifecycle.js';

/**
 * The admin CLI: the same services and database as the API, without the HTTP layer. The database
 * is opened only when a command runs (CommandLifecycle), never for help, version or usage errors.
 */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        OpenDatabaseOnDemandModule,
        DatabaseModule,
        TenancyModule,
        AccountsCliModule,
      ],
      providers: [CommandLifecycle, ...TENANCY_COMMANDS],
    };
  }
}
