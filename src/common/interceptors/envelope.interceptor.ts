import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { statusText } from '../errors/problem-details.js';

export interface Envelope<T> {
  isError: false;
  message: string;
  result: T;
  statusCode: number;
}

/**
 * Wraps the results of /v1/api controllers in the published envelope. Bound per controller
 * (not globally) so other routes pay nothing for it.
 */
@Injectable()
export class EnvelopeInterceptor<T> implements NestInterceptor<T, Envelope<T>> {
  intercept(context: ExecutionContext, next: CallHandler<T>): Observable<Envelope<T>> {
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((result) => ({
        isError: false as const,
        message: statusText(response.statusCode),
        result,
        statusCode: response.statusCode,
      })),
    );
  }
}
