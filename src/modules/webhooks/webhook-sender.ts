/**
 * One webhook HTTP call: POST with the signed headers, a hard time limit (connect to last byte),
 * the connection only to an address the SSRF rule allows (checked on the address dialled: the
 * literal in the URL, or each address the name resolves to at connect time), and at most a short excerpt of the
 * answer kept (the rest is read and discarded up to a cap, then the socket is dropped).
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  guardedLookup,
  refusedLiteralHost,
  systemResolveAll,
  WebhookUrlError,
  type ResolveAll,
} from './webhook-url.js';

export const EXCERPT_CHARS = 200;
const MAX_READ_BYTES = 16 * 1024;

export interface SendResult {
  /** HTTP status, or null when no answer came (refused, timeout, DNS). */
  readonly status: number | null;
  readonly excerpt: string | null;
  readonly error: string | null;
}

export function sendWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  production: boolean,
  resolveAll: ResolveAll = systemResolveAll,
): Promise<SendResult> {
  const refused = refusedLiteralHost(url, production);
  if (refused) return Promise.resolve({ status: null, excerpt: null, error: `refused: ${refused}` });
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'crypto-accounts-webhooks/1',
        },
        lookup: guardedLookup(production, resolveAll) as never,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read <= MAX_READ_BYTES) chunks.push(chunk);
          else response.destroy();
        });
        const finish = () =>
          done({
            status: response.statusCode ?? null,
            excerpt: excerptOf(Buffer.concat(chunks).toString('utf8')),
            error: null,
          });
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`timeout after ${timeoutMs} ms`));
      done({ status: null, excerpt: null, error: `timeout after ${timeoutMs} ms` });
    }, timeoutMs);
    request.on('error', (error: Error & { code?: string }) =>
      done({
        status: null,
        excerpt: null,
        error:
          error instanceof WebhookUrlError
            ? `refused: ${error.message}`
            : (error.code ? `${error.code}: ` : '') + error.message.slice(0, 300),
      }),
    );
    request.end(body);
  });
}

/** A short single-line excerpt of an answer (control characters removed). */
function excerptOf(text: string): string | null {
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return clean === '' ? null : clean.slice(0, EXCERPT_CHARS);
}
