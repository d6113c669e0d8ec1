/**
 * Request bodies that are files sent as text/csv (imports, a broker's Form 1099-DA): read with
 * their own limit, beyond the JSON parser's.
 */
import { UnsupportedMediaTypeException } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError, ErrorCode } from '../errors/domain-error.js';

/** CSV imports may exceed the 100 kB JSON body limit; this is their own, larger limit. */
export const CSV_BODY_LIMIT_BYTES = 20 * 1024 * 1024;

/**
 * Reads a text/csv request body (the JSON and form parsers leave other types untouched).
 * Over the limit: 413; another content type: 415.
 */
export function isMultipart(request: Request): boolean {
  return String(request.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('multipart/form-data');
}

export async function readCsvBody(request: Request, limitBytes = CSV_BODY_LIMIT_BYTES): Promise<string> {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (type !== 'text/csv' && type !== 'text/plain') {
    throw new UnsupportedMediaTypeException(
      'Send the file as the request body with Content-Type: text/csv, or upload it as multipart/form-data in the field "file".',
    );
  }
  if (Buffer.isBuffer(request.body)) {
    // Already read, for the Idempotency-Key fingerprint (bufferStreamedBody).
    if (request.body.length > limitBytes) throw tooLarge(limitBytes);
    return request.body.toString('utf8');
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

export function tooLarge(limitBytes: number): DomainError {
  return new DomainError(
    ErrorCode.PayloadTooLarge,
    `The file exceeds ${limitBytes} bytes (${Math.round(limitBytes / 1_048_576)} MB); split it into several files.`,
  );
}

/** Upload bodies the routes read from the stream themselves (the JSON and form parsers skip them). */
const STREAMED_TYPES = new Set(['text/csv', 'text/plain', 'multipart/form-data']);

/** The most an upload may be: the largest file limit (20 MB) plus a multipart form's own parts. */
export const STREAMED_BODY_LIMIT_BYTES = CSV_BODY_LIMIT_BYTES + 64 * 1024;

/** Whether the body is an upload still unread on the stream. */
export function hasStreamedBody(request: Request): boolean {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  return STREAMED_TYPES.has(type) && !Buffer.isBuffer(request.body) && !request.readableEnded;
}

/**
 * Reads an upload's bytes into `request.body` (a Buffer) before the route does, so the
 * Idempotency-Key fingerprint covers the file itself; readCsvBody and the multipart reader then
 * read the Buffer. Over STREAMED_BODY_LIMIT_BYTES: 413 (each route applies its own, smaller limit).
 */
export async function bufferStreamedBody(request: Request): Promise<void> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > STREAMED_BODY_LIMIT_BYTES) throw tooLarge(CSV_BODY_LIMIT_BYTES);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > STREAMED_BODY_LIMIT_BYTES) throw tooLarge(CSV_BODY_LIMIT_BYTES);
    chunks.push(chunk);
  }
  request.body = Buffer.concat(chunks);
}
