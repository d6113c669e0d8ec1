import fc from 'fast-check';
import {
  btcToSats,
  satsToBtc,
  walletHistory,
  walletLegs,
  type EsploraTransaction,
  type WalletLeg,
} from './esplora-history.js';

const OWN_A = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const OWN_B = 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g';
const OWN_CHANGE = 'bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el';
const EXCHANGE = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const FRIEND = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const own = new Set([OWN_A, OWN_B, OWN_CHANGE]);

const T0 = 1_735_689_600; // 2025-01-01T00:00:00Z
let n = 0;
function tx(
  inputs: [address: string | null, sats: number][],
  outputs: [address: string, sats: number][],
  fee: number,
  time = T0,
  confirmed = true,
): EsploraTransaction {
  n += 1;
  return {
    txid: n.toString(16).padStart(64, '0'),
    vin: inputs.map(([address, value], i) =>
      address === null
        ? { txid: '0'.repeat(64), vout: 0xffffffff, is_coinbase: true, prevout: null }
        : {
            txid: `${'f'.repeat(60)}${i.toString().padStart(4, '0')}`,
            vout: i,
            prevout: { scriptpubkey_address: address, value },
          },
    ),
    vout: outputs.map(([address, value]) => ({ scriptpubkey_address: address, value })),
    fee,
    status: confirmed ? { confirmed: true, block_time: time, block_height: 870_000 } : { confirmed: false },
  };
}
const legs = (t: EsploraTransaction) => walletLegs(t, own).map((l) => [l.direction, l.amount]);

/** The test's oracle: the wallet's balance in satoshis from its legs. */
function walletBalanceSats(legs: readonly WalletLeg[]): bigint {
  let balance = 0n;
  for (const leg of legs) {
    const amount = btcToSats(leg.amount);
    balance += leg.direction === 'deposit' || leg.direction === 'income' ? amount : -amount;
  }
  return balance;
}

describe('walletLegs: what a bitcoin transaction means for the watched wallet', () => {
  it('receipts from and payments to outside carry the chain transfer id; fees, mining and coinjoins do not', () => {
    const receipt = tx([[EXCHANGE, 60_000_000]], [[OWN_A, 50_000_000]], 10_000);
    const payment = tx(
      [[OWN_A, 50_000_000]],
      [
        [FRIEND, 20_000_000],
        [OWN_CHANGE, 29_985_000],
      ],
      15_000,
    );
    const mined = tx([[null, 0]], [[OWN_A, 312_500_000]], 0);
    const coinjoin = tx(
      [
        [OWN_A, 10_000_000],
        [FRIEND, 10_000_000],
      ],
      [
        [OWN_B, 9_995_000],
        [FRIEND, 9_995_000],
      ],
      10_000,
    );
    const ids = (t: EsploraTransaction) => walletLegs(t, own).map((l) => [l.direction, l.transferId]);
    expect(ids(receipt)).toEqual([['deposit', `chain:${receipt.txid}`]]);
    expect(ids(payment)).toEqual([
      ['withdrawal', `chain:${payment.txid}`],
      ['fee', null],
    ]);
    expect(ids(mined)).toEqual([['income', null]]);
    expect(ids(coinjoin)).toEqual([['withdrawal', null]]);
  });

  it('a receipt from outside is a deposit of what reached the wallet', () => {
    expect(
      legs(
        tx(
          [[EXCHANGE, 60_000_000]],
          [
            [OWN_A, 50_000_000],
            [EXCHANGE, 9_990_000],
          ],
          10_000,
        ),
      ),
    ).toEqual([['deposit', '0.5']]);
  });

  it('a payment out is a withdrawal of what left plus a fee entry; the change is not a disposal', () => {
    // Spends 0.5 BTC: 0.2 to a friend, 0.29985 back to own change, 15,000 sat fee.
    const payment = tx(
      [[OWN_A, 50_000_000]],
      [
        [FRIEND, 20_000_000],
        [OWN_CHANGE, 29_985_000],
      ],
      15_000,
      T0 + 3600,
    );
    expect(legs(payment)).toEqual([
      ['withdrawal', '0.2'],
      ['fee', '0.00015'],
    ]);
    const [withdrawal] = walletLegs(payment, own);
    expect(withdrawal).toMatchObject({
      transactionId: `${payment.txid}:withdrawal`,
      occurredAt: new Date('2025-01-01T01:00:00.000Z'),
      blockHeight: 870_000,
    });
  });

  it('moving coins between own addresses records only the fee', () => {
    expect(
      legs(
        tx(
          [
            [OWN_A, 10_000],
            [OWN_B, 20_000],
          ],
          [[OWN_CHANGE, 29_000]],
          1_000,
        ),
      ),
    ).toEqual([['fee', '0.00001']]);
  });

  it('a coinbase output to the wallet is income (mining)', () => {
    expect(legs(tx([[null, 0]], [[OWN_A, 312_500_000]], 0))).toEqual([['income', '3.125']]);
  });

  it('a coinjoin (inputs of others too) records the net change only: the fee share is unknowable', () => {
    const coinjoin = tx(
      [
        [OWN_A, 10_000_000],
        [FRIEND, 10_000_000],
      ],
      [
        [OWN_CHANGE, 9_995_000],
        [FRIEND, 9_995_000],
      ],
      10_000,
    );
    expect(legs(coinjoin)).toEqual([['withdrawal', '0.00005']]);
  });

  it('leaves out unconfirmed transactions and ones that do not touch the wallet', () => {
    expect(legs(tx([[EXCHANGE, 1_000]], [[OWN_A, 900]], 100, T0, false))).toEqual([]);
    expect(legs(tx([[EXCHANGE, 1_000]], [[FRIEND, 900]], 100))).toEqual([]);
  });

  it('refuses a non-integer amount as malformed', () => {
    expect(() => walletLegs(tx([[EXCHANGE, 1.5]], [[OWN_A, 1]], 0), own)).toThrow(/not a satoshi amount/);
  });
});

describe('walletHistory', () => {
  it('counts a transaction listed under two of the wallet’s addresses once, in time order', () => {
    const first = tx(
      [[EXCHANGE, 100_000_000]],
      [
        [OWN_A, 60_000_000],
        [OWN_B, 40_000_000],
      ],
      0,
      T0,
    );
    const second = tx([[OWN_A, 60_000_000]], [[FRIEND, 59_990_000]], 10_000, T0 + 60);
    const history = walletHistory([second, first, first], own);
    expect(history.map((l) => [l.direction, l.amount])).toEqual([
      ['deposit', '1'],
      ['withdrawal', '0.5999'],
      ['fee', '0.0001'],
    ]);
    expect(walletBalanceSats(history)).toBe(40_000_000n);
  });

  it('the legs always sum to the change in what the wallet holds: own outputs − own inputs (property)', () => {
    const address = fc.constantFrom(OWN_A, OWN_B, OWN_CHANGE, EXCHANGE, FRIEND);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(address, fc.integer({ min: 1, max: 2_100_000_000_000 })), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.array(fc.tuple(address, fc.integer({ min: 0, max: 1000 })), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 1000 }),
        (inputs, outputShares, feeShare) => {
          // A valid transaction: inputs = outputs + fee, split by the generated shares.
          const total = inputs.reduce((sum, [, value]) => sum + value, 0);
          const fee = Math.floor((total * feeShare) / 100_000);
          let remaining = total - fee;
          const outputs = outputShares.map(([addr, share], i): [string, number] => {
            const value = i === outputShares.length - 1 ? remaining : Math.floor((remaining * share) / 1000);
            remaining -= value;
            return [addr, value];
          });
          const sum = (list: [string, number][]) =>
            list.filter(([a]) => own.has(a)).reduce((s, [, v]) => s + BigInt(v), 0n);
          const change = walletBalanceSats(walletLegs(tx(inputs, outputs, fee), own));
          expect(change).toBe(sum(outputs) - sum(inputs));
        },
      ),
    );
  });
});

describe('satsToBtc / btcToSats', () => {
  it.each([
    [0n, '0'],
    [1n, '0.00000001'],
    [150_000n, '0.0015'],
    [100_000_000n, '1'],
    [2_100_000_000_000_000n, '21000000'],
  ])('%s sat is %s BTC and back', (sats, btc) => {
    expect(satsToBtc(sats)).toBe(btc);
    expect(btcToSats(btc)).toBe(sats);
  });

  it('round-trips every satoshi amount exactly (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2_100_000_000_000_000n }), (sats) => {
        expect(btcToSats(satsToBtc(sats))).toBe(sats);
      }),
    );
  });
});
