import { unreachableCause } from './source-connector.js';

describe('unreachableCause', () => {
  it("gives fetch's system error code", () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:443'), { code: 'ECONNREFUSED' });
    expect(unreachableCause(new TypeError('fetch failed', { cause }))).toBe('ECONNREFUSED');
  });

  it('else the message without URLs or addresses (a URL may carry an API key)', () => {
    const cause = new Error('bad certificate for https://api.example.com/v2?apikey=SECRET at 10.0.0.7:443');
    expect(unreachableCause(new TypeError('fetch failed', { cause }))).toBe('bad certificate for at');
  });

  it('says "no answer" when nothing is left', () => {
    expect(unreachableCause(new TypeError('https://x.example/?k=1'))).toBe('no answer');
  });
});
