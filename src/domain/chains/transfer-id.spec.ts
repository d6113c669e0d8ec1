import { chainTransferId, transferDirection } from './transfer-id.js';

describe('chainTransferId: the id both ends of an on-chain move compute from its hash', () => {
  it('is chain: and the 64 hex digits in lower case, whatever the case or 0x prefix', () => {
    const hash = 'AbCd'.repeat(16);
    expect(chainTransferId(hash)).toBe(`chain:${hash.toLowerCase()}`);
    expect(chainTransferId(`0x${hash}`)).toBe(`chain:${hash.toLowerCase()}`);
    expect(chainTransferId(` ${hash.toLowerCase()} `)).toBe(`chain:${hash.toLowerCase()}`);
  });

  it('is chain: and a Solana signature as written (base58 of 64 bytes is case-sensitive)', () => {
    const signature =
      '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
    expect(chainTransferId(signature)).toBe(`chain:${signature}`);
    expect(chainTransferId(signature.slice(0, 60))).toBeNull();
  });

  it('is null for anything that is not such a hash (a bank reference, another chain, nothing)', () => {
    for (const txid of [
      undefined,
      null,
      '',
      '12341234',
      'ab'.repeat(31),
      'zz'.repeat(32),
      `${'ab'.repeat(32)}:1`,
    ])
      expect(chainTransferId(txid)).toBeNull();
  });

  it('turns a receipt or payment with an id into a transfer leg and leaves every other leg alone', () => {
    expect(transferDirection('deposit', 'chain:x')).toBe('transfer_in');
    expect(transferDirection('withdrawal', 'chain:x')).toBe('transfer_out');
    expect(transferDirection('fee', 'chain:x')).toBe('fee');
    expect(transferDirection('deposit', null)).toBe('deposit');
    expect(transferDirection('withdrawal', null)).toBe('withdrawal');
  });
});
