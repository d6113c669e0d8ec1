/**
 * The metadata keys `@Throttle()` and `@SkipThrottle()` write, learnt once from the public
 * decorators themselves: @nestjs/throttler exports no constants for them (they live in its
 * `dist/` files, which are not its API), so the keys are read off a probe class that the two
 * decorators mark with one distinct sentinel each. If a release renames them, this still finds
 * them; if it stops writing one, the probe throws at start-up rather than ignoring overrides.
 */
import { SkipThrottle, Throttle } from '@nestjs/throttler';

export interface ThrottlerMetadataKeys {
  readonly ttl: string;
  readonly limit: string;
  readonly blockDuration: string;
  readonly tracker: string;
  readonly keyGenerator: string;
  readonly skip: string;
}

const PROBE = '\u0000probe';

function learnKeys(): ThrottlerMetadataKeys {
  const sentinels = {
    ttl: 7_001,
    limit: 7_002,
    blockDuration: 7_003,
    tracker: () => 'tracker',
    keyGenerator: () => 'key',
    skip: 'skip-sentinel',
  } as const;
  class Probe {}
  Throttle({
    [PROBE]: {
      ttl: sentinels.ttl,
      limit: sentinels.limit,
      blockDuration: sentinels.blockDuration,
      getTracker: sentinels.tracker,
      generateKey: sentinels.keyGenerator,
    },
  })(Probe);
  SkipThrottle({ [PROBE]: sentinels.skip as unknown as boolean })(Probe);
  const keys = Reflect.getMetadataKeys(Probe) as unknown[];
  const keyOf = (name: keyof typeof sentinels): string => {
    const key = keys.find(
      (candidate) =>
        typeof candidate === 'string' &&
        candidate.endsWith(PROBE) &&
        Reflect.getMetadata(candidate, Probe) === sentinels[name],
    ) as string | undefined;
    if (key === undefined)
      throw new Error(`@nestjs/throttler no longer writes the ${name} metadata of @Throttle/@SkipThrottle`);
    return key.slice(0, -PROBE.length);
  };
  return {
    ttl: keyOf('ttl'),
    limit: keyOf('limit'),
    blockDuration: keyOf('blockDuration'),
    tracker: keyOf('tracker'),
    keyGenerator: keyOf('keyGenerator'),
    skip: keyOf('skip'),
  };
}

/** Prefixes: the key for throttler `name` is the prefix followed by the name, as the decorators write it. */
export const THROTTLER_METADATA: ThrottlerMetadataKeys = learnKeys();
