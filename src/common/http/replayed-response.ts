/** A response kept to be sent again byte for byte (Idempotency-Key retries). */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Thrown to answer a request with a stored response: the exception filter writes it unchanged,
 * so the handler (and the envelope around it) does not run again.
 */
export class ReplayedResponse extends Error {
  constructor(readonly response: StoredResponse) {
    super('replayed response');
    this.name = 'ReplayedResponse';
  }
}

/** Set on a replayed response, so a client can tell it from a fresh execution. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
