/**
 * Service tier: linking accounts (AccountsService.create) asks the chosen source's connector
 * about its options and credentials; the accounts module never names a source itself.
 */
import { ManualClock } from '../../src/common/clock/clock.js';
import { ErrorCode } from '../../src/common/errors/domain-error.js';
import { AccountsModule, AccountsService } from '../../src/modules/accounts/index.js';
import { LedgerModule } from '../../src/modules/ledger/index.js';
import {
  ConnectorRegistry,
  SOURCE_CATALOGUE,
  SourcesModule,
  type SourceConnector,
} from '../../src/modules/sources/index.js';
import { DomainError } from '../../src/common/errors/domain-error.js';
import { insertTenant } from '../factories/account-rows.factory.js';
import { ScriptedConnector } from '../factories/accounts.factory.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

/** An exchange-like source that keeps a region and needs an API key. */
class RegionalExchange extends ScriptedConnector implements SourceConnector {
  describe() {
    return { summary: '`regional` (test)', synthetic: false, options: {}, examples: {} };
  }

  accountOptions(_options: Readonly<Record<string, unknown>>, account: { platform: string }) {
    return { region: account.platform === 'kraken' ? 'eu' : 'us' };
  }

  checkCredentials(credentials: Readonly<Record<string, string>>): void {
    if (!credentials.apiKey) throw DomainError.validation('credentials', 'credentials.apiKey is required.');
  }
}

describe('linking accounts (service tier)', () => {
  let s: ServiceModule;
  let tenantId: string;
  let accounts: AccountsService;
  let n = 0;
  const identity = () => `household-${++n}`;

  beforeAll(async () => {
    s = await startServiceModule({
      imports: [LedgerModule, SourcesModule, AccountsModule],
      clock: new ManualClock(new Date('2024-06-01T12:00:00Z')),
      prices: new FixedMarketPrices({}),
      env: { SANDBOX: 'true' },
    });
    tenantId = await insertTenant(s.dataSource, 'service-linking');
    accounts = s.get(AccountsService);
    s.get(ConnectorRegistry).register('regional', new RegionalExchange());
  });

  afterAll(() => s?.close());

  it('stores the settings the sandbox connector derives from its options', async () => {
    const account = await accounts.create(
      tenantId,
      {
        platform: 'kraken',
        identity: identity(),
        source: 'sandbox',
        sourceOptions: { sandboxProfile: 'slow_initial_sync', syncDelayMinutes: 5 },
      },
      true,
    );
    expect(account.sourceOptions).toEqual({
      profile: 'slow_initial_sync',
      seed: `sandbox-accounts:account:${account.id}`,
      script: 'kraken-trading',
      syncDelayMinutes: 5,
    });
    expect((await accounts.findById(tenantId, account.id))?.sourceOptions).toEqual(account.sourceOptions);
  });

  it('refuses a blank, invisible-only or bidi-control identity, naming identity (the CLI links through here; issue 27 item 16)', async () => {
    for (const bad of ['  ', '\u200B', '\u202Eabc', 'a\u2066b'])
      await expect(
        accounts.create(tenantId, { platform: 'coinbase', identity: bad, source: 'csv' }, true),
      ).rejects.toMatchObject({
        code: ErrorCode.ValidationFailed,
        fieldErrors: { identity: [expect.any(String)] },
      });
  });

  it('stores no settings for a source that keeps none', async () => {
    const account = await accounts.create(
      tenantId,
      { platform: 'coinbase', identity: identity(), source: 'csv' },
      true,
    );
    expect(account.sourceOptions).toBeNull();
  });

  it("rejects another source's options, naming the field", async () => {
    await expect(
      accounts.create(
        tenantId,
        { platform: 'coinbase', identity: identity(), source: 'csv', sourceOptions: { syncDelayMinutes: 5 } },
        true,
      ),
    ).rejects.toMatchObject({
      code: ErrorCode.ValidationFailed,
      fieldErrors: {
        sandboxProfile: ['sandboxProfile and syncDelayMinutes apply to the sandbox source only.'],
      },
    });
  });

  it('refuses synthetic sources where they are not allowed and lists the others', async () => {
    await expect(
      accounts.create(tenantId, { platform: 'coinbase', identity: identity(), source: 'sandbox' }, false),
    ).rejects.toMatchObject({
      fieldErrors: { source: ['source must be one of: bitcoin, csv, ethereum, exchange, regional, solana'] },
    });
  });

  it('asks a registered connector for its settings and lets it refuse credentials', async () => {
    await expect(
      accounts.create(
        tenantId,
        { platform: 'kraken', identity: identity(), source: 'regional', credentials: { apiSecret: 'x' } },
        false,
      ),
    ).rejects.toMatchObject({ fieldErrors: { credentials: ['credentials.apiKey is required.'] } });
    const account = await accounts.create(
      tenantId,
      { platform: 'kraken', identity: identity(), source: 'regional', credentials: { apiKey: 'k' } },
      false,
    );
    expect(account.sourceOptions).toEqual({ region: 'eu' });
    expect(account.credentialsEncrypted).not.toBeNull();
  });

  describe('EVM chains (issue 30 item 2): one source, the chain is the account’s', () => {
    // The ethereum source's own description, with a fetch that never reaches the network.
    let restore: () => void;
    beforeAll(() => {
      restore = s.get(ConnectorRegistry).register('ethereum', {
        describe: () => SOURCE_CATALOGUE['ethereum']!,
        fetch: async () => ({ status: 'pending', retryAt: null }),
      });
    });
    afterAll(() => restore());
    const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

    it.each(['ethereum', 'base', 'arbitrum', 'optimism', 'polygon'])(
      'a partner links a %s address: the ethereum source, the chain = the platform',
      async (platform) => {
        const account = await accounts.link(tenantId, { platform, identity: identity(), address: ADDRESS });
        expect([account.source, account.platform, account.chain, account.address]).toEqual([
          'ethereum',
          platform,
          platform,
          ADDRESS,
        ]);
      },
    );

    it('refuses a bad checksum on Base naming address, and an xpub naming xpub', async () => {
      await expect(
        accounts.link(tenantId, {
          platform: 'base',
          identity: identity(),
          address: ADDRESS.replace('E7', 'e7'),
        }),
      ).rejects.toMatchObject({ fieldErrors: { address: ['address is not a valid base address.'] } });
      await expect(
        accounts.link(tenantId, { platform: 'arbitrum', identity: identity(), xpub: 'xpub6C' }),
      ).rejects.toMatchObject({ fieldErrors: { xpub: [expect.stringContaining('linked with address')] } });
    });

    it('the admin route links chain polygon with the ethereum source, and refuses a chain outside the table', async () => {
      const account = await accounts.create(
        tenantId,
        { platform: 'polygon', identity: identity(), source: 'ethereum', address: ADDRESS, chain: 'polygon' },
        false,
      );
      expect(account.chain).toBe('polygon');
      await expect(
        accounts.create(
          tenantId,
          { platform: 'fantom', identity: identity(), source: 'ethereum', address: ADDRESS, chain: 'fantom' },
          false,
        ),
      ).rejects.toMatchObject({
        fieldErrors: {
          chain: ['The ethereum source watches chain ethereum or base or arbitrum or optimism or polygon.'],
        },
      });
    });
  });

  describe('a partner links a csv account and uploads a file (issue 30 item 5)', () => {
    const csvLink = (fields: Record<string, unknown> = {}) =>
      accounts.link(tenantId, { platform: 'coinbase', source: 'csv', identity: identity(), ...fields });

    it('links by naming the source, for any platform, and starts no refresh (the account waits for its file)', async () => {
      const account = await csvLink({ platform: 'robinhood' });
      expect([account.source, account.platform, account.syncStatus]).toEqual(['csv', 'robinhood', 'syncing']);
      expect((await accounts.findById(tenantId, account.id))?.lastRefreshAttemptAt).toBeNull();
    });

    it('refuses credentials, an address or an xpub on a csv link, and any other source named, naming the field', async () => {
      await expect(csvLink({ credentials: { apiKey: 'k', secret: 's' } })).rejects.toMatchObject({
        fieldErrors: {
          credentials: [
            'The csv source takes no credentials: its transactions arrive in uploaded files (POST /v1/api/accounts/{accountId}/import).',
          ],
        },
      });
      await expect(csvLink({ address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' })).rejects.toMatchObject({
        fieldErrors: { address: [expect.stringMatching(/^The csv source takes no address/)] },
      });
      await expect(csvLink({ source: 'exchange' })).rejects.toMatchObject({
        fieldErrors: {
          source: [
            'source may only name a source fed by uploaded files (csv); leave it out to link by platform.',
          ],
        },
      });
    });

    it('answers a file whose header no layout takes with the layouts tried and what each lacks, closest first; nothing stored', async () => {
      const account = await csvLink();
      const file = 'Date,Asset,Quantity,Price\n2024-01-02,BTC,0.5,42000\n';
      const error = await accounts.importCsv(tenantId, account.id, file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      // Names compare case-insensitively. Gemini finds "Date" (1 of 5, 0.2); Coinbase "Asset" and
      // Kraken ledgers "asset" (1 of 7 each, 0.14: the tie keeps the order tried, Coinbase first);
      // Kraken trades "price" (1 of 9, 0.11); Bitstamp none; the service's CSV none of its 5
      // required columns ("Price" is one of its optional ones, so not unknown).
      expect((error as DomainError).fieldErrors).toEqual({
        csv: [
          "The header matches none of the layouts tried (Coinbase transaction history, Kraken ledgers, Kraken trades, Gemini transaction history, Bitstamp transactions, the service's CSV); what each lacks is listed by line, closest first. Nothing was imported.",
        ],
        'line 1': [
          'Not a Gemini transaction history export: missing columns "Time (UTC)", "Type", "Symbol", "Specification"',
          'Not a Coinbase transaction history export: missing columns "Timestamp", "Transaction Type", "Quantity Transacted", "Price at Transaction" (or "Spot Price at Transaction" or "USD Spot Price at Transaction"), "Fees and/or Spread" (or "Fees" or "USD Fees"), "Notes"',
          'Not a Kraken ledgers export: missing columns "txid", "refid", "time", "type", "amount", "fee"',
          'Not a Kraken trades export: missing columns "txid", "ordertxid", "pair", "time", "type", "cost", "fee", "vol"',
          'Not a Bitstamp transactions export: missing columns "Type", "Subtype", "Datetime", "Amount", "Amount currency", "Value", "Value currency", "Fee", "Fee currency"',
          `Not the service's CSV: missing columns "transactionId", "timestamp", "symbol", "direction", "amount"; unknown columns "Date", "Asset", "Quantity" (its columns: transactionId, timestamp, symbol, direction, amount, price, fee, transferId)`,
        ],
      });
      expect((await accounts.findById(tenantId, account.id))?.lastSyncedAt).toBeNull();
    });
  });
});
