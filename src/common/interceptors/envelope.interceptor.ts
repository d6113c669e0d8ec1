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

/** The published envelope around a successful result. */
export function envelope<T>(result: T, statusCode: number): Envelope<T> {
  return { isError: false, message: statusText(statusCode), result, statusCode };
}

/**
 * Wraps the results of /v1/api controllers in the published envelope. Bound per controller
 * (not globally) so other routes pay nothing for it. `envelope` is the one place the shape is
 * made, for whatever else builds an answer.
 */
@Injectable()
export class EnvelopeInterceptor<T> implements NestInterceptor<T, Envelope<T>> {
  intercept(context: ExecutionContext, next: CallHandler<T>): Observable<Envelope<T>> {
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(map((result) => envelope(result, response.statusCode)));
  }
}
