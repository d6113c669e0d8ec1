import fc from 'fast-check';
import {
  addressLegs,
  unitsToDecimal,
  unknownTokenSymbol,
  type EtherscanNormalTx,
  type EtherscanTokenTx,
} from './etherscan-history.js';

const ME = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
const me = ME.toLowerCase();
const OTHER = '0x1111111111111111111111111111111111111111';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const SPAM = '0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef';
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const T = 1_704_067_200; // 2024-01-01T00:00:00Z

const normal = (
  n: number,
  from: string,
  to: string,
  value: string,
  gasUsed = '21000',
  gasPrice = '20000000000',
  isError = '0',
): EtherscanNormalTx => ({
  hash: hash(n),
  blockNumber: String(19_000_000 + n),
  timeStamp: String(T + n * 60),
  from,
  to,
  value,
  gasUsed,
  gasPrice,
  isError,
});
const token = (
  n: number,
  from: string,
  to: string,
  value: string,
  contractAddress: string,
  tokenSymbol: string,
  tokenDecimal: string,
): EtherscanTokenTx => ({
  hash: hash(n),
  blockNumber: String(19_000_000 + n),
  timeStamp: String(T + n * 60),
  from,
  to,
  value,
  contractAddress,
  tokenSymbol,
  tokenDecimal,
  logIndex: '7',
});
const summary = (legs: ReturnType<typeof addressLegs>) => legs.map((l) => [l.direction, l.symbol, l.amount]);

describe('addressLegs: what an Ethereum address’s history means for its ledger', () => {
  it('receiving ETH is a deposit; sending is a withdrawal plus the gas as a fee (21,000 × 20 gwei = 0.00042 ETH)', () => {
    const legs = addressLegs(ME, {
      normal: [normal(1, OTHER, me, '1500000000000000000'), normal(2, ME, OTHER, '250000000000000000')],
      internal: [],
      tokens: [],
    });
    expect(summary(legs)).toEqual([
      ['deposit', 'ETH', '1.5'],
      ['withdrawal', 'ETH', '0.25'],
      ['fee', 'ETH', '0.00042'],
    ]);
    expect(legs[0]).toMatchObject({
      transactionId: `${hash(1)}:eth-in`,
      occurredAt: new Date('2024-01-01T00:01:00Z'),
      blockNumber: 19_000_001,
    });
    // Native ETH moves carry the chain transfer id of their hash (no 0x); the gas does not.
    expect(legs.map((l) => l.transferId)).toEqual([
      `chain:${hash(1).slice(2)}`,
      `chain:${hash(2).slice(2)}`,
      null,
    ]);
  });

  it('a failed transaction still costs its gas and moves nothing else', () => {
    expect(
      summary(
        addressLegs(ME, {
          normal: [normal(3, ME, OTHER, '1000000000000000000', '50000', '10000000000', '1')],
          internal: [],
          tokens: [],
        }),
      ),
    ).toEqual([['fee', 'ETH', '0.0005']]);
  });

  it('sending to itself costs only gas; a contract call of value 0 only gas', () => {
    const legs = addressLegs(ME, {
      normal: [normal(4, ME, ME, '5'), normal(5, ME, USDC, '0', '60000', '30000000000')],
      internal: [],
      tokens: [],
    });
    expect(summary(legs)).toEqual([
      ['fee', 'ETH', '0.00042'],
      ['fee', 'ETH', '0.0018'],
    ]);
  });

  it('internal ETH from a contract is a deposit; a reverted one is nothing', () => {
    const internal = [
      {
        hash: hash(6),
        blockNumber: '19000006',
        timeStamp: String(T),
        from: USDC,
        to: me,
        value: '20000000000000000',
        isError: '0',
        traceId: '0_1',
      },
      {
        hash: hash(7),
        blockNumber: '19000007',
        timeStamp: String(T),
        from: USDC,
        to: me,
        value: '1',
        isError: '1',
        traceId: '0',
      },
    ];
    expect(summary(addressLegs(ME, { normal: [], internal, tokens: [] }))).toEqual([
      ['deposit', 'ETH', '0.02'],
    ]);
  });

  it('a known token by its contract (USDC, 6 decimals); any other contract under its own symbol, flagged, even if it calls itself USDC', () => {
    const legs = addressLegs(ME, {
      normal: [],
      internal: [],
      tokens: [
        token(8, OTHER, me, '2500000', USDC, 'USDC', '6'),
        token(9, OTHER, me, '1000000000000000000000', SPAM, 'USDC', '18'),
        token(10, me, OTHER, '500000', USDC, 'USDC', '6'),
      ],
    });
    expect(summary(legs)).toEqual([
      ['deposit', 'USDC', '2.5'],
      ['deposit', 'ERCDEADBEEFDEADBEEFD', '1000'],
      ['withdrawal', 'USDC', '0.5'],
    ]);
    expect(legs[1]).toMatchObject({ unknownToken: true, contractAddress: SPAM });
    expect(legs[0]!.unknownToken).toBe(false);
    // Token logs share their transaction's hash and an exchange reports no log index: no transfer id.
    expect(legs.every((l) => l.transferId === null)).toBe(true);
  });

  describe('token rows without a logIndex (Etherscan’s own documented tokentx sample has none)', () => {
    /** A tokentx row in the shape of Etherscan's documented sample: no logIndex, extra fields kept. */
    const sampleRow = (
      n: number,
      from: string,
      to: string,
      value: string,
      contractAddress = USDC,
    ): EtherscanTokenTx =>
      ({
        blockNumber: String(19_000_000 + n),
        timeStamp: String(T + n * 60),
        hash: hash(n),
        nonce: '0',
        blockHash: `0x${'b'.repeat(64)}`,
        from,
        contractAddress,
        to,
        value,
        tokenName: 'USD Coin',
        tokenSymbol: 'USDC',
        tokenDecimal: '6',
        transactionIndex: '1',
        gas: '940000',
        gasPrice: '32010000000',
        gasUsed: '77759',
        cumulativeGasUsed: '203329',
        input: 'deprecated',
        confirmations: '1234',
      }) as unknown as EtherscanTokenTx;
    const tokensOnly = (tokens: EtherscanTokenTx[]) => addressLegs(ME, { normal: [], internal: [], tokens });

    it('are read; their id comes from hash, contract, from, to and value, the same on every refresh', () => {
      const rows = [sampleRow(20, OTHER, me, '2500000'), sampleRow(20, me, OTHER, '1000000')];
      const legs = tokensOnly(rows);
      // One transaction: its legs are ordered by id.
      expect(summary(legs).sort()).toEqual([
        ['deposit', 'USDC', '2.5'],
        ['withdrawal', 'USDC', '1'],
      ]);
      const ids = legs.map((l) => l.transactionId);
      expect(new Set(ids).size).toBe(2);
      for (const id of ids) expect(id).toMatch(new RegExp(`^${hash(20)}:token:[0-9a-f]{20}$`));
      // Stable: the same rows in another order (another refresh) give the same ids.
      expect(
        tokensOnly([...rows].reverse())
          .map((l) => l.transactionId)
          .sort(),
      ).toEqual([...ids].sort());
      // A row with a logIndex keeps its former id.
      expect(tokensOnly([{ ...rows[0]!, logIndex: '12' }])[0]!.transactionId).toBe(`${hash(20)}:token:12`);
    });

    it('two identical transfers in one transaction are two legs, numbered', () => {
      const row = sampleRow(21, OTHER, me, '1000000');
      const legs = tokensOnly([row, { ...row }]);
      expect(summary(legs)).toEqual([
        ['deposit', 'USDC', '1'],
        ['deposit', 'USDC', '1'],
      ]);
      const [first, second] = legs.map((l) => l.transactionId);
      expect(second).toBe(`${first}:2`);
    });

    it('ids are distinct per transfer and do not depend on the order of the rows (property)', () => {
      const transfer = fc.record({
        n: fc.integer({ min: 30, max: 32 }),
        incoming: fc.boolean(),
        counterparty: fc.constantFrom(OTHER, '0x2222222222222222222222222222222222222222'),
        value: fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String),
        contract: fc.constantFrom(USDC, SPAM),
      });
      fc.assert(
        fc.property(
          fc.array(transfer, { maxLength: 12 }),
          fc.infiniteStream(fc.nat()),
          (transfers, seeds) => {
            const rows = transfers.map((t) =>
              sampleRow(
                t.n,
                t.incoming ? t.counterparty : me,
                t.incoming ? me : t.counterparty,
                t.value,
                t.contract,
              ),
            );
            const legs = tokensOnly(rows);
            expect(legs).toHaveLength(rows.length);
            expect(new Set(legs.map((l) => l.transactionId)).size).toBe(rows.length);
            const shuffled = rows
              .map((row) => ({ row, key: seeds.next().value as number }))
              .sort((a, b) => a.key - b.key)
              .map(({ row }) => row);
            const byId = (list: typeof legs) =>
              new Map(list.map((l) => [l.transactionId, [l.direction, l.symbol, l.amount, l.hash]]));
            expect(byId(tokensOnly(shuffled))).toEqual(byId(legs));
          },
        ),
      );
    });

    it('a logIndex that is present must still be an unsigned integer', () => {
      expect(() => tokensOnly([{ ...sampleRow(22, OTHER, me, '1'), logIndex: 'x' }])).toThrow(
        /logIndex of .* is not an unsigned integer/,
      );
    });
  });

  it('counts a transaction listed twice once', () => {
    const tx = normal(11, OTHER, me, '1');
    expect(addressLegs(ME, { normal: [tx, tx], internal: [], tokens: [] })).toHaveLength(1);
  });

  it('refuses a malformed amount', () => {
    expect(() =>
      addressLegs(ME, { normal: [normal(12, OTHER, me, '1e18')], internal: [], tokens: [] }),
    ).toThrow(/not an unsigned integer/);
  });
});

describe('unitsToDecimal', () => {
  it.each([
    [0n, 18, '0'],
    [1n, 18, '0.000000000000000001'],
    [1_500_000n, 6, '1.5'],
    [10n ** 24n, 18, '1000000'],
    [42n, 0, '42'],
  ])('%s at %i decimals is %s', (units, decimals, text) => {
    expect(unitsToDecimal(units, decimals)).toBe(text);
  });

  it('is exact: the text times 10^decimals is the integer again (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 40n }),
        fc.integer({ min: 0, max: 30 }),
        (units, decimals) => {
          const [whole, fraction = ''] = unitsToDecimal(units, decimals).split('.');
          expect(BigInt(whole! + fraction.padEnd(decimals, '0'))).toBe(units);
        },
      ),
    );
  });
});

it('unknownTokenSymbol fits the ledger’s symbol rule', () => {
  expect(unknownTokenSymbol(SPAM)).toMatch(/^[A-Z0-9]{1,20}$/);
});
