import { Global, Module, type DynamicModule } from '@nestjs/common';
import { AppConfig, loadConfig } from './app-config.js';

/** Provides the validated AppConfig everywhere. Tests pass their own instance. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: AppConfig, useValue: config }],
      exports: [AppConfig],
    };
  }
}
