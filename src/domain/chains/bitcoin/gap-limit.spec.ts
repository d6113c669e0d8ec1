import { discoverAddresses } from './gap-limit.js';
import { parseExtendedPublicKey } from './extended-key.js';

const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const wallet = parseExtendedPublicKey(ZPUB);

/** A chain whose addresses at `usedIndexes` have history; records every lookup. */
function chainWith(used: { 0: number[]; 1: number[] }) {
  const usedAddresses = new Set([
    ...used[0].map((i) => wallet.address(0, i)),
    ...used[1].map((i) => wallet.address(1, i)),
  ]);
  const looked: string[] = [];
  return {
    looked,
    hasHistory: async (address: string) => {
      looked.push(address);
      return usedAddresses.has(address);
    },
  };
}

describe('discoverAddresses (gap limit)', () => {
  it('stops each chain after exactly 20 unused addresses in a row', async () => {
    const chain = chainWith({ 0: [0, 1, 5, 24], 1: [0, 3] });
    const found = await discoverAddresses(wallet, chain.hasHistory);
    expect(found.used.map(({ chain: c, index }) => `${c}/${index}`)).toEqual([
      '0/0',
      '0/1',
      '0/5',
      '0/24',
      '1/0',
      '1/3',
    ]);
    // Receive: indexes 0..44 (20 unused after 24); change: 0..23 (20 unused after 3).
    expect(found.scanned).toBe(45 + 24);
    expect(new Set(chain.looked).size).toBe(chain.looked.length);
  });

  it('finds an address 19 unused addresses after the last used one, and not one 20 after', async () => {
    const reachable = await discoverAddresses(wallet, chainWith({ 0: [0, 20], 1: [] }).hasHistory);
    expect(reachable.used.map((a) => a.index)).toEqual([0, 20]);
    const beyond = await discoverAddresses(wallet, chainWith({ 0: [0, 21], 1: [] }).hasHistory);
    expect(beyond.used.map((a) => a.index)).toEqual([0]);
  });

  it('scans 20 + 20 addresses of an unused wallet and finds none', async () => {
    const found = await discoverAddresses(wallet, chainWith({ 0: [], 1: [] }).hasHistory);
    expect(found).toEqual({ used: [], scanned: 40 });
  });

  it('honours another gap limit', async () => {
    const found = await discoverAddresses(wallet, chainWith({ 0: [0, 4], 1: [] }).hasHistory, 3);
    expect(found.used.map((a) => a.index)).toEqual([0]);
    expect(found.scanned).toBe(4 + 3);
  });
});
