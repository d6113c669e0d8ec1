import type { SourceDescription } from '../connectors/source-connector.js';

/** Base58 account-level extended public keys are 111 characters; the pattern allows the six prefixes. */
export const XPUB_PATTERN = /^[xyztuv]pub[1-9A-HJ-NP-Za-km-z]{100,112}$/;

/**
 * The `bitcoin` source: a watch-only wallet, one address (`address` + `chain: bitcoin`) or an
 * account-level extended public key (`xpub`: xpub/ypub/zpub, BIP44/49/84), read from an Esplora API.
 */
export const BITCOIN_SOURCE: SourceDescription = {
  summary: '`bitcoin` (watch-only address or xpub/ypub/zpub, from an Esplora API)',
  synthetic: false,
  options: {
    xpub: {
      type: 'string',
      pattern: XPUB_PATTERN,
      maxLength: 120,
      description:
        'Bitcoin source only: an account-level extended PUBLIC key (xpub BIP44, ypub BIP49, zpub BIP84; tpub/upub/vpub on testnet) whose receive and change addresses are watched (gap limit 20). Instead of address.',
      example:
        'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
    },
  },
  linking: { platforms: ['bitcoin'], accepts: ['address', 'xpub'] },
  examples: {
    'bitcoin-address': {
      summary: 'Bitcoin: a watch-only address',
      body: {
        platform: 'bitcoin',
        source: 'bitcoin',
        address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        chain: 'bitcoin',
      },
    },
    'bitcoin-xpub': {
      summary: 'Bitcoin: an extended public key (zpub, BIP84), every address it derives',
      body: {
        platform: 'bitcoin',
        source: 'bitcoin',
        xpub: 'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
      },
    },
  },
};
