/**
 * Remembers tokens whose signature and claims were already verified (or that this instance issued), keyed by the exact token
 * string, so a client sending the same bearer token repeatedly pays ES256 verification (~100 µs)
 * once. Safe because verification is a pure function of the token string and the key set, which
 * only changes at restart; expiry and not-before are still checked on every hit, and the
 * "client still enabled" check runs on every request regardless. Bounded (least recently inserted
 * entries go first).
 */
export interface VerifiedClaims {
  sub: string;
  tid: string;
  scope: string;
  jti: string;
  nbf: number;
  exp: number;
  /** Secret generation the token was issued under (0 when the claim is absent: older tokens). */
  sgen: number;
}

export class VerifiedTokenCache {
  private readonly entries = new Map<string, VerifiedClaims>();

  constructor(private readonly maxEntries = 10_000) {}

  get(token: string, nowMs: number): VerifiedClaims | undefined {
    const claims = this.entries.get(token);
    if (!claims) return undefined;
    if (nowMs >= claims.exp * 1000) {
      this.entries.delete(token);
      return undefined;
    }
    return nowMs >= claims.nbf * 1000 ? claims : undefined;
  }

  set(token: string, claims: VerifiedClaims): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(token, claims);
  }
}
