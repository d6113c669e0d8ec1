import type { Request } from 'express';
import { Readable } from 'node:stream';
import multer from 'multer';
import { DomainError } from '../errors/domain-error.js';

export { CSV_BODY_LIMIT_BYTES, isMultipart, readCsvBody } from './csv-body.js';
import { CSV_BODY_LIMIT_BYTES, isMultipart, readCsvBody, tooLarge } from './csv-body.js';

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
  // A body the Idempotency-Key interceptor already read (bufferStreamedBody) is replayed to multer.
  const source = Buffer.isBuffer(request.body)
    ? (Object.assign(Readable.from([request.body]), {
        headers: request.headers,
        method: request.method,
      }) as unknown as Request)
    : request;
  await new Promise<void>((resolve, reject) => {
    upload(source, {} as never, (error: unknown) => {
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
  const file = (source as Request & { file?: Express.Multer.File }).file;
  if (!file)
    throw DomainError.validation(
      UPLOAD_FILE_FIELD,
      `The form has no file; send it in the field "${UPLOAD_FILE_FIELD}".`,
    );
  const body = (source.body ?? {}) as Record<string, unknown>;
  const format =
    typeof body[UPLOAD_FORMAT_FIELD] === 'string' ? (body[UPLOAD_FORMAT_FIELD] as string).trim() : undefined;
  return { text: file.buffer.toString('utf8'), format: format === '' ? undefined : format };
}

/**
 * An import's file and its format, as the admin and the partner import routes both take it: a
 * multipart form (`file`, optional `format`) or the body itself (text/csv) with `format` from the
 * query. Over the limit: 413.
 */
export async function readImportUpload(
  request: Request,
  queryFormat: string | undefined,
): Promise<{ text: string; format: string | undefined }> {
  if (isMultipart(request)) return readMultipartUpload(request);
  return { text: await readCsvBody(request), format: queryFormat };
}
