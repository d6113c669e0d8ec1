/**
 * A local stand-in for an Etherscan-compatible account API (`GET /api?module=account&action=…`,
 * paged ascending with Etherscan's 10,000-row window) and an Ethereum JSON-RPC endpoint
 * (`POST /rpc`: eth_getBalance, eth_call of ERC-20 balanceOf, eth_chainId), both on 127.0.0.1
 * with a random port. Checks the API key; scripted failures answer Etherscan's own error shapes.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  EtherscanInternalTx,
  EtherscanNormalTx,
  EtherscanTokenTx,
} from '../../src/domain/chains/ethereum/index.js';

export const FAKE_ETHERSCAN_KEY = 'fake-etherscan-key';
const WINDOW_ROWS = 10_000;

export interface EtherscanFault {
  action: string;
  /** A JSON body (Etherscan's error shape) or an HTTP status. */
  body?: unknown;
  status?: number;
  remaining: number;
}

export class FakeEthereum {
  normal: EtherscanNormalTx[] = [];
  internal: EtherscanInternalTx[] = [];
  tokens: EtherscanTokenTx[] = [];
  /** Wei per lower-case address. */
  readonly ethBalances = new Map<string, bigint>();
  /** `${contract}:${holder}` (lower case) → base units. */
  readonly tokenBalances = new Map<string, bigint>();
  readonly requests: { action?: string; page?: string; startblock?: string; rpc?: string }[] = [];
  readonly faults: EtherscanFault[] = [];
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && url.pathname === '/rpc') {
        const payload = JSON.parse(await readBody(req)) as RpcRequest | RpcRequest[];
        const answer = (call: RpcRequest) => {
          this.requests.push({ rpc: call.method });
          return { jsonrpc: '2.0', id: call.id, ...this.rpc(call) };
        };
        return json(200, Array.isArray(payload) ? payload.map(answer) : answer(payload));
      }
      if (url.pathname !== '/api') return json(404, { error: 'not found' });
      const q = Object.fromEntries(url.searchParams);
      this.requests.push({ action: q.action, page: q.page, startblock: q.startblock });
      const fault = this.faults.find((f) => f.remaining > 0 && f.action === q.action);
      if (fault) {
        fault.remaining -= 1;
        return json(fault.status ?? 200, fault.body ?? {});
      }
      if (q.apikey !== FAKE_ETHERSCAN_KEY)
        return json(200, { status: '0', message: 'NOTOK', result: 'Invalid API Key' });
      const rows = (
        { txlist: this.normal, txlistinternal: this.internal, tokentx: this.tokens } as Record<
          string,
          { from: string; to: string; blockNumber: string }[]
        >
      )[q.action!];
      if (!rows) return json(200, { status: '0', message: 'NOTOK', result: 'Error! Invalid action' });
      const address = (q.address ?? '').toLowerCase();
      const page = Number(q.page);
      const offset = Number(q.offset);
      if (page * offset > WINDOW_ROWS) {
        return json(200, {
          status: '0',
          message: 'NOTOK',
          result: 'Result window is too large, PageNo x Offset size must be less than or equal to 10000',
        });
      }
      const matching = rows
        .filter(
          (r) =>
            (r.from.toLowerCase() === address || r.to.toLowerCase() === address) &&
            Number(r.blockNumber) >= Number(q.startblock),
        )
        .sort((a, b) => Number(a.blockNumber) - Number(b.blockNumber));
      const slice = matching.slice((page - 1) * offset, page * offset);
      return json(
        200,
        slice.length
          ? { status: '1', message: 'OK', result: slice }
          : { status: '0', message: 'No transactions found', result: [] },
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private rpc(call: RpcRequest): { result: string } | { error: { code: number; message: string } } {
    const hex = (n: bigint) => `0x${n.toString(16)}`;
    switch (call.method) {
      case 'eth_chainId':
        return { result: '0x1' };
      case 'eth_getBalance':
        return { result: hex(this.ethBalances.get(String(call.params[0]).toLowerCase()) ?? 0n) };
      case 'eth_call': {
        const { to, data } = call.params[0] as { to: string; data: string };
        if (!data.startsWith('0x70a08231')) return { error: { code: -32000, message: 'execution reverted' } };
        const holder = `0x${data.slice(-40)}`.toLowerCase();
        const units = this.tokenBalances.get(`${to.toLowerCase()}:${holder}`) ?? 0n;
        return { result: `0x${units.toString(16).padStart(64, '0')}` };
      }
      default:
        return { error: { code: -32601, message: `method ${call.method} not found` } };
    }
  }
}

interface RpcRequest {
  id: number;
  method: string;
  params: unknown[];
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
