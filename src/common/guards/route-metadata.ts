import type { ExecutionContext } from '@nestjs/common';

interface MetadataReader {
  getAllAndOverride<T>(key: string, targets: unknown[]): T | undefined;
}

/**
 * Values worked out once per route (handler and controller) instead of on every request. An
 * instance belongs to its owner: values that depend on an application's configuration must not be
 * shared by two applications in one process (tests start several).
 */
export class PerRoute<T> {
  private readonly byHandler = new WeakMap<object, WeakMap<object, T>>();

  get(context: ExecutionContext, compute: () => T): T {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byController = this.byHandler.get(handler);
    if (!byController) {
      byController = new WeakMap();
      this.byHandler.set(handler, byController);
    }
    let value = byController.get(controller);
    if (value === undefined) {
      value = compute();
      byController.set(controller, value);
    }
    return value;
  }
}

/** Decorator metadata is fixed once the application has started; it is the same for every application. */
const metadata = new PerRoute<Map<string, unknown>>();

/** Route metadata (handler first, then controller), read once per route and key. */
export function routeMetadata<T>(
  reader: MetadataReader,
  context: ExecutionContext,
  key: string,
): T | undefined {
  const byKey = metadata.get(context, () => new Map());
  if (byKey.has(key)) return byKey.get(key) as T | undefined;
  const value = reader.getAllAndOverride<T>(key, [context.getHandler(), context.getClass()]);
  byKey.set(key, value);
  return value;
}
