/**
 * Uploading a file into a csv account (POST /v1/api/accounts/{accountId}/import): what the README
 * shows sends the file itself (text/csv) or a multipart form, not a JSON string of it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createServiceClient, unwrap } from '../src/index.js';
import { clientOptions, envelope, fakeService } from './fake-service.js';

const FILE =
  'transactionId,timestamp,symbol,direction,amount,price\ntx-1,2024-01-02T03:04:05Z,BTC,buy,0.5,42000\n';
const SUMMARY = { accountId: 'a', rows: 1, inserted: 1, updated: 0, unchanged: 0, format: 'csv' };

describe('uploading a file', () => {
  it('sends the file as the text/csv body when the serializer passes it through', async () => {
    const { fetch, seen } = fakeService(() => envelope(SUMMARY));
    const api = createServiceClient(clientOptions(fetch));
    const summary = await unwrap(
      api.POST('/v1/api/accounts/{accountId}/import', {
        params: { path: { accountId: 'a' } },
        body: FILE,
        bodySerializer: (file) => file,
        headers: { 'Content-Type': 'text/csv' },
      }),
    );
    assert.deepEqual(summary, SUMMARY);
    assert.equal(seen[0]!.headers.get('content-type'), 'text/csv');
    assert.equal(seen[0]!.body, FILE);
  });

  it('sends a multipart form with the file in the field `file`', async () => {
    const { fetch, seen } = fakeService(() => envelope({ ...SUMMARY, format: 'coinbase' }));
    const api = createServiceClient(clientOptions(fetch));
    const form = new FormData();
    form.append('file', new Blob([FILE], { type: 'text/csv' }), 'export.csv');
    await unwrap(
      api.POST('/v1/api/accounts/{accountId}/import', {
        params: { path: { accountId: 'a' } },
        // The generated type describes the form's fields; openapi-fetch sends a FormData as it is.
        body: form as never,
      }),
    );
    assert.match(seen[0]!.headers.get('content-type') ?? '', /^multipart\/form-data; boundary=/);
    assert.match(
      seen[0]!.body,
      /name="file"; filename="export.csv"\r\nContent-Type: text\/csv\r\n\r\ntransactionId,/,
    );
  });
});
