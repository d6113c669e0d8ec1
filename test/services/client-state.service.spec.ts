/**
 * Service tier: what bearer verification knows about a client (ClientsService.state/knownState)
 * is remembered for CLIENT_STATE_CACHE_MS, refreshed in the background in its last
 * CLIENT_STATE_REFRESH_AHEAD_MS while the client keeps calling, asked of the database once however many requests wait for it (unless
 * that lookup is stuck on a database in trouble), and forgotten at once when this instance
 * disables the client.
 */
import { jest } from '@jest/globals';
import { ManualClock } from '../../src/common/clock/clock.js';
import { ClientsService, TenancyModule, TenancyRepository } from '../../src/modules/tenancy/index.js';
import {
  CLIENT_LOOKUP_SHARED_MS,
  CLIENT_STATE_CACHE_MS,
  CLIENT_STATE_REFRESH_AHEAD_MS,
} from '../../src/modules/tenancy/testing.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { insertTenant } from '../factories/account-rows.factory.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

describe('client state for bearer verification (service tier)', () => {
  let s: ServiceModule;
  let clients: ClientsService;
  let lookups: ReturnType<typeof jest.spyOn>;
  let n = 0;

  const newClient = async () => {
    const slug = `client-state-${++n}`;
    await insertTenant(s.dataSource, slug);
    return (await clients.createClient(slug, ['partner'])).clientId;
  };

  beforeAll(async () => {
    s = await startServiceModule({
      imports: [TenancyModule],
      clock: new ManualClock(new Date('2026-11-24T12:00:00Z')),
      prices: new FixedMarketPrices({}),
    });
    clients = s.get(ClientsService);
    lookups = jest.spyOn(s.get(TenancyRepository), 'findClientForAuthentication');
  });

  beforeEach(() => lookups.mockClear());
  afterAll(() => s?.close());

  it('asks the database once for any number of requests waiting on the same client', async () => {
    const clientId = await newClient();
    const t0 = 1_000_000;
    const states = await Promise.all(Array.from({ length: 20 }, () => clients.state(clientId, t0)));
    expect(lookups).toHaveBeenCalledTimes(1);
    for (const state of states) expect(state).toMatchObject({ active: true, secretGeneration: 0 });
    expect(clients.knownState(clientId, t0 + 1)).toMatchObject({ active: true });
  });

  it('refreshes a used answer in its last CLIENT_STATE_REFRESH_AHEAD_MS in the background, so it never runs out while in use', async () => {
    const clientId = await newClient();
    const t0 = 2_000_000;
    await clients.state(clientId, t0);
    lookups.mockClear();
    // Before that: from memory, nothing asked.
    expect(
      clients.knownState(clientId, t0 + CLIENT_STATE_CACHE_MS - CLIENT_STATE_REFRESH_AHEAD_MS - 1),
    ).toBeDefined();
    expect(lookups).not.toHaveBeenCalled();
    // In it: still answered from memory, and one lookup starts (however often it is asked).
    const late = t0 + CLIENT_STATE_CACHE_MS - 10;
    expect(clients.knownState(clientId, late)).toMatchObject({ active: true });
    expect(clients.knownState(clientId, late + 1)).toMatchObject({ active: true });
    expect(lookups).toHaveBeenCalledTimes(1);
    await (lookups.mock.results[0]!.value as Promise<unknown>);
    await new Promise((resolve) => setImmediate(resolve));
    // The refreshed answer counts from when it was asked: known well past the first one's end.
    expect(clients.knownState(clientId, t0 + CLIENT_STATE_CACHE_MS + 1_000)).toMatchObject({ active: true });
    expect(clients.knownState(clientId, late + CLIENT_STATE_CACHE_MS)).toBeUndefined();
  });

  it('does not hand a stuck lookup’s failure to a request that arrives once the database is back', async () => {
    const clientId = await newClient();
    const t0 = 4_000_000;
    let fail!: (error: Error) => void;
    // The first lookup waits on a partitioned connection, and fails when its timeout comes.
    lookups.mockImplementationOnce(
      () =>
        new Promise((_resolve, reject) => (fail = reject)) as ReturnType<
          TenancyRepository['findClientForAuthentication']
        >,
    );
    const stuck = clients.state(clientId, t0);
    // A request soon after shares it (one query for both).
    const sharing = clients.state(clientId, t0 + CLIENT_LOOKUP_SHARED_MS - 1);
    expect(lookups).toHaveBeenCalledTimes(1);
    // Later, the database back: a new request asks for itself and gets the state.
    const later = clients.state(clientId, t0 + CLIENT_LOOKUP_SHARED_MS);
    expect(lookups).toHaveBeenCalledTimes(2);
    expect(await later).toMatchObject({ active: true });
    fail(new Error('query read timeout'));
    await expect(stuck).rejects.toThrow('query read timeout');
    await expect(sharing).rejects.toThrow('query read timeout');
    // The newer answer is the one remembered.
    expect(clients.knownState(clientId, t0 + CLIENT_LOOKUP_SHARED_MS + 1)).toMatchObject({ active: true });
    // The background refresh never starts a second lookup beside one in flight, however old.
    lookups.mockClear();
    lookups.mockImplementationOnce(
      () => new Promise(() => undefined) as ReturnType<TenancyRepository['findClientForAuthentication']>,
    );
    const late = t0 + CLIENT_LOOKUP_SHARED_MS + CLIENT_STATE_CACHE_MS - CLIENT_STATE_REFRESH_AHEAD_MS;
    for (const at of [late, late + 1, late + CLIENT_LOOKUP_SHARED_MS + 5])
      expect(clients.knownState(clientId, at)).toMatchObject({ active: true });
    expect(lookups).toHaveBeenCalledTimes(1);
  });

  it('does not remember a lookup overtaken by a disable on this instance', async () => {
    const clientId = await newClient();
    const t0 = 3_000_000;
    const inFlight = clients.state(clientId, t0); // the query is on its way
    await clients.setDisabled(clientId, true);
    expect(await inFlight).toMatchObject({ active: true }); // its caller gets what it asked
    expect(clients.knownState(clientId, t0 + 1)).toBeUndefined(); // but it is not remembered
    expect(await clients.state(clientId, t0 + 2)).toMatchObject({ active: false });
  });

  it('a disable revokes the tokens issued before it for good: re-enabling does not revive them (issue 27 item 15)', async () => {
    const clientId = await newClient();
    const issued = await clients.createClient(`client-state-${n}`, ['partner'], `${clientId}-b`);
    // A token issued now carries the generation verifyCredentials answers (its `sgen`).
    const before = await clients.verifyCredentials(issued.clientId, issued.clientSecret);
    expect(before).not.toBeNull();
    await clients.setDisabled(issued.clientId, true);
    expect(await clients.verifyCredentials(issued.clientId, issued.clientSecret)).toBeNull();
    await clients.setDisabled(issued.clientId, false);
    // All within the same second: no `iat` comparison could tell these tokens apart.
    const state = await clients.state(issued.clientId);
    expect(state.active).toBe(true);
    // Bearer verification admits a token only when its generation is at least the client's.
    expect(before!.secretGeneration).toBeLessThan(state.secretGeneration);
    const after = await clients.verifyCredentials(issued.clientId, issued.clientSecret);
    expect(after!.secretGeneration).toBe(state.secretGeneration);
    // A second enable (already enabled) revokes nothing more; every disable does.
    await clients.setDisabled(issued.clientId, false);
    expect((await clients.state(issued.clientId)).secretGeneration).toBe(after!.secretGeneration);
    await clients.setDisabled(issued.clientId, true);
    await clients.setDisabled(issued.clientId, false);
    expect((await clients.state(issued.clientId)).secretGeneration).toBeGreaterThan(after!.secretGeneration);
  });
});
