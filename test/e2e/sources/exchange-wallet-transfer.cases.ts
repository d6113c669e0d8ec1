/**
 * Transfers between an exchange and the client's own wallet (issue 15, Tests; docs/sources.md,
 * "Transfers between an exchange and the client's own wallet"). A partner links a Kraken account
 * (ccxt's real Kraken class against the fake Kraken, signatures checked) and a bitcoin address (a
 * fake Esplora). Kraken's ledger has no txid: WithdrawStatus/DepositStatus give it, joined by
 * refid. Both ends of each chain transaction carry transferId `chain:<txid>`, so the cost-basis
 * engine moves the lots with their basis and acquisition date.
 *
 * The data (FIFO, the default method):
 * - Kraken TB1 2025-01-05 buys 1 BTC at 90,000 + 360 USD fee → lot A: 1 BTC, basis 90,360.
 * - Kraken LB3 2025-02-10 12:00 withdraws 0.5 BTC (fee 0.0001 BTC) in chain transaction T.
 * - T (block 13:00) pays 0.5 BTC to the wallet (Kraken's hot wallet paid the 0.0001 network fee).
 * - The wallet pays 0.3 BTC back to Kraken in T2 (2026-02-10 14:00, network fee 0.0002 BTC, change
 *   0.1998 to itself); Kraken credits it (LB4, 15:00) and TB2 sells 0.3 BTC on 2026-02-11 at
 *   100,000 − 30 USD fee.
 *
 * Linked (both accounts of one tenant), worked by hand (p1 = BTC price of 2025-02-10, p2 of 2026-02-10):
 * - T moves 0.5 of lot A to the wallet: basis 0.5 × 90,360 = 45,180, acquired 2025-01-05 (not an
 *   unknown basis). Kraken's fee 0.0001 is a disposal: proceeds 0.0001·p1, basis 9.036, short-term.
 * - T2 moves 0.3 (basis 27,108, acquired 2025-01-05) back to Kraken; the wallet's 0.0002 fee is a
 *   long-term disposal: proceeds 0.0002·p2, basis 18.072.
 * - TB2: proceeds 29,970, basis 27,108, gain 2,862, long-term.
 * - Left: wallet 0.1998 BTC, basis 18,053.928 (one lot, acquired 2025-01-05); Kraken 0.4999 BTC,
 *   basis 45,170.964, all known.
 *
 * Kraken alone (another tenant, the wallet not linked): the legs are transfer legs without a
 * partner, i.e. withdrawal/deposit semantics: T removes 0.5 of lot A (nothing realized), T2's
 * 0.3 arrives with an unknown basis (acquired 2026-02-10) and FIFO sells known lots first: the
 * 2026 sale is the same 2,862 long-term, and Kraken keeps 0.1999 of A (basis 18,062.964) and 0.3
 * of unknown basis.
 */
import { Decimal } from 'decimal.js';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../../src/common/ports/market-prices.port.js';
import type { EsploraTransaction } from '../../../src/domain/chains/bitcoin/index.js';
import { bearer } from '../../factories/accounts.factory.js';
import { FakeEsplora } from '../../fakes/esplora-fake-server.js';
import {
  FAKE_KRAKEN_KEY,
  FAKE_KRAKEN_SECRET,
  FakeKraken,
  krakenEntry,
  krakenMovement,
  krakenTrade,
} from '../../fakes/kraken-fake-server.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { relays } from './fake-relay.js';

const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const KRAKEN_HOT = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const KRAKEN_DEPOSIT = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const T = '7e'.repeat(32);
const T2 = '9c'.repeat(32);

const withdrawalTx: EsploraTransaction = {
  txid: T,
  vin: [{ txid: 'aa'.repeat(32), vout: 0, prevout: { scriptpubkey_address: KRAKEN_HOT, value: 70_000_000 } }],
  vout: [
    { scriptpubkey_address: WALLET, value: 50_000_000 },
    { scriptpubkey_address: KRAKEN_HOT, value: 19_990_000 },
  ],
  fee: 10_000,
  status: { confirmed: true, block_height: 882_000, block_time: Date.parse('2025-02-10T13:00:00Z') / 1000 },
};
const returnTx: EsploraTransaction = {
  txid: T2,
  vin: [{ txid: T, vout: 0, prevout: { scriptpubkey_address: WALLET, value: 50_000_000 } }],
  vout: [
    { scriptpubkey_address: KRAKEN_DEPOSIT, value: 30_000_000 },
    { scriptpubkey_address: WALLET, value: 19_980_000 },
  ],
  fee: 20_000,
  status: { confirmed: true, block_height: 934_000, block_time: Date.parse('2026-02-10T14:00:00Z') / 1000 },
};

function krakenData(kraken: FakeKraken): void {
  kraken.trades = new Map([
    krakenTrade('TB1', 'XXBTZUSD', 'buy', '2025-01-05T10:00:00Z', '1.0', '90000.0', '90000.0', '360.0'),
    krakenTrade('TB2', 'XXBTZUSD', 'sell', '2026-02-11T10:00:00Z', '0.3', '100000.0', '30000.0', '30.0'),
  ]);
  kraken.ledger = new Map([
    krakenEntry('LB1', 'deposit', 'ZUSD', '2025-01-02T09:00:00Z', '100000.0000'),
    krakenEntry('LB2', 'trade', 'XXBT', '2025-01-05T10:00:00Z', '1.0000000000'),
    krakenEntry('LB3', 'withdrawal', 'XXBT', '2025-02-10T12:00:00Z', '-0.5000000000', '0.0001000000'),
    krakenEntry('LB4', 'deposit', 'XXBT', '2026-02-10T15:00:00Z', '0.3000000000'),
    krakenEntry('LB5', 'trade', 'XXBT', '2026-02-11T10:00:00Z', '-0.3000000000'),
  ]);
  // Kraken's funding lists name the chain transactions; their refid is the ledger row's.
  kraken.withdrawals = [
    krakenMovement('R-LB3', 'XXBT', '2025-02-10T12:00:00Z', '0.5000000000', '0.0001000000', T, WALLET),
  ];
  kraken.deposits = [krakenMovement('R-LB4', 'XXBT', '2026-02-10T15:00:00Z', '0.3000000000', '0', T2)];
  // 1 − 0.5 − 0.0001 + 0.3 − 0.3 BTC; 100,000 − 90,360 + 29,970 USD.
  kraken.balances = new Map([
    ['ZUSD', '39610.0000'],
    ['XXBT', '0.4999000000'],
  ]);
}

describe('transfers between a Kraken account and the client’s own bitcoin wallet (e2e, fakes)', () => {
  const kraken = new FakeKraken();
  const esplora = new FakeEsplora();
  let t: SuiteApp;
  let partner: string;
  let partnerB: string;
  let p1: Decimal;
  let p2: Decimal;

  beforeAll(async () => {
    const [krakenUrl, esploraUrl] = await Promise.all([kraken.start(), esplora.start()]);
    krakenData(kraken);
    esplora.setTransactions([withdrawalTx, returnTx]);
    relays.kraken.to(krakenUrl);
    relays.esplora.to(esploraUrl);
    t = await startSuite(
      {
        EXCHANGE_API_URLS: JSON.stringify({ kraken: relays.kraken.url }),
        EXCHANGE_RATE_LIMIT_MS: '1',
        ESPLORA_BASE_URL: relays.esplora.url,
      },
      { clock: new ManualClock(new Date('2026-03-15T12:00:00.000Z')), tenant: true },
    );
    // Two tenants of the suite's own: partner's (both accounts) and partnerB's (Kraken alone).
    const b = await t.newTenant();
    [partner, partnerB] = await Promise.all([t.token(), t.token(b.clientId, b.secret)]);
    const prices = t.app.get<MarketPricesPort>(MARKET_PRICES);
    p1 = new Decimal((await prices.pricesOnDate(['BTC'], '2025-02-10')).get('BTC')!);
    p2 = new Decimal((await prices.pricesOnDate(['BTC'], '2026-02-10')).get('BTC')!);
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([kraken.stop(), esplora.stop()]);
  });

  const get = (path: string, token = partner) => t.http.get(path).set(bearer(token));
  const link = (body: object, token = partner) =>
    t.http.post('/v1/api/accounts').set(bearer(token)).send(body);
  const linkKraken = (identity: string, token = partner) =>
    link(
      { platform: 'kraken', identity, credentials: { apiKey: FAKE_KRAKEN_KEY, secret: FAKE_KRAKEN_SECRET } },
      token,
    ).expect(202);

  async function untilSettled(id: string, token = partner): Promise<Record<string, unknown>> {
    for (let i = 0; i < 400; i++) {
      const res = await get('/v1/api/accounts?limit=200', token).expect(200);
      const account = (res.body.result.accounts as Record<string, unknown>[]).find((a) => a.accountId === id);
      if (!account) throw new Error(`account ${id} is not listed`);
      if (account.syncStatus !== 'syncing') return account;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`account ${id} is still syncing`);
  }
  const btcBalance = async (accountId: string, token = partner) => {
    const balances = (await get(`/v1/api/account/${accountId}/balances`, token).expect(200)).body.result
      .balances as Record<string, string>[];
    return balances.find((b) => b.symbol === 'BTC')!;
  };
  const lots = async (accountId: string, token = partner) => {
    const res = await get(`/taip/lots?account_id=${accountId}&asset=BTC`, token).expect(200);
    return (res.body.result ?? res.body) as {
      lots: Record<string, unknown>[];
      totals: Record<string, string>[];
    };
  };
  const gains = async (accountId: string, year: number, token = partner) => {
    const res = await get(`/taip/gains-report?tax_year=${year}&account_id=${accountId}`, token).expect(200);
    return res.body.result ?? res.body;
  };
  const form8949 = async (accountId: string, year: number, token = partner) => {
    const res = await get(`/taip/form-8949?tax_year=${year}&account_id=${accountId}`, token).expect(200);
    return (res.body.result ?? res.body).lines as Record<string, unknown>[];
  };
  const d = (value: unknown) => new Decimal(String(value)).toString();

  describe('both accounts linked', () => {
    let krakenId: string;
    let walletId: string;

    it('links the Kraken account and the bitcoin address; both sync', async () => {
      krakenId = (await linkKraken('hh-9/kraken')).body.result.accountId;
      expect(await untilSettled(krakenId)).toMatchObject({ syncStatus: 'synced' });
      walletId = (await link({ platform: 'bitcoin', identity: 'hh-9/cold', address: WALLET }).expect(202))
        .body.result.accountId;
      expect(await untilSettled(walletId)).toMatchObject({ syncStatus: 'synced' });
      expect(kraken.requests.map((r) => r.path)).toEqual(
        expect.arrayContaining(['/0/private/WithdrawStatus', '/0/private/DepositStatus']),
      );
    });

    it('both ends of each chain transaction are transfer legs with the same chain id', async () => {
      const rows = async (id: string) =>
        (
          (await get(`/v1/api/account/${id}/transactions`).expect(200)).body.result.transactions as Record<
            string,
            string | null
          >[]
        )
          .filter((tx) => tx.transferId !== null)
          .map((tx) => [tx.transactionId, tx.direction, tx.amount, tx.transferId]);
      expect(await rows(krakenId)).toEqual(
        expect.arrayContaining([
          ['ledger:LB3', 'transfer_out', '0.5', `chain:${T}`],
          ['ledger:LB4', 'transfer_in', '0.3', `chain:${T2}`],
        ]),
      );
      expect(await rows(walletId)).toEqual(
        expect.arrayContaining([
          [`${T}:deposit`, 'transfer_in', '0.5', `chain:${T}`],
          [`${T2}:withdrawal`, 'transfer_out', '0.3', `chain:${T2}`],
        ]),
      );
      expect(await rows(krakenId)).toHaveLength(2);
      expect(await rows(walletId)).toHaveLength(2);
    });

    it('the wallet’s lot has the exchange lot’s basis and acquisition date (not an unknown basis)', async () => {
      const report = await lots(walletId);
      expect(report.lots).toHaveLength(1);
      expect(report.lots[0]).toMatchObject({
        asset: 'BTC',
        basis_known: true,
        acquired_at: '2025-01-05T10:00:00.000Z',
        term: 'long',
      });
      expect(d(report.lots[0]!.quantity)).toBe('0.1998');
      expect(d(report.lots[0]!.cost_basis_usd)).toBe('18053.928');
      expect(d(report.totals[0]!.unknown_basis_quantity)).toBe('0');
    });

    it('balances of both accounts are exact: quantities, basis, realized gains', async () => {
      const wallet = await btcBalance(walletId);
      expect(d(wallet.balance)).toBe('0.1998');
      // Balances carry cents (the lots above have the exact figures).
      expect(d(wallet.costBasis)).toBe('18053.93');
      // The wallet's one disposal: its 0.0002 BTC network fee of T2.
      expect(new Decimal(wallet.realizedGainLoss!).toFixed(2)).toBe(
        p2.times('0.0002').minus('18.072').toFixed(2),
      );
      const exchange = await btcBalance(krakenId);
      expect(d(exchange.balance)).toBe('0.4999');
      expect(d(exchange.costBasis)).toBe('45170.96');
      const exact = await lots(krakenId);
      expect(
        exact.lots.every((lot) => lot.basis_known === true && lot.acquired_at === '2025-01-05T10:00:00.000Z'),
      ).toBe(true);
      expect(d(exact.totals[0]!.cost_basis_usd)).toBe('45170.964');
      // Kraken's withdrawal fee (2025) and the sale of the coins that came back (2026).
      expect(new Decimal(exchange.realizedGainLoss!).toFixed(2)).toBe(
        p1.times('0.0001').minus('9.036').plus('2862').toFixed(2),
      );
    });

    it('the wallet’s 2026 disposal: exact gain, long-term, no unknown-basis reason', async () => {
      const report = await gains(walletId, 2026);
      expect(d(report.exact.proceeds_usd)).toBe(p2.times('0.0002').toString());
      expect(d(report.exact.cost_basis_usd)).toBe('18.072');
      expect(d(report.exact.long_term_usd)).toBe(p2.times('0.0002').minus('18.072').toString());
      expect(d(report.exact.short_term_usd)).toBe('0');
      expect(report.form_8949_reasons).toEqual([]);
      const lines = await form8949(walletId, 2026);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ term: 'long', needs_review: false, review_reason: null });
      expect(String(lines[0]!.date_acquired)).toMatch(/2025-01-05|01\/05\/2025/);
    });

    it('Kraken’s 2026 sale of the coins that came back: 2,862 long-term, acquired 2025-01-05, no unknown basis', async () => {
      const report = await gains(krakenId, 2026);
      expect(d(report.exact.proceeds_usd)).toBe('29970');
      expect(d(report.exact.cost_basis_usd)).toBe('27108');
      expect(d(report.exact.long_term_usd)).toBe('2862');
      expect(d(report.exact.short_term_usd)).toBe('0');
      expect(report.form_8949_reasons).toEqual([]);
      const lines = await form8949(krakenId, 2026);
      expect(lines.every((line) => line.term === 'long' && line.review_reason === null)).toBe(true);
      expect(lines.every((line) => /2025-01-05|01\/05\/2025/.test(String(line.date_acquired)))).toBe(true);
      // 2025: only the withdrawal fee was a disposal; the transfer realized nothing.
      const y2025 = await gains(krakenId, 2025);
      expect(d(y2025.exact.proceeds_usd)).toBe(p1.times('0.0001').toString());
      expect(d(y2025.exact.cost_basis_usd)).toBe('9.036');
    });
  });

  describe('the wallet not linked (another tenant links the same Kraken account only)', () => {
    let krakenId: string;

    it('syncs; the transfer legs have no partner and mean a withdrawal and a deposit', async () => {
      krakenId = (await linkKraken('hh-9/kraken-alone', partnerB)).body.result.accountId;
      expect(await untilSettled(krakenId, partnerB)).toMatchObject({ syncStatus: 'synced' });
      const balance = await btcBalance(krakenId, partnerB);
      expect(d(balance.balance)).toBe('0.4999');
      // 0.1999 of lot A; the 0.3 that came back from an unknown wallet has no known basis.
      expect(d(balance.costBasis)).toBe('18062.96');
      expect(new Decimal(balance.realizedGainLoss!).toFixed(2)).toBe(
        p1.times('0.0001').minus('9.036').plus('2862').toFixed(2),
      );
      const report = await lots(krakenId, partnerB);
      const unknown = report.lots.filter((lot) => lot.basis_known === false);
      expect(unknown).toHaveLength(1);
      expect(unknown[0]).toMatchObject({ acquired_at: '2026-02-10T15:00:00.000Z' });
      expect(d(unknown[0]!.quantity)).toBe('0.3');
      expect(d(report.totals[0]!.unknown_basis_quantity)).toBe('0.3');
      const known = report.lots.filter((lot) => lot.basis_known === true);
      expect(known.map((lot) => [d(lot.quantity), d(lot.cost_basis_usd), lot.acquired_at])).toEqual([
        ['0.1999', '18062.964', '2025-01-05T10:00:00.000Z'],
      ]);
    });

    it('gains exactly as with withdrawal semantics: the 2025 fee, the 2026 sale of known lots', async () => {
      const y2025 = await gains(krakenId, 2025, partnerB);
      expect(d(y2025.exact.proceeds_usd)).toBe(p1.times('0.0001').toString());
      expect(d(y2025.exact.cost_basis_usd)).toBe('9.036');
      const y2026 = await gains(krakenId, 2026, partnerB);
      expect(d(y2026.exact.proceeds_usd)).toBe('29970');
      expect(d(y2026.exact.cost_basis_usd)).toBe('27108');
      expect(d(y2026.exact.long_term_usd)).toBe('2862');
    });

    it('every figure equals that of the same account synced without txids (plain withdrawal and deposit)', async () => {
      kraken.withdrawals = [];
      kraken.deposits = [];
      const plainId = (await linkKraken('hh-9/kraken-no-txids', partnerB)).body.result.accountId;
      expect(await untilSettled(plainId, partnerB)).toMatchObject({ syncStatus: 'synced' });
      const directions = (
        (await get(`/v1/api/account/${plainId}/transactions`, partnerB).expect(200)).body.result
          .transactions as Record<string, string>[]
      )
        .filter((tx) => tx.transactionId === 'ledger:LB3' || tx.transactionId === 'ledger:LB4')
        .map((tx) => tx.direction);
      expect(directions.sort()).toEqual(['deposit', 'withdrawal']);
      const figures = async (id: string) => {
        const balance = await btcBalance(id, partnerB);
        const report = await lots(id, partnerB);
        const years = await Promise.all([2025, 2026].map((year) => gains(id, year, partnerB)));
        return {
          balance: [balance.balance, balance.costBasis, balance.realizedGainLoss],
          lots: report.lots.map((lot) => [
            lot.quantity,
            lot.cost_basis_usd,
            lot.basis_known,
            lot.acquired_at,
          ]),
          totals: report.totals,
          gains: years.map((year) => [year.exact, year.form_8949_reasons]),
        };
      };
      expect(await figures(krakenId)).toEqual(await figures(plainId));
    });
  });
});
