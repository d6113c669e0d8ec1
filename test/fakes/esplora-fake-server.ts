/**
 * A local stand-in for an Esplora REST API (node:http on 127.0.0.1, random port): `GET
 * /address/:a` (address stats) and `GET /address/:a/txs/chain[/:last_seen_txid]` (confirmed
 * history, newest first, 25 per page), computed from the transactions it is given, exactly as
 * Esplora derives them. Scripted failures: a status for the next N requests, a malformed body, a
 * delay.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EsploraTransaction } from '../../src/domain/chains/bitcoin/index.js';

const PAGE = 25;

export interface EsploraFault {
  path: RegExp;
  status?: number;
  body?: string;
  delayMs?: number;
  remaining: number;
}

export class FakeEsplora {
  readonly requests: string[] = [];
  private readonly faults: EsploraFault[] = [];
  private server?: Server;
  private transactions: EsploraTransaction[] = [];

  /** Transactions, any order; served newest first (by block height, then as given). */
  setTransactions(transactions: EsploraTransaction[]): void {
    this.transactions = [...transactions].sort(
      (a, b) => (b.status.block_height ?? 0) - (a.status.block_height ?? 0),
    );
  }

  fail(fault: Omit<EsploraFault, 'remaining'> & { remaining?: number }): void {
    this.faults.push({ remaining: 1, ...fault });
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      this.requests.push(path);
      const fault = this.faults.find((f) => f.remaining > 0 && f.path.test(path));
      const answer = (status: number, body: string) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body);
      };
      const respond = () => {
        if (fault) {
          fault.remaining -= 1;
          if (fault.status || fault.body !== undefined)
            return answer(fault.status ?? 200, fault.body ?? '{}');
        }
        const stats = /^\/address\/([^/]+)$/.exec(path);
        if (stats) return answer(200, JSON.stringify(this.stats(decodeURIComponent(stats[1]!))));
        const chain = /^\/address\/([^/]+)\/txs\/chain(?:\/([0-9a-f]{64}))?$/.exec(path);
        if (chain) return answer(200, JSON.stringify(this.page(decodeURIComponent(chain[1]!), chain[2])));
        answer(404, '"not found"');
      };
      if (fault?.delayMs) setTimeout(respond, fault.delayMs);
      else respond();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private involving(address: string): EsploraTransaction[] {
    return this.transactions.filter(
      (tx) =>
        tx.vout.some((o) => o.scriptpubkey_address === address) ||
        tx.vin.some((i) => i.prevout?.scriptpubkey_address === address),
    );
  }

  private stats(address: string) {
    const confirmed = this.involving(address).filter((tx) => tx.status.confirmed);
    const mempool = this.involving(address).filter((tx) => !tx.status.confirmed);
    const sums = (txs: EsploraTransaction[]) => ({
      tx_count: txs.length,
      funded_txo_sum: txs
        .flatMap((tx) => tx.vout)
        .filter((o) => o.scriptpubkey_address === address)
        .reduce((s, o) => s + o.value, 0),
      spent_txo_sum: txs
        .flatMap((tx) => tx.vin)
        .filter((i) => i.prevout?.scriptpubkey_address === address)
        .reduce((s, i) => s + i.prevout!.value, 0),
    });
    return { address, chain_stats: sums(confirmed), mempool_stats: sums(mempool) };
  }

  private page(address: string, lastSeen: string | undefined) {
    const confirmed = this.involving(address).filter((tx) => tx.status.confirmed);
    const start = lastSeen ? confirmed.findIndex((tx) => tx.txid === lastSeen) + 1 : 0;
    return confirmed.slice(start, start + PAGE);
  }
}
