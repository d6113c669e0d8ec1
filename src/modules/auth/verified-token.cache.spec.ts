import { VerifiedTokenCache } from './verified-token.cache.js';

const claims = (nbf: number, exp: number) => ({
  sub: 'c',
  tid: 't',
  scope: 'partner',
  jti: 'j',
  nbf,
  exp,
  sgen: 0,
});

describe('VerifiedTokenCache', () => {
  it('returns a remembered token only between nbf and exp', () => {
    const cache = new VerifiedTokenCache();
    cache.set('tok', claims(100, 200));
    expect(cache.get('tok', 99_000)).toBeUndefined();
    expect(cache.get('tok', 100_000)).toMatchObject({ sub: 'c' });
    expect(cache.get('tok', 199_999)).toMatchObject({ sub: 'c' });
    expect(cache.get('tok', 200_000)).toBeUndefined();
    expect(cache.get('tok', 150_000)).toBeUndefined(); // expired entries are dropped for good
  });

  it('never matches a different token string', () => {
    const cache = new VerifiedTokenCache();
    cache.set('tok', claims(0, 1e12));
    expect(cache.get('tok ', 1)).toBeUndefined();
    expect(cache.get('to', 1)).toBeUndefined();
  });

  it('stays bounded, dropping the oldest entries', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('a', claims(0, 1e12));
    cache.set('b', claims(0, 1e12));
    cache.set('c', claims(0, 1e12));
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toBeDefined();
    expect(cache.get('c', 1)).toBeDefined();
  });
});
