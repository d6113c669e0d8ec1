/**
 * Webhook verification: the Standard Webhooks specification's test vector, signatures computed here
 * with node:crypto as the spec defines them (HMAC-SHA256 of `id.timestamp.body` with the base64
 * secret after `whsec_`), and each way a delivery must be refused.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it, mock } from 'node:test';
import {
  verifyWebhook,
  WebhookVerificationError,
  type AccountEventType,
  type Schema,
  type WebhookEvent,
} from '../src/index.js';

/** The vector of the Standard Webhooks reference libraries' tests (timestamp 1614265330). */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

const SECRET = 'whsec_' + Buffer.from('a 32-byte secret for the tests!!').toString('base64');
const OTHER = 'whsec_' + Buffer.from('another secret, 32 bytes long...').toString('base64');
const EVENT = JSON.stringify({
  type: 'account.synced',
  timestamp: '2026-03-15T12:00:03.120Z',
  data: {
    accountId: 'a1',
    syncStatus: 'synced',
    lastSyncedAt: '2026-03-15T12:00:03.120Z',
    balanceSource: 'calculated',
    transactions: { added: 1, changed: 0, removed: 0 },
  },
});

function delivery(options: { secret?: string; at?: number; body?: string; signature?: string } = {}) {
  const at = options.at ?? Math.floor(Date.now() / 1000);
  const body = options.body ?? EVENT;
  return {
    body,
    headers: {
      'webhook-id': 'evt-1',
      'webhook-timestamp': String(at),
      'webhook-signature': options.signature ?? sign(options.secret ?? SECRET, 'evt-1', at, EVENT),
    },
  };
}

describe('verifyWebhook', () => {
  it('accepts the Standard Webhooks test vector at its time, and the signature computed here matches it', () => {
    assert.equal(sign(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.payload), VECTOR.signature);
    mock.timers.enable({ apis: ['Date'], now: VECTOR.timestamp * 1000 });
    try {
      const headers = {
        'webhook-id': VECTOR.id,
        'webhook-timestamp': String(VECTOR.timestamp),
        'webhook-signature': VECTOR.signature,
      };
      assert.deepEqual(verifyWebhook(VECTOR.payload, headers, VECTOR.secret), { test: 2432232314 });
    } finally {
      mock.timers.reset();
    }
  });

  it('returns the typed event of a delivery, from a string, bytes or fetch Headers', () => {
    const { body, headers } = delivery();
    const event = verifyWebhook(body, headers, SECRET);
    assert.equal(event.type, 'account.synced');
    if (event.type === 'account.synced') assert.equal(event.data.transactions.added, 1);
    assert.deepEqual(verifyWebhook(new TextEncoder().encode(body), new Headers(headers), SECRET), event);
    // Node's req.headers: lower-case names; Express-style upper case names are found too.
    assert.deepEqual(
      verifyWebhook(
        body,
        {
          'Webhook-Id': headers['webhook-id'],
          'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
          'webhook-signature': headers['webhook-signature'],
        },
        SECRET,
      ),
      event,
    );
  });

  it('accepts either of two signatures (the service signs with both secrets during a rotation)', () => {
    const at = Math.floor(Date.now() / 1000);
    const both = `${sign(OTHER, 'evt-1', at, EVENT)} ${sign(SECRET, 'evt-1', at, EVENT)}`;
    assert.equal(
      verifyWebhook(EVENT, delivery({ at, signature: both }).headers, SECRET).type,
      'account.synced',
    );
    assert.equal(
      verifyWebhook(EVENT, delivery({ at, signature: both }).headers, OTHER).type,
      'account.synced',
    );
    // The receiver's own rotation: it knows two secrets and either verifies.
    assert.equal(
      verifyWebhook(EVENT, delivery({ secret: OTHER }).headers, [SECRET, OTHER]).type,
      'account.synced',
    );
  });

  it('refuses a changed body, another secret, an old or future timestamp, missing headers', () => {
    const refused = (run: () => unknown, message: RegExp) =>
      assert.throws(
        run,
        (error: unknown) => error instanceof WebhookVerificationError && message.test(error.message),
      );
    const good = delivery();
    refused(
      () => verifyWebhook(EVENT.replace('"added":1', '"added":2'), good.headers, SECRET),
      /No matching signature/,
    );
    refused(() => verifyWebhook(EVENT, good.headers, OTHER), /No matching signature/);
    const now = Math.floor(Date.now() / 1000);
    refused(() => verifyWebhook(EVENT, delivery({ at: now - 6 * 60 }).headers, SECRET), /too old/);
    refused(() => verifyWebhook(EVENT, delivery({ at: now + 6 * 60 }).headers, SECRET), /too new/);
    const { 'webhook-signature': _, ...unsigned } = good.headers;
    refused(() => verifyWebhook(EVENT, unsigned, SECRET), /Missing required headers: webhook-signature/);
    refused(
      () =>
        verifyWebhook(
          EVENT,
          { ...good.headers, 'webhook-signature': good.headers['webhook-signature'].replace('v1,', 'v2,') },
          SECRET,
        ),
      /No matching/,
    );
    assert.throws(() => verifyWebhook(EVENT, good.headers, []), TypeError);
  });

  it('types event names from the document: a typo does not compile', () => {
    const subscribed: AccountEventType[] = ['account.synced', 'balances.updated'];
    // @ts-expect-error: not an event the API emits
    const typo: AccountEventType[] = ['acount.synced'];
    const body: Schema<'CreateWebhookDto'> = { url: 'https://x.example', eventTypes: subscribed };
    // @ts-expect-error: webhook.test cannot be subscribed to
    const test: Schema<'CreateWebhookDto'> = { url: 'https://x.example', eventTypes: ['webhook.test'] };
    const handle = (event: WebhookEvent) =>
      // @ts-expect-error: a typo in a comparison is an error too (no overlap)
      event.type === 'balances.update' ? 0 : event.type === 'balances.updated' ? event.data.assets.length : 1;
    assert.ok(body && typo && test && handle);
  });
});
