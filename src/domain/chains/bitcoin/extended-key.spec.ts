import fc from 'fast-check';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { ExtendedKeyErrorCode, isBitcoinAddress, parseExtendedPublicKey } from './extended-key.js';

/** The BIP84/BIP49/BIP44 test mnemonic; the keys and addresses below are the published vectors. */
const MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const YPUB =
  'ypub6Ww3ibxVfGzLrAH1PNcjyAWenMTbbAosGNB6VvmSEgytSER9azLDWCxoJwW7Ke7icmizBMXrzBx9979FfaHxHcrArf3zbeJJJUZPf663zsP';
const XPUB =
  'xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj';

describe('parseExtendedPublicKey', () => {
  it.each([
    // BIP84 test vectors: m/84'/0'/0'/0/0, /0/1 and /1/0.
    [ZPUB, 'p2wpkh', 0, 0, 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
    [ZPUB, 'p2wpkh', 0, 1, 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g'],
    [ZPUB, 'p2wpkh', 1, 0, 'bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el'],
    // BIP49 (P2SH-P2WPKH) and BIP44 (P2PKH), first receive address.
    [YPUB, 'p2sh-p2wpkh', 0, 0, '37VucYSaXLCAsxYyAPfbSi9eh4iEcbShgf'],
    [XPUB, 'p2pkh', 0, 0, '1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA'],
  ] as const)('%s… %s chain %i index %i is %s', (key, scriptType, chain, index, address) => {
    const wallet = parseExtendedPublicKey(key);
    expect(wallet.scriptType).toBe(scriptType);
    expect(wallet.network).toBe('mainnet');
    expect(wallet.address(chain, index)).toBe(address);
  });

  it('derives from the public key exactly what the private derivation of the full path gives (property)', () => {
    const account = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC), {
      public: 0x04b24746,
      private: 0x04b2430c,
    }).derive("m/84'/0'/0'");
    const wallet = parseExtendedPublicKey(account.publicExtendedKey);
    const expected = parseExtendedPublicKey(ZPUB);
    fc.assert(
      fc.property(fc.constantFrom(0 as const, 1 as const), fc.nat({ max: 5000 }), (chain, index) => {
        expect(wallet.address(chain, index)).toBe(expected.address(chain, index));
      }),
      { numRuns: 50 },
    );
  });

  it.each([
    [
      'an extended private key',
      'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
      ExtendedKeyErrorCode.PrivateKey,
    ],
    [
      'an unknown prefix',
      'Ltub2SSUS19CirucWFod2ZsYA2J4v4U76YiCXHdcQttnoiy5aGanFHCPDBX7utfG6f95u1cUbZJNafmvzNCzZZJTw1EmyFoL8u1gJbGM8ipu491',
      ExtendedKeyErrorCode.UnknownPrefix,
    ],
    ['a bad checksum', `${ZPUB.slice(0, -1)}t`, ExtendedKeyErrorCode.Malformed],
    [
      'a master key (depth 0)',
      HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC)).publicExtendedKey,
      ExtendedKeyErrorCode.NotAccountLevel,
    ],
  ])('refuses %s with its code', (_label, key, code) => {
    expect(() => parseExtendedPublicKey(key)).toThrow(expect.objectContaining({ code }));
  });

  it('never echoes a private key in its message', () => {
    const xprv = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC)).privateExtendedKey;
    try {
      parseExtendedPublicKey(xprv);
      throw new Error('accepted a private key');
    } catch (error) {
      expect((error as Error).message).not.toContain(xprv.slice(4, 20));
    }
  });
});

describe('isBitcoinAddress', () => {
  it.each([
    ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', true],
    ['37VucYSaXLCAsxYyAPfbSi9eh4iEcbShgf', true],
    ['1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA', true],
    ['bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr', true], // BIP86 taproot vector
    ['bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyv', false], // checksum
    ['1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabB', false],
    ['0x9858EfFD232B4033E47d90003D41EC34EcaEda94', false],
    ['', false],
  ])('%s → %s', (address, valid) => {
    expect(isBitcoinAddress(address)).toBe(valid);
  });
});
