/**
 * Watch-only bitcoin wallets (issue 15 item 2): the addresses of an extended public key
 * (BIP44 xpub → P2PKH, BIP49 ypub → P2SH-P2WPKH, BIP84 zpub → P2WPKH; testnet tpub/upub/vpub),
 * receive chain 0 and change chain 1, and the check of a single address. Public keys only: no
 * private key is ever derived or accepted.
 */
import { HDKey } from '@scure/bip32';
import { Address, NETWORK, p2pkh, p2sh, p2wpkh, TEST_NETWORK } from '@scure/btc-signer';

export type ScriptType = 'p2pkh' | 'p2sh-p2wpkh' | 'p2wpkh';
export type BitcoinNetwork = 'mainnet' | 'testnet';
/** 0: receive addresses; 1: change addresses (BIP44 "change" level). */
export type AddressChain = 0 | 1;

interface KeyFormat {
  readonly prefix: string;
  readonly version: number;
  readonly scriptType: ScriptType;
  readonly network: BitcoinNetwork;
  /** The BIP that defines the derivation path (m/purpose'/coin'/account'). */
  readonly bip: 44 | 49 | 84;
}

/** SLIP-0132 version bytes of the public extended keys we accept. */
const FORMATS: readonly KeyFormat[] = [
  { prefix: 'xpub', version: 0x0488b21e, scriptType: 'p2pkh', network: 'mainnet', bip: 44 },
  { prefix: 'ypub', version: 0x049d7cb2, scriptType: 'p2sh-p2wpkh', network: 'mainnet', bip: 49 },
  { prefix: 'zpub', version: 0x04b24746, scriptType: 'p2wpkh', network: 'mainnet', bip: 84 },
  { prefix: 'tpub', version: 0x043587cf, scriptType: 'p2pkh', network: 'testnet', bip: 44 },
  { prefix: 'upub', version: 0x044a5262, scriptType: 'p2sh-p2wpkh', network: 'testnet', bip: 49 },
  { prefix: 'vpub', version: 0x045f1cf6, scriptType: 'p2wpkh', network: 'testnet', bip: 84 },
];
const PRIVATE_PREFIXES = ['xprv', 'yprv', 'zprv', 'tprv', 'uprv', 'vprv'];

export enum ExtendedKeyErrorCode {
  PrivateKey = 'private_key',
  UnknownPrefix = 'unknown_prefix',
  Malformed = 'malformed',
  NotAccountLevel = 'not_account_level',
}

export class ExtendedKeyError extends Error {
  constructor(
    readonly code: ExtendedKeyErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ExtendedKeyError';
  }
}

export interface WatchedExtendedKey {
  readonly scriptType: ScriptType;
  readonly network: BitcoinNetwork;
  readonly bip: 44 | 49 | 84;
  /** The address at chain/index (non-hardened derivation from the account-level key). */
  address(chain: AddressChain, index: number): string;
}

/**
 * Parses an account-level extended public key (depth 3: m/purpose'/coin'/account'). A private
 * key is refused with its own code, so the API can say "send the public key" without echoing it.
 */
export function parseExtendedPublicKey(text: string): WatchedExtendedKey {
  const key = text.trim();
  const prefix = key.slice(0, 4);
  if (PRIVATE_PREFIXES.includes(prefix)) {
    throw new ExtendedKeyError(
      ExtendedKeyErrorCode.PrivateKey,
      'This is an extended PRIVATE key; send the extended public key (xpub, ypub or zpub) instead.',
    );
  }
  const format = FORMATS.find((candidate) => candidate.prefix === prefix);
  if (!format) {
    throw new ExtendedKeyError(
      ExtendedKeyErrorCode.UnknownPrefix,
      `Expected an extended public key starting with ${FORMATS.map((f) => f.prefix).join(', ')}.`,
    );
  }
  let hd: HDKey;
  try {
    hd = HDKey.fromExtendedKey(key, { public: format.version, private: 0 });
  } catch {
    throw new ExtendedKeyError(
      ExtendedKeyErrorCode.Malformed,
      'The extended public key is malformed (bad checksum or length).',
    );
  }
  if (hd.depth !== 3) {
    throw new ExtendedKeyError(
      ExtendedKeyErrorCode.NotAccountLevel,
      `Expected an account-level key (depth 3, m/${format.bip}'/coin'/account'); this key has depth ${hd.depth}.`,
    );
  }
  const network = format.network === 'mainnet' ? NETWORK : TEST_NETWORK;
  const chains = [hd.deriveChild(0), hd.deriveChild(1)] as const;
  return {
    scriptType: format.scriptType,
    network: format.network,
    bip: format.bip,
    address(chain, index) {
      if (!Number.isInteger(index) || index < 0 || index >= 0x80000000) {
        throw new RangeError(`index must be a non-hardened child index, got ${index}`);
      }
      const publicKey = chains[chain].deriveChild(index).publicKey!;
      switch (format.scriptType) {
        case 'p2pkh':
          return p2pkh(publicKey, network).address!;
        case 'p2sh-p2wpkh':
          return p2sh(p2wpkh(publicKey, network), network).address!;
        case 'p2wpkh':
          return p2wpkh(publicKey, network).address!;
      }
    },
  };
}

/** True when `address` is a valid bitcoin address of `network` (any script type, bech32m included). */
export function isBitcoinAddress(address: string, network: BitcoinNetwork = 'mainnet'): boolean {
  try {
    Address(network === 'mainnet' ? NETWORK : TEST_NETWORK).decode(address.trim());
    return true;
  } catch {
    return false;
  }
}
