import { Global, Injectable, Module, type DynamicModule } from '@nestjs/common';

/**
 * The one source of "now" for business rules (cache age, forceRefresh's 30-minute rule, tax-year
 * bounds). Tests replace it with a fixed or advanced clock instead of sleeping.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock tests move by hand. */
export class ManualClock extends Clock {
  constructor(private current: Date = new Date()) {
    super();
  }

  override now(): Date {
    return new Date(this.current);
  }

  set(date: Date): void {
    this.current = new Date(date);
  }

  advanceMs(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

@Global()
@Module({})
export class ClockModule {
  static forRoot(clock: Clock = new Clock()): DynamicModule {
    return { module: ClockModule, providers: [{ provide: Clock, useValue: clock }], exports: [Clock] };
  }
}
