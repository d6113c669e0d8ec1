import { UnsupportedMediaTypeException } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError, ErrorCode } from '../../../common/errors/domain-error.js';

/** CSV imports may exceed the 100 kB JSON body limit; this is their own, larger limit. */
export const CSV_BODY_LIMIT_BYTES = 20 * 1024 * 1024;

/**
 * Reads a text/csv request body (the JSON and form parsers leave other types untouched).
 * Over the limit: 413; another content type: 415.
 */
export async function readCsvBody(request: Request, limitBytes = CSV_BODY_LIMIT_BYTES): Promise<string> {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== 'text/csv' && type !== 'text/plain') {
    throw new UnsupportedMediaTypeException('Send the file as the request body with Content-Type: text/csv.');
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limitBytes) throw tooLarge(limitBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw tooLarge(limitBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(limitBytes: number): DomainError {
  return new DomainError(
    ErrorCode.PayloadTooLarge,
    `The CSV exceeds ${limitBytes} bytes; split it into several imports.`,
  );
}
