import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks headers for one attempt: `webhook-id` (the event id, the same on every retry
 * and replay), `webhook-timestamp` (seconds, at the attempt) and `webhook-signature` with one
 * `v1,<base64>` per secret, space-separated (during a rotation's overlap: new and old).
 */
export function signedHeaders(
  eventId: string,
  body: string,
  secrets: readonly string[],
  at: Date,
): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(eventId, at, body));
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
