/**
 * Exchange accounts through ccxt (issue 15 item 1; docs/sources.md "Exchanges (ccxt)"). One
 * connector serves every exchange platform: the account's platform names the ccxt class (the
 * named six, or a generic ccxt id the operator allowed), its decrypted read-only key signs the
 * requests. A fetch reads:
 *
 * - trades (fetchMyTrades), for all symbols at once where the exchange allows it, else per
 *   market: every spot market touching a currency the account lists or moved, then those touching
 *   a currency the trades found bring in or take out, until nothing new is found;
 * - the ledger (fetchLedger), or deposits and withdrawals where the exchange has no ledger;
 * - where the ledger lacks the chain txid of deposits and withdrawals (Kraken), also the
 *   exchange's deposits and withdrawals (fetchDeposits/fetchWithdrawals), joined to the ledger
 *   rows by reference (TXID_BY_REFERENCE) to give those rows their txid (a transfer id);
 * - balances (fetchBalance), reported to reconciliation.
 *
 * Where an exchange's API or ccxt's reading of it differs, a table below says how, each proven
 * against a fake of that exchange (test/fakes/, one connector spec each): per-market trades
 * followed over the currencies found (Gemini, Binance.US), cursor pages (CURSOR_PAGING: Coinbase,
 * OKX), a ledger per wallet (LEDGER_PER_ACCOUNT: Coinbase), deposits and withdrawals instead of
 * ccxt's ledger (LEDGER_FROM_MOVEMENTS: OKX), balances over several accounts (BALANCE_ACCOUNTS:
 * OKX; Gemini's staking balances), a movement's amount, currency or txid from the exchange's own
 * row (LEDGER_MOVEMENT: Coinbase, Bitstamp), txids matched from a withdrawal list (TXID_BY_MATCH:
 * Bitstamp), Gemini Staking rewards.
 *
 * Pages: Kraken and Bitstamp by offset (OFFSET_PAGING), every other exchange by time (`since`
 * moved past the last item). The first sync is `full`; later ones are `incremental` from the account's
 * last successful sync less a day of overlap (items are upserted by id, so the overlap is free).
 * What the items mean for the ledger is decided in src/domain/exchanges; non-USD quotes, crypto
 * fees and rewards take the stored daily USD price, and an item without one fails the refresh
 * naming it (the old data stays), unless its asset has no market at all in the store: then its
 * rows are kept without a price (an unknown asset, flagged as an unknown token is).
 * Kraken's asset codes (XXBT, ETH2.S, DOT.S) and its ledger types and subtypes are read with the
 * one Kraken table its export files are read with (src/domain/exchanges/kraken.ts).
 */
import type { Exchange, LedgerEntry, Trade, Transaction } from 'ccxt';
import type { Decimal } from 'decimal.js';
import { DomainError } from '../../../common/errors/domain-error.js';
import type { MarketPricesPort } from '../../../common/ports/market-prices.port.js';
import {
  exchangeLegs,
  FIAT_CURRENCIES,
  UnpricedExchangeItemError,
  unifiedLedgerKind,
  type ExchangeLedgerEntry,
  type ExchangeTrade,
  type LedgerEntryRule,
} from '../../../domain/exchanges/exchange-history.js';
import { bitstampLedgerKind, bitstampMovement } from '../../../domain/exchanges/bitstamp.js';
import { coinbaseConverts } from '../../../domain/exchanges/coinbase.js';
import { krakenAsset, krakenLedgerKind } from '../../../domain/exchanges/kraken.js';
import { ExactDecimal } from '../../../domain/money/exact-decimal.js';
import { canonicalDecimal } from '../../../domain/money/format.js';
import {
  singlePage,
  SourceAuthorizationError,
  SourceUnavailableError,
  type ConnectorRequest,
  type ConnectorResult,
  type NewAccountContext,
  type SourceConnector,
  type SourceDescription,
  type SourceTransaction,
} from '../connectors/source-connector.js';
import { EARLIEST_TRANSACTION } from '../connectors/source-transaction.rules.js';
import { createExchange, loadCcxt, sourceError, type ExchangeClientOptions } from './ccxt-exchange.js';
import { CREDENTIAL_ALIASES, EXCHANGE_SOURCE, NAMED_EXCHANGES } from './exchange.source.js';

/** One request to an exchange gives up after this long (ccxt `timeout`). */
export const EXCHANGE_REQUEST_TIMEOUT_MS = 30_000;
/** The whole history of one exchange account (rate-limited pages) within this, or the refresh fails. */
export const EXCHANGE_SYNC_TIMEOUT_MS = 300_000;
/** An incremental sync starts this long before the last successful one (late-settling items). */
export const INCREMENTAL_OVERLAP_MS = 24 * 3_600_000;
/** Pages of one kind in one sync at most: a runaway pagination fails instead of looping. */
const MAX_PAGES = 500;
/**
 * Markets asked one by one, at most, where the exchange needs a symbol for fetchMyTrades
 * (docs/sources.md "Trades when the exchange needs a symbol"). An account that
 * holds USD reaches every USD market: Gemini lists about 150 spot markets, Binance.US about 400
 * (USD and USDT ones mostly). 400 requests fit the 300 s sync at Gemini's 600 private requests a
 * minute; at Binance.US's weight (myTrades 10 of 1,200 a minute) 400 markets take about 200 s.
 * Beyond it the sync fails naming the count: never a silently skipped market.
 */
export const MAX_SYMBOLS = 400;

/**
 * Exchanges whose history ccxt cannot page by time, paged by offset instead: the request
 * parameter, the page size asked (when the exchange takes one), and how many raw rows an answer
 * held (and the total, where the exchange says it).
 * - Kraken lists newest first, 50 a page, with `count`; `start` goes to the server.
 * - Bitstamp's user_transactions ignores ccxt's `since` (ccxt filters the page it got): pages of
 *   1,000 by `offset` until a short page.
 */
const OFFSET_PAGING: Readonly<
  Record<string, { param: string; limit?: number; read: (json: unknown) => { rows: number; total?: number } }>
> = {
  kraken: {
    param: 'ofs',
    read: (json) => {
      const result = ((json as { result?: Record<string, unknown> }).result ?? {}) as Record<string, unknown>;
      return {
        rows: Object.keys((result['trades'] ?? result['ledger'] ?? {}) as object).length,
        total: Number(result['count'] ?? 0),
      };
    },
  },
  bitstamp: {
    param: 'offset',
    limit: 1000,
    read: (json) => ({ rows: Array.isArray(json) ? json.length : 0 }),
  },
};

/**
 * Parameters of one time-paged request, per exchange, beyond ccxt's `since` (which ccxt turns
 * into the exchange's own parameter):
 * - Gemini: ccxt sends mytrades' `timestamp` in whole seconds, so the page after a trade starts
 *   in that trade's second and brings it again (ccxt drops it, as older than `since`): a page of
 *   one trade would end the paging early. Gemini takes milliseconds (its "Timestamps"), so the
 *   request says them; pages are the largest Gemini serves (500 trades, 50 transfers).
 */
const TIME_PAGING_PARAMS: Readonly<Record<string, (kind: string, from: number) => Record<string, unknown>>> =
  {
    gemini: (kind, from) =>
      kind === 'trades' ? { timestamp: from, limit_trades: 500 } : { limit_transfers: 50 },
  };

/** One kind of list an exchange pages by cursor: the request parameter, and the next cursor and the raw rows of an answer. */
interface CursorPaging {
  readonly param: string;
  readonly next: (json: Record<string, unknown>) => string | undefined;
  readonly rows: (json: Record<string, unknown>) => number;
}
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const count = (value: unknown) => (Array.isArray(value) ? value.length : 0);

/**
 * Exchanges that page some lists by cursor, by kind of list (ccxt returns one page; its own
 * `paginate` stops silently after `paginationCalls` pages, so the connector pages itself, at most
 * MAX_PAGES, and fails beyond):
 * - OKX (above): fills, deposits and withdrawals, newest first, by `after`.
 * - Coinbase: Advanced Trade fills (`cursor`, until an empty cursor or page; `start_sequence_timestamp`
 *   is ccxt's `since`), v3 accounts (`cursor` while `has_next`: balances and the account ids the
 *   ledger is read by), v2 transactions of one account (`starting_after` =
 *   `pagination.next_starting_after`, newest first; no time filter on the server: the paging stops
 *   at the first page holding an item older than `since`, which ccxt drops).
 */
/** OKX lists newest first, 100 a page; `after` asks what is older than a row (its billId, or its ts). */
const okxAfter = (key: string): CursorPaging => ({
  param: 'after',
  next: (json) => {
    const data = json['data'];
    const last = Array.isArray(data)
      ? (data[data.length - 1] as Record<string, unknown> | undefined)
      : undefined;
    return last ? text(last[key]) : undefined;
  },
  rows: (json) => count(json['data']),
});
const CURSOR_PAGING: Readonly<Record<string, Readonly<Record<string, CursorPaging>>>> = {
  // OKX: fills-history by `billId`, deposit and withdrawal history by `ts`, newest first, `begin`
  // / `before` (ccxt's since) on the server; until a page brings nothing.
  okx: { trades: okxAfter('billId'), deposits: okxAfter('ts'), withdrawals: okxAfter('ts') },
  coinbase: {
    trades: { param: 'cursor', next: (json) => text(json['cursor']), rows: (json) => count(json['fills']) },
    accounts: {
      param: 'cursor',
      next: (json) => (json['has_next'] === true ? text(json['cursor']) : undefined),
      rows: (json) => count(json['accounts']),
    },
    ledger: {
      param: 'starting_after',
      next: (json) =>
        text((json['pagination'] as Record<string, unknown> | undefined)?.['next_starting_after']),
      rows: (json) => count(json['data']),
    },
  },
};

/**
 * Exchanges whose ledger is read one account (one currency wallet) at a time: ccxt's fetchLedger
 * needs a currency there. Coinbase: the v2 transactions of each v3 account (every wallet the
 * account lists, empty ones included: a wallet emptied by a withdrawal still has its history),
 * and its balances from the v3 accounts too (`fetchBalance` with `v3`), every page of them.
 */
const LEDGER_PER_ACCOUNT: ReadonlySet<string> = new Set(['coinbase']);

/**
 * Exchanges whose ccxt ledger is not where their deposits and withdrawals are: read from the
 * deposit and withdrawal lists instead (with their chain txids). OKX: ccxt's fetchLedger reads the
 * trading account's bills (trades and transfers between the client's own funding and trading
 * accounts), while deposits and withdrawals are the funding account's
 * (`/asset/deposit-history`, `/asset/withdrawal-history`).
 */
const LEDGER_FROM_MOVEMENTS: ReadonlySet<string> = new Set(['okx', 'binanceus']);

/**
 * Exchanges whose trades are paged by trade id, per market, from the first (`fromId` 0, ascending,
 * `limit` rows a page, until a short page): every sync reads each market's whole history.
 * Binance.US: `myTrades` with only a `startTime` answers that time's next 24 hours, so paging by
 * time from 2009 found nothing and stopped; trade ids are per market, so a trade's id is
 * `<market id>:<id>` here (two markets' trade 5 are two trades).
 */
const ID_PAGING: Readonly<Record<string, { param: string; limit: number }>> = {
  binanceus: { param: 'fromId', limit: 1000 },
};

/**
 * Exchanges whose deposit and withdrawal lists take a bounded time window, walked from `since`
 * (or the exchange's opening) to now, one window a request; a window as full as `limit` fails the
 * sync (what it left out cannot be asked). Binance.US: ccxt asks `startTime` and `endTime` =
 * `startTime` + 90 days (the most Binance answers, 1,000 rows); paging by time stopped at the
 * first empty window. Binance.US opened in September 2019.
 */
const WINDOW_PAGING: Readonly<Record<string, { windowMs: number; opened: number; limit: number }>> = {
  binanceus: { windowMs: 90 * 86_400_000, opened: Date.parse('2019-09-01T00:00:00Z'), limit: 1000 },
};

/**
 * Exchanges whose balances are split over accounts ccxt's fetchBalance reads one at a time: each
 * `params` asked, the totals summed. OKX: the trading account (`/account/balance`) and the funding
 * account (`/asset/balances`), where deposits arrive and withdrawals leave.
 */
const BALANCE_ACCOUNTS: Readonly<Record<string, readonly Record<string, unknown>[]>> = {
  okx: [{}, { type: 'funding' }],
};

/**
 * What an exchange's ledger row says about its chain movement beyond ccxt's unified fields.
 * Coinbase v2 `send`: `network.hash` is the chain transaction; `amount` is what left the wallet,
 * the network fee (`network.transaction_fee`, ccxt's fee) included, and `network.transaction_amount`
 * what reached the chain: that is the transfer, the fee its own leg.
 */
interface LedgerMovement {
  txid?: string;
  /** The amount moved, unsigned. */
  amount?: string;
  currency?: string;
  direction?: 'in' | 'out';
}
const LEDGER_MOVEMENT: Readonly<Record<string, (info: Record<string, unknown>) => LedgerMovement>> = {
  coinbase: (info) => {
    const network = (info['network'] ?? {}) as Record<string, unknown>;
    const sent = (network['transaction_amount'] ?? {}) as Record<string, unknown>;
    return {
      ...(text(network['hash']) ? { txid: text(network['hash'])! } : {}),
      ...(text(sent['amount']) ? { amount: text(sent['amount'])! } : {}),
    };
  },
  // Bitstamp user_transactions: a movement's currency and amount from its one non-zero currency
  // key (ccxt finds none below one unit: src/domain/exchanges/bitstamp.ts).
  bitstamp: (info) => {
    const found = bitstampMovement(info);
    if (!found) return {};
    const negative = found.amount.startsWith('-');
    return {
      currency: found.currency,
      amount: negative ? found.amount.slice(1) : found.amount,
      direction: negative ? 'out' : 'in',
    };
  },
};

/**
 * Exchanges whose ledger rows carry no chain txid and no reference to the withdrawal list that
 * has it: a crypto withdrawal row takes the txid of the one withdrawal request of the same
 * currency and amount nearest in time (within TXID_MATCH_WINDOW_MS), each request used once.
 * Bitstamp: user_transactions (type 1) and withdrawal-requests (`transaction_id`), asked with
 * `timedelta` in seconds (ccxt sends milliseconds, which Bitstamp refuses beyond 50,000,000: the
 * connector sends seconds, capped there, so withdrawals older than ~578 days keep no txid).
 */
const TXID_BY_MATCH: ReadonlySet<string> = new Set(['bitstamp']);
const TXID_MATCH_WINDOW_MS = 3 * 24 * 3_600_000;
const BITSTAMP_MAX_TIMEDELTA_S = 50_000_000;

/**
 * Gemini Staking, which ccxt does not read (its implicit API signs the calls as any other):
 * `POST /v1/staking/history` lists stakes (`Deposit`), redemptions (`Redeem`) and rewards
 * (`Interest`) newest first, 500 a page, walked backwards with `until` = the oldest item's
 * `dateTime` − 1 (Gemini's "How to iterate through all transactions"), from `since`; `Interest` is
 * income, stakes and redemptions move coins between the client's own exchange and staking
 * balances (nothing). `POST /v1/balances/staking` gives the staked balances, which
 * `/v1/balances` leaves out: both are summed.
 */
const GEMINI_STAKING_PAGE = 500;

/**
 * Exchanges whose lists come as a bare JSON array: an answer of another shape (an object, an error
 * page that parsed) is refused rather than read as "nothing" (ccxt would parse it as no items).
 */
const LIST_ANSWERS: ReadonlySet<string> = new Set(['gemini', 'bitstamp']);

/**
 * Exchanges whose ledger rows lack the chain txid that their deposit and withdrawal lists carry,
 * and how a ledger row names its movement. Kraken: a Ledgers row's `refid` (ccxt `referenceId`)
 * is the `refid` of the WithdrawStatus / DepositStatus entry (ccxt `id`), which has the `txid`.
 * The lists are asked once per sync from `since` (Kraken lists recent movements only; an older
 * one keeps no txid and stays a withdrawal/deposit). A key without the permission to list
 * funding (PermissionDenied) syncs as before, without txids.
 */
const TXID_BY_REFERENCE: ReadonlySet<string> = new Set(['kraken']);

/**
 * Exchanges whose own vocabulary ccxt's unified one does not cover, and the table that reads it
 * (the one their export files are read with too):
 * - `asset` (where needed): the exchange's own asset code (ccxt's currency `id`) as a ledger ticker. Kraken's
 *   ccxt codes keep the wallet suffix (`ETH2.S`, `DOT.S`, `BTC.M`): one asset, several wallets;
 * - `ledger`: what a ledger entry means. Kraken's ccxt type is its own `type` only: Earn
 *   allocations (type `earn`) would read as rewards; its subtype says they are moves between
 *   the client's own wallets.
 * Every other exchange: ccxt's unified codes and types.
 */
const EXCHANGE_VOCABULARY: Readonly<
  Record<string, { asset?: (exchangeCode: string) => string; ledger: LedgerEntryRule }>
> = {
  kraken: { asset: krakenAsset, ledger: krakenLedgerKind },
  // Bitstamp's staking (25, 26) and reward (27, 32) types, which ccxt leaves as numbers.
  bitstamp: { ledger: bitstampLedgerKind },
};

export interface ExchangeConnectorOptions extends ExchangeClientOptions {
  /** ccxt ids allowed beyond the named exchanges (EXCHANGE_GENERIC_IDS), as their own platforms. */
  readonly genericIds?: readonly string[];
}

interface History {
  trades: ExchangeTrade[];
  ledger: ExchangeLedgerEntry[];
  balances: Map<string, string>;
}

export class ExchangeConnector implements SourceConnector {
  private readonly genericIds: readonly string[];

  constructor(
    private readonly prices: Pick<MarketPricesPort, 'pricesOnDate' | 'knownSymbols'>,
    private readonly options: ExchangeConnectorOptions,
  ) {
    this.genericIds = (options.genericIds ?? []).filter((id) => !(id in NAMED_EXCHANGES));
  }

  describe(): SourceDescription {
    return {
      ...EXCHANGE_SOURCE,
      linking: {
        platforms: [...EXCHANGE_SOURCE.linking!.platforms, ...this.genericIds],
        accepts: ['credentials'],
      },
    };
  }

  /** Checks the platform is an exchange this service reads; keeps the ccxt id it maps to. */
  accountOptions(
    _options: Readonly<Record<string, unknown>>,
    account: NewAccountContext,
  ): Record<string, unknown> {
    return { exchange: this.ccxtIdOf(account.platform) };
  }

  /** The credentials the platform's exchange needs, by ccxt's names; names the first one missing. */
  checkCredentials(credentials: Readonly<Record<string, string>>): void {
    for (const key of Object.keys(credentials)) {
      if (!(key in CREDENTIAL_ALIASES))
        throw DomainError.validation(
          'credentials',
          `credentials.${key} is not an exchange credential; send ${Object.keys(CREDENTIAL_ALIASES).join(', ')}.`,
        );
    }
    const normalized = normalizeCredentials(credentials);
    if (!normalized['apiKey'])
      throw DomainError.validation('credentials', 'credentials.apiKey is required (the read-only API key).');
    if (!normalized['secret'])
      throw DomainError.validation('credentials', 'credentials.secret (or apiSecret) is required.');
  }

  /** Asks the exchange for the balances with these keys: refused → SourceAuthorizationError. */
  async verifyCredentials(request: ConnectorRequest): Promise<void> {
    const { exchange, ccxtId } = await this.exchangeFor(request);
    try {
      await this.balance(exchange, request.signal);
    } catch (error) {
      throw await sourceError(error, ccxtId);
    }
  }

  async fetch(request: ConnectorRequest): Promise<ConnectorResult> {
    const { exchange, ccxtId } = await this.exchangeFor(request);
    const last = request.account.lastSyncedAt;
    const since = last ? last.getTime() - INCREMENTAL_OVERLAP_MS : undefined;
    let history: History;
    try {
      history = await this.history(exchange, since, request.signal);
    } catch (error) {
      throw await sourceError(error, ccxtId);
    }
    return {
      status: 'ready',
      mode: since === undefined ? 'full' : 'incremental',
      pages: singlePage(await this.priced(history, EXCHANGE_VOCABULARY[exchange.id]?.ledger)),
      reportedBalances: history.balances,
    };
  }

  private ccxtIdOf(platform: string): string {
    const named = NAMED_EXCHANGES[platform];
    if (named) return named.ccxtId;
    if (this.genericIds.includes(platform)) return platform;
    throw DomainError.validation(
      'platform',
      `platform must be one of the exchanges this service reads: ${this.describe().linking!.platforms.join(', ')}`,
    );
  }

  private async exchangeFor(request: ConnectorRequest): Promise<{ exchange: Exchange; ccxtId: string }> {
    const stored = request.account.sourceOptions?.['exchange'];
    const ccxtId = typeof stored === 'string' ? stored : this.ccxtIdOf(request.account.platform);
    const credentials = normalizeCredentials(request.credentials ?? {});
    if (!credentials['apiKey'] || !credentials['secret'])
      throw new SourceAuthorizationError(`The ${ccxtId} account has no API key stored; reconnect it.`);
    const exchange = await createExchange(ccxtId, credentials, this.options);
    // A generic exchange may need more than a key and a secret (ccxt's requiredCredentials).
    const required = Object.entries(exchange.requiredCredentials ?? {})
      .filter(([field, needed]) => needed && field in { apiKey: 1, secret: 1, password: 1, uid: 1 })
      .map(([field]) => field);
    const missing = required.find((field) => !credentials[field]);
    if (missing)
      throw new SourceAuthorizationError(
        `${ccxtId} needs credentials.${missing} as well; reconnect with it.`,
      );
    return { exchange, ccxtId };
  }

  /**
   * One ccxt call, after checking the engine has not given up, and with its JSON answer checked:
   * a body that is not JSON leaves ccxt with nothing parsed (it would read as "no data").
   */
  private async call<T>(exchange: Exchange, signal: AbortSignal, run: () => Promise<T>): Promise<T> {
    if (signal.aborted) throw new SourceUnavailableError('The refresh was abandoned (timeout).');
    exchange.last_json_response = undefined;
    const result = await run();
    if (exchange.last_json_response === undefined || exchange.last_json_response === null)
      throw new SourceUnavailableError(`${exchange.id} sent an answer that is not JSON.`);
    return result;
  }

  private async history(
    exchange: Exchange,
    since: number | undefined,
    signal: AbortSignal,
  ): Promise<History> {
    await this.call(exchange, signal, () => exchange.loadMarkets());
    const balance = await this.balance(exchange, signal);
    const tickerOf = this.tickers(exchange);
    // One asset may sit in several wallets, each a currency of its own (Kraken's XETH and ETH2.S,
    // USDC and USDC.F): the ledger holds the asset, so its wallets are summed.
    const totals = new Map<string, Decimal>();
    for (const [currency, total] of Object.entries(balance.total)) {
      const ticker = tickerOf(currency);
      if (FIAT_CURRENCIES.has(ticker) || total === undefined || total === null) continue;
      totals.set(ticker, (totals.get(ticker) ?? new ExactDecimal(0)).plus(String(total)));
    }
    const balances = new Map<string, string>();
    for (const [ticker, quantity] of totals)
      if (quantity.gt(0)) balances.set(ticker, canonicalDecimal(quantity));
    const rawLedger = await this.ledger(exchange, since, signal);
    const ledger = rawLedger.map((entry) => ({
      ...entry,
      currency: tickerOf(entry.currency),
      ...(entry.fee?.currency ? { fee: { ...entry.fee, currency: tickerOf(entry.fee.currency) } } : {}),
    }));
    // Where trades are asked per market (trades()): every currency the balance lists (zero
    // and fiat ones too) or the ledger moved, by ccxt's codes (the markets' own).
    const held = new Set([...Object.keys(balance.total), ...rawLedger.map((entry) => entry.currency)]);
    const trades = (await this.trades(exchange, since, signal, held)).map((trade) => ({
      ...trade,
      symbol: trade.symbol
        .split('/')
        .map((code) => tickerOf(code))
        .join('/'),
      ...(trade.fee?.currency ? { fee: { ...trade.fee, currency: tickerOf(trade.fee.currency) } } : {}),
    }));
    // Coinbase Converts: pairs of v2 `trade` rows, one trade each (src/domain/exchanges/coinbase.ts).
    if (exchange.id === 'coinbase') trades.push(...coinbaseConverts(ledger));
    return { trades, ledger, balances };
  }

  /**
   * The balances (ccxt's fetchBalance); where the exchange pages its accounts (LEDGER_PER_ACCOUNT),
   * every page of them, the totals of each currency summed.
   */
  private async balance(
    exchange: Exchange,
    signal: AbortSignal,
  ): Promise<{ total: Record<string, unknown> }> {
    const total: Record<string, unknown> = {};
    /** Adds one listing's amounts per currency to `total`, exactly. */
    const add = (amounts: Record<string, unknown> | undefined) => {
      for (const [currency, amount] of Object.entries(amounts ?? {})) {
        if (amount === undefined || amount === null) continue;
        total[currency] = canonicalDecimal(
          new ExactDecimal(String(total[currency] ?? 0)).plus(String(amount as string | number)),
        );
      }
    };
    const fetched = async (params: Record<string, unknown> = {}) =>
      (await this.call(exchange, signal, () => exchange.fetchBalance(params))).total as unknown as
        Record<string, unknown> | undefined;
    if (exchange.id === 'gemini') {
      add(await fetched());
      const staked = await this.call(exchange, signal, () =>
        implicit(exchange, 'privatePostV1BalancesStaking')({}),
      );
      if (!Array.isArray(staked))
        throw new SourceUnavailableError(`${exchange.id} sent staking balances that are not a list.`);
      add(
        Object.fromEntries(
          (staked as Record<string, unknown>[]).flatMap((row) =>
            text(row['currency']) ? [[text(row['currency'])!, row['balance']] as const] : [],
          ),
        ),
      );
      return { total };
    }
    const accounts = BALANCE_ACCOUNTS[exchange.id];
    if (accounts) {
      for (const params of accounts) add(await fetched(params));
      return { total };
    }
    const paging = LEDGER_PER_ACCOUNT.has(exchange.id) ? CURSOR_PAGING[exchange.id]?.['accounts'] : undefined;
    if (!paging) {
      add(await fetched());
      return { total };
    }
    let cursor: string | undefined;
    for (let n = 0; n < MAX_PAGES; n++) {
      add(await fetched({ v3: true, ...(cursor ? { [paging.param]: cursor } : {}) }));
      cursor = paging.next(exchange.last_json_response as Record<string, unknown>);
      if (!cursor) return { total };
    }
    throw new SourceUnavailableError(`${exchange.id} sent more than ${MAX_PAGES} pages of accounts.`);
  }

  /**
   * The ledger ticker of a ccxt currency code: the code itself, or, for an exchange with its own
   * vocabulary (EXCHANGE_VOCABULARY), its table applied to the exchange's own id of the currency
   * (ccxt's `currencies[code].id`, e.g. Kraken's `XXBT`, `ETH2.S`; the code where ccxt lists none).
   */
  private tickers(exchange: Exchange): (code: string) => string {
    const asset = EXCHANGE_VOCABULARY[exchange.id]?.asset;
    if (!asset) return (code) => code;
    return (code) => asset(exchange.currencies?.[code]?.id ?? code);
  }

  private async trades(
    exchange: Exchange,
    since: number | undefined,
    signal: AbortSignal,
    held: ReadonlySet<string>,
  ): Promise<ExchangeTrade[]> {
    if (!exchange.has['fetchMyTrades']) return [];
    const byId = new Map<string, ExchangeTrade>();
    const perMarketIds = exchange.id in ID_PAGING;
    const add = (trades: Trade[]) => {
      for (const trade of trades) {
        if (trade.id === undefined || trade.timestamp === undefined || !trade.symbol) continue;
        const id = perMarketIds
          ? `${exchange.markets?.[trade.symbol]?.id ?? trade.symbol}:${trade.id}`
          : trade.id;
        byId.set(id, {
          id,
          timestamp: trade.timestamp,
          symbol: trade.symbol.split(':')[0]!,
          side: trade.side as 'buy' | 'sell',
          amount: String(trade.amount),
          price: String(trade.price),
          fee: trade.fee ? { cost: String(trade.fee.cost ?? 0), currency: trade.fee.currency } : null,
        });
      }
    };
    const ccxt = await loadCcxt();
    try {
      await this.paged(exchange, signal, since, 'trades', (from, params) =>
        exchange.fetchMyTrades(undefined, from, undefined, params),
      ).then(add);
    } catch (error) {
      if (!(error instanceof ccxt.ArgumentsRequired)) throw error;
      // The exchange needs a symbol: every spot market that touches a currency
      // the account holds or moved, then every market touching a currency those trades brought
      // in or took out, until no trade names a currency not yet asked about.
      const spot = Object.values(exchange.markets ?? {}).filter((m) => m.spot);
      const known = new Set(held);
      const asked = new Set<string>();
      for (;;) {
        const next = spot
          .filter((m) => !asked.has(m.symbol) && (known.has(m.base) || known.has(m.quote)))
          .map((m) => m.symbol)
          .sort();
        if (next.length === 0) break;
        if (asked.size + next.length > MAX_SYMBOLS)
          throw new SourceUnavailableError(
            `${exchange.id} lists trades per market only, and this account would need more than ${MAX_SYMBOLS} markets asked one by one (${asked.size + next.length}); the sync stops rather than skip any. Raise MAX_SYMBOLS or import the exchange's export file.`,
          );
        for (const symbol of next) {
          asked.add(symbol);
          const found = await this.paged(exchange, signal, since, 'trades', (from, params) =>
            exchange.fetchMyTrades(symbol, from, undefined, params),
          );
          add(found);
          if (found.length > 0) {
            const market = exchange.markets![symbol]!;
            known.add(market.base);
            known.add(market.quote);
          }
        }
      }
    }
    return [...byId.values()];
  }

  private async ledger(
    exchange: Exchange,
    since: number | undefined,
    signal: AbortSignal,
  ): Promise<ExchangeLedgerEntry[]> {
    const byId = new Map<string, ExchangeLedgerEntry>();
    if (exchange.has['fetchLedger'] && !LEDGER_FROM_MOVEMENTS.has(exchange.id)) {
      const entries: LedgerEntry[] = [];
      if (LEDGER_PER_ACCOUNT.has(exchange.id)) {
        const accounts = await this.paged(exchange, signal, undefined, 'accounts', (_from, params) =>
          exchange.fetchAccounts(params),
        );
        for (const account of accounts) {
          if (!account.id || !account.code) continue;
          entries.push(
            ...(await this.paged(exchange, signal, since, 'ledger', (from, params) =>
              exchange.fetchLedger(account.code, from, undefined, { ...params, account_id: account.id }),
            )),
          );
        }
      } else {
        entries.push(
          ...(await this.paged(exchange, signal, since, 'ledger', (from, params) =>
            exchange.fetchLedger(undefined, from, undefined, params),
          )),
        );
      }
      const movement = LEDGER_MOVEMENT[exchange.id];
      for (const entry of entries) {
        const more = movement?.((entry.info ?? {}) as Record<string, unknown>) ?? {};
        const currency = more.currency ?? entry.currency;
        if (entry.id === undefined || entry.timestamp === undefined || !currency) continue;
        byId.set(entry.id, {
          id: entry.id,
          timestamp: entry.timestamp,
          type: entry.type ?? '',
          currency,
          amount: String(entry.amount ?? 0),
          direction: (more.direction ?? entry.direction) as 'in' | 'out' | undefined,
          fee: entry.fee ? { cost: String(entry.fee.cost ?? 0), currency: entry.fee.currency } : null,
          info: entry.info as Record<string, unknown>,
          ...(more.amount !== undefined ? { amount: more.amount } : {}),
          ...(more.txid !== undefined ? { txid: more.txid } : {}),
        });
      }
      if (TXID_BY_REFERENCE.has(exchange.id)) {
        const txids = await this.txidsByReference(exchange, since, signal);
        for (const entry of entries) {
          const txid = entry.referenceId ? txids.get(entry.referenceId) : undefined;
          const kept = entry.id === undefined ? undefined : byId.get(entry.id);
          if (txid && kept && !kept.txid) byId.set(kept.id, { ...kept, txid });
        }
      }
      if (TXID_BY_MATCH.has(exchange.id)) await this.txidsByMatch(exchange, byId, since, signal);
      return [...byId.values()];
    }
    const movements: Transaction[] = [];
    if (exchange.has['fetchDeposits'])
      movements.push(
        ...(await this.paged(exchange, signal, since, 'deposits', (from, params) =>
          exchange.fetchDeposits(undefined, from, undefined, params),
        )),
      );
    if (exchange.has['fetchWithdrawals'])
      movements.push(
        ...(await this.paged(exchange, signal, since, 'withdrawals', (from, params) =>
          exchange.fetchWithdrawals(undefined, from, undefined, params),
        )),
      );
    if (
      !exchange.has['fetchDeposits'] &&
      !exchange.has['fetchWithdrawals'] &&
      exchange.has['fetchDepositsWithdrawals']
    )
      movements.push(
        ...(await this.paged(exchange, signal, since, 'movements', (from, params) =>
          exchange.fetchDepositsWithdrawals(undefined, from, undefined, params),
        )),
      );
    if (exchange.id === 'gemini')
      for (const reward of await this.geminiStakingRewards(exchange, since, signal))
        byId.set(reward.id, reward);
    for (const movement of movements) {
      if (movement.status !== 'ok' || movement.id === undefined || movement.timestamp === undefined) continue;
      if (movement.type !== 'deposit' && movement.type !== 'withdrawal') continue;
      const id = `${movement.type}:${movement.id}`;
      byId.set(id, {
        id,
        timestamp: movement.timestamp,
        type: movement.type,
        currency: movement.currency ?? '',
        amount: String(movement.amount ?? 0),
        fee: movement.fee ? { cost: String(movement.fee.cost ?? 0), currency: movement.fee.currency } : null,
        txid: movement.txid ?? null,
      });
    }
    return [...byId.values()];
  }

  /** Gemini Staking's rewards (`Interest`) from `since`, every page (GEMINI_STAKING_PAGE). */
  private async geminiStakingRewards(
    exchange: Exchange,
    since: number | undefined,
    signal: AbortSignal,
  ): Promise<ExchangeLedgerEntry[]> {
    const rewards: ExchangeLedgerEntry[] = [];
    let until: number | undefined;
    for (let n = 0; n < MAX_PAGES; n++) {
      const params = {
        limit: GEMINI_STAKING_PAGE,
        sortAsc: false,
        ...(since !== undefined ? { since: new Date(since).toISOString() } : {}),
        ...(until !== undefined ? { until: new Date(until).toISOString() } : {}),
      };
      const page = await this.call(exchange, signal, () =>
        implicit(exchange, 'privatePostV1StakingHistory')(params),
      );
      if (!Array.isArray(page))
        throw new SourceUnavailableError(`${exchange.id} sent a staking history that is not a list.`);
      const items = (page as { transactions?: unknown }[]).flatMap((provider) =>
        Array.isArray(provider.transactions) ? (provider.transactions as Record<string, unknown>[]) : [],
      );
      if (items.length === 0) return rewards;
      for (const item of items) {
        const id = text(item['transactionId']);
        const currency = text(item['amountCurrency']);
        const at = Number(item['dateTime']);
        if (item['transactionType'] !== 'Interest' || !id || !currency || !Number.isFinite(at)) continue;
        rewards.push({
          id: `staking:${id}`,
          timestamp: at,
          type: 'reward',
          currency,
          amount: String(item['amount'] as string | number),
          direction: 'in',
          fee: null,
        });
      }
      const oldest = Math.min(...items.map((item) => Number(item['dateTime'])));
      if (!Number.isFinite(oldest)) return rewards;
      until = oldest - 1;
    }
    throw new SourceUnavailableError(`${exchange.id} sent more than ${MAX_PAGES} pages of staking history.`);
  }

  /**
   * Gives the exchange's crypto withdrawal rows (TXID_BY_MATCH) the txid of the withdrawal request
   * of the same currency and amount nearest in time, within TXID_MATCH_WINDOW_MS, each request once.
   */
  private async txidsByMatch(
    exchange: Exchange,
    byId: Map<string, ExchangeLedgerEntry>,
    since: number | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const ccxt = await loadCcxt();
    const timedelta =
      since === undefined
        ? BITSTAMP_MAX_TIMEDELTA_S
        : Math.min(BITSTAMP_MAX_TIMEDELTA_S, Math.ceil((Date.now() - since) / 1000));
    let requests: Transaction[];
    try {
      requests = await this.call(exchange, signal, () =>
        exchange.fetchWithdrawals(undefined, undefined, undefined, { timedelta }),
      );
    } catch (error) {
      if (error instanceof ccxt.PermissionDenied) return;
      throw error;
    }
    const open = requests.filter(
      (r) =>
        r.txid &&
        r.currency &&
        r.amount !== undefined &&
        r.timestamp !== undefined &&
        r.status !== 'failed' &&
        r.status !== 'canceled',
    );
    const withdrawals = [...byId.values()]
      .filter((e) => e.direction === 'out' && !e.txid && unifiedLedgerKind(e) === 'withdrawal')
      .sort((a, b) => a.timestamp - b.timestamp);
    for (const row of withdrawals) {
      let best: { index: number; distance: number } | undefined;
      open.forEach((r, index) => {
        if (r.currency !== row.currency || !new ExactDecimal(String(r.amount)).eq(row.amount)) return;
        const distance = Math.abs(r.timestamp! - row.timestamp);
        if (distance <= TXID_MATCH_WINDOW_MS && (!best || distance < best.distance))
          best = { index, distance };
      });
      if (!best) continue;
      const [request] = open.splice(best.index, 1);
      byId.set(row.id, { ...row, txid: request!.txid! });
    }
  }

  /**
   * The chain txid of each deposit and withdrawal the exchange lists, by its id (the reference
   * its ledger rows carry; see TXID_BY_REFERENCE). One request each, from `since`.
   */
  private async txidsByReference(
    exchange: Exchange,
    since: number | undefined,
    signal: AbortSignal,
  ): Promise<Map<string, string>> {
    const ccxt = await loadCcxt();
    const txids = new Map<string, string>();
    const lists: (() => Promise<Transaction[]>)[] = [];
    if (exchange.has['fetchWithdrawals']) lists.push(() => exchange.fetchWithdrawals(undefined, since));
    if (exchange.has['fetchDeposits']) lists.push(() => exchange.fetchDeposits(undefined, since));
    for (const list of lists) {
      let movements: Transaction[];
      try {
        movements = await this.call(exchange, signal, list);
      } catch (error) {
        if (error instanceof ccxt.PermissionDenied) continue;
        throw error;
      }
      for (const movement of movements) {
        // A txid exists once the exchange broadcast the transaction (Kraken: Settled or Success).
        if (movement.id && movement.txid && movement.status !== 'failed' && movement.status !== 'canceled')
          txids.set(movement.id, movement.txid);
      }
    }
    return txids;
  }

  /**
   * Every page of one kind of item. Kraken pages by offset: `ofs` grows by the rows of each
   * answer until its `count`. Other exchanges page by time: `since` moves just past the newest
   * item of the page until a page brings nothing newer.
   */
  private async paged<T extends object>(
    exchange: Exchange,
    signal: AbortSignal,
    since: number | undefined,
    kind: string,
    page: (since: number | undefined, params: Record<string, unknown>) => Promise<T[]>,
  ): Promise<T[]> {
    const all: T[] = [];
    const idPaging = kind === 'trades' ? ID_PAGING[exchange.id] : undefined;
    if (idPaging) {
      let fromId = 0;
      for (let n = 0; n < MAX_PAGES; n++) {
        const items = await this.call(exchange, signal, () =>
          page(undefined, { [idPaging.param]: fromId, limit: idPaging.limit }),
        );
        all.push(...items);
        if (items.length < idPaging.limit) return all;
        fromId = Math.max(...items.map((item) => Number((item as { id?: string }).id))) + 1;
        if (!Number.isFinite(fromId))
          throw new SourceUnavailableError(`${exchange.id} sent ${kind} without numeric ids.`);
      }
      throw new SourceUnavailableError(`${exchange.id} sent more than ${MAX_PAGES} pages of ${kind}.`);
    }
    const window = kind === 'deposits' || kind === 'withdrawals' ? WINDOW_PAGING[exchange.id] : undefined;
    if (window) {
      const now = Date.now();
      for (let from = since ?? window.opened, n = 0; from <= now; from += window.windowMs, n++) {
        if (n >= MAX_PAGES)
          throw new SourceUnavailableError(`${exchange.id} sent more than ${MAX_PAGES} pages of ${kind}.`);
        const items = await this.call(exchange, signal, () => page(from, {}));
        if (items.length >= window.limit)
          throw new SourceUnavailableError(
            `${exchange.id} listed ${window.limit} ${kind} in one window, the most it answers; the rest cannot be asked.`,
          );
        all.push(...items);
      }
      return all;
    }
    const cursorPaging = CURSOR_PAGING[exchange.id]?.[kind];
    if (cursorPaging) {
      let cursor: string | undefined;
      for (let n = 0; n < MAX_PAGES; n++) {
        const params = cursor ? { [cursorPaging.param]: cursor } : {};
        const items = await this.call(exchange, signal, () => page(since, params));
        const json = exchange.last_json_response as Record<string, unknown>;
        if (typeof json !== 'object' || Array.isArray(json))
          throw new SourceUnavailableError(`${exchange.id} sent ${kind} in an answer that is not an object.`);
        all.push(...items);
        const rows = cursorPaging.rows(json);
        cursor = cursorPaging.next(json);
        // Newest first without a server-side time filter: a page ccxt shortened reached `since`.
        if (!cursor || rows === 0 || items.length < rows) return all;
      }
      throw new SourceUnavailableError(`${exchange.id} sent more than ${MAX_PAGES} pages of ${kind}.`);
    }
    const offsetPaging = OFFSET_PAGING[exchange.id];
    if (offsetPaging) {
      let offset = 0;
      for (let n = 0; n < MAX_PAGES; n++) {
        const params = {
          [offsetPaging.param]: offset,
          ...(offsetPaging.limit ? { limit: offsetPaging.limit } : {}),
        };
        const items = await this.call(exchange, signal, () => page(since, params));
        if (LIST_ANSWERS.has(exchange.id) && !Array.isArray(exchange.last_json_response))
          throw new SourceUnavailableError(`${exchange.id} sent ${kind} that are not a list.`);
        const { rows, total } = offsetPaging.read(exchange.last_json_response);
        all.push(...items);
        offset += rows;
        if (rows === 0 || (total !== undefined ? offset >= total : rows < (offsetPaging.limit ?? 1)))
          return all;
      }
      throw new SourceUnavailableError(`${exchange.id} sent more than ${MAX_PAGES} pages of ${kind}.`);
    }
    // A first sync starts at the oldest possible time: without `since` many exchanges answer
    // their newest page only, and moving forward from it would skip everything older.
    let from = since ?? EARLIEST_TRANSACTION.getTime();
    for (let n = 0; n < MAX_PAGES; n++) {
      const params = TIME_PAGING_PARAMS[exchange.id]?.(kind, from) ?? {};
      const items = await this.call(exchange, signal, () => page(from, params));
      if (LIST_ANSWERS.has(exchange.id) && !Array.isArray(exchange.last_json_response))
        throw new SourceUnavailableError(`${exchange.id} sent ${kind} that are not a list.`);
      const newest = Math.max(
        ...items.map((item) => (item as { timestamp?: number }).timestamp ?? Number.NEGATIVE_INFINITY),
      );
      all.push(...items);
      if (items.length === 0 || !Number.isFinite(newest) || (from !== undefined && newest + 1 <= from))
        return all;
      from = newest + 1;
    }
    throw new SourceUnavailableError(`${exchange.id} sent more than ${MAX_PAGES} pages of ${kind}.`);
  }

  /**
   * The ledger legs of the history with their USD prices: a first pass records which stored daily
   * prices the mapping needs, they are read per day, and the second pass maps with them.
   */
  private async priced(
    history: History,
    ledgerKind: LedgerEntryRule = unifiedLedgerKind,
  ): Promise<SourceTransaction[]> {
    // An asset the store does not know has no price on any day: null, its rows kept unpriced.
    const listed = new Set(await this.prices.knownSymbols());
    const wanted = new Map<string, Set<string>>();
    exchangeLegs(
      history.trades,
      history.ledger,
      (symbol, date) => {
        if (!listed.has(symbol)) return null;
        if (!wanted.has(date)) wanted.set(date, new Set());
        wanted.get(date)!.add(symbol);
        return '1';
      },
      ledgerKind,
    );
    const known = new Map<string, string>();
    for (const [date, symbols] of wanted) {
      const found = await this.prices.pricesOnDate([...symbols], date);
      for (const [symbol, price] of found) known.set(`${symbol} ${date}`, price);
    }
    try {
      return exchangeLegs(
        history.trades,
        history.ledger,
        (symbol, date) => (listed.has(symbol) ? known.get(`${symbol} ${date}`) : null),
        ledgerKind,
      );
    } catch (error) {
      if (error instanceof UnpricedExchangeItemError)
        throw new SourceUnavailableError(`${error.message} The market history must cover it.`);
      throw error;
    }
  }
}

/** One of ccxt's implicit API methods (one per endpoint, e.g. Gemini's privatePostV1StakingHistory). */
function implicit(exchange: Exchange, method: string): (params: object) => Promise<unknown> {
  const call = (exchange as unknown as Record<string, unknown>)[method];
  if (typeof call !== 'function') throw new SourceUnavailableError(`ccxt's ${exchange.id} has no ${method}.`);
  return (params) => (call as (params: object) => Promise<unknown>).call(exchange, params);
}

/** Credentials under ccxt's names (apiSecret → secret, passphrase → password). */
export function normalizeCredentials(credentials: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(credentials)) {
    const name = CREDENTIAL_ALIASES[key];
    if (name && typeof value === 'string' && value !== '') out[name] = value;
  }
  return out;
}
