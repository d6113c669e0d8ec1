import type { ExecutionContext, Type } from '@nestjs/common';

type HttpArgumentsHost = ReturnType<ExecutionContext['switchToHttp']>;
type RpcArgumentsHost = ReturnType<ExecutionContext['switchToRpc']>;
type WsArgumentsHost = ReturnType<ExecutionContext['switchToWs']>;

/**
 * The execution context of an HTTP request on one route, built on Nest's public ExecutionContext
 * interface (not its internal ExecutionContextHost): what a guard sees when Nest runs it on the
 * route, so guards read the route's decorators and per-route memos as they do there.
 */
export class RouteExecutionContext implements ExecutionContext, HttpArgumentsHost {
  private readonly args: [unknown, unknown, unknown];

  constructor(
    request: unknown,
    response: unknown,
    next: unknown,
    private readonly controller: Type<unknown>,
    private readonly handler: (...args: never[]) => unknown,
  ) {
    this.args = [request, response, next];
  }

  getClass<T = unknown>(): Type<T> {
    return this.controller as Type<T>;
  }

  getHandler(): (...args: never[]) => unknown {
    return this.handler;
  }

  getArgs<T extends unknown[] = unknown[]>(): T {
    return this.args as unknown as T;
  }

  getArgByIndex<T = unknown>(index: number): T {
    return this.args[index] as T;
  }

  getType<TContext extends string = 'http'>(): TContext {
    return 'http' as TContext;
  }

  switchToHttp(): HttpArgumentsHost {
    return this;
  }

  getRequest<T = unknown>(): T {
    return this.args[0] as T;
  }

  getResponse<T = unknown>(): T {
    return this.args[1] as T;
  }

  getNext<T = unknown>(): T {
    return this.args[2] as T;
  }

  switchToRpc(): RpcArgumentsHost {
    throw new Error('An HTTP route has no RPC context.');
  }

  switchToWs(): WsArgumentsHost {
    throw new Error('An HTTP route has no WebSocket context.');
  }
}
