import type { ExecutionContext } from '@nestjs/common';

interface MetadataReader {
  getAllAndOverride<T>(key: string, targets: unknown[]): T | undefined;
}

const memo = new WeakMap<object, WeakMap<object, Map<string, unknown>>>();

/**
 * Route metadata (handler first, then controller), read once per handler and key. Decorator
 * metadata is fixed once the application has started, so the guards that run on every request
 * need not walk the reflect-metadata chain each time.
 */
export function routeMetadata<T>(
  reader: MetadataReader,
  context: ExecutionContext,
  key: string,
): T | undefined {
  const handler = context.getHandler();
  const controller = context.getClass();
  let byController = memo.get(handler);
  if (!byController) {
    byController = new WeakMap();
    memo.set(handler, byController);
  }
  let byKey = byController.get(controller);
  if (!byKey) {
    byKey = new Map();
    byController.set(controller, byKey);
  }
  if (byKey.has(key)) return byKey.get(key) as T | undefined;
  const value = reader.getAllAndOverride<T>(key, [handler, controller]);
  byKey.set(key, value);
  return value;
}
