import { UnsupportedMediaTypeException } from '@nestjs/common';
import type { Request } from 'express';
import multer from 'multer';
import { DomainError, ErrorCode } from '../../../common/errors/domain-error.js';

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
    `The file exceeds ${limitBytes} bytes (20 MB); split it into several imports.`,
  );
}

/** Field names of the multipart form (docs/sources.md, "Export files"). */
export const UPLOAD_FILE_FIELD = 'file';
export const UPLOAD_FORMAT_FIELD = 'format';

/**
 * Reads a multipart/form-data upload through multer (in memory, one file of at most the limit):
 * the text of the `file` field and the optional `format` field. Over the limit: 413; no file, a
 * second file or another file field: 400 naming the field.
 */
export async function readMultipartUpload(
  request: Request,
  limitBytes = CSV_BODY_LIMIT_BYTES,
): Promise<{ text: string; format: string | undefined }> {
  const declared = Number(request.headers['content-length'] ?? 0);
  // The form's own parts add a little; far beyond the limit is refused before reading.
  if (declared > limitBytes + 64 * 1024) throw tooLarge(limitBytes);
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: limitBytes, files: 1, fields: 4, fieldSize: 1024, parts: 6 },
  }).single(UPLOAD_FILE_FIELD);
  await new Promise<void>((resolve, reject) => {
    upload(request, {} as never, (error: unknown) => {
      if (!error) return resolve();
      if (error instanceof multer.MulterError) {
        if (error.code === 'LIMIT_FILE_SIZE') return reject(tooLarge(limitBytes));
        const field = error.field ?? UPLOAD_FILE_FIELD;
        return reject(
          DomainError.validation(
            field,
            error.code === 'LIMIT_UNEXPECTED_FILE' || error.code === 'LIMIT_FILE_COUNT'
              ? `Send exactly one file, in the form field "${UPLOAD_FILE_FIELD}".`
              : `The form is malformed (${error.message}).`,
          ),
        );
      }
      reject(
        DomainError.validation(
          UPLOAD_FILE_FIELD,
          `The multipart form could not be read: ${String((error as Error).message ?? error)}`,
        ),
      );
    });
  });
  const file = (request as Request & { file?: Express.Multer.File }).file;
  if (!file)
    throw DomainError.validation(
      UPLOAD_FILE_FIELD,
      `The form has no file; send it in the field "${UPLOAD_FILE_FIELD}".`,
    );
  const body = (request.body ?? {}) as Record<string, unknown>;
  const format =
    typeof body[UPLOAD_FORMAT_FIELD] === 'string' ? (body[UPLOAD_FORMAT_FIELD] as string).trim() : undefined;
  return { text: file.buffer.toString('utf8'), format: format === '' ? undefined : format };
}
