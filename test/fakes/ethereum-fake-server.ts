/**
 * A local stand-in for an Etherscan-compatible account API (`GET /api?module=account&action=…`,
 * paged ascending with Etherscan's 10,000-row window; Etherscan v2's `chainid` picks the chain,
 * absent means 1) and EVM JSON-RPC endpoints (`POST /rpc` for chain 1, `POST /rpc/<chainId>` for
 * the others: eth_getBalance, eth_call of ERC-20 balanceOf, eth_chainId, eth_getTransactionReceipt
 * with the OP-stack `l1Fee` where one is set), both on 127.0.0.1 with a random port. Each chain
 * has its own history and balances (`chain(id)`; the top-level fields are chain 1's). Checks the
 * API key; scripted failures answer Etherscan's own error shapes.
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

/** One chain's history and state. */
export class FakeChain {
  normal: EtherscanNormalTx[] = [];
  internal: EtherscanInternalTx[] = [];
  tokens: EtherscanTokenTx[] = [];
  /** Wei (of the chain's gas asset) per lower-case address. */
  readonly ethBalances = new Map<string, bigint>();
  /** `${contract}:${holder}` (lower case) → base units. */
  readonly tokenBalances = new Map<string, bigint>();
  /** The receipts' `l1Fee` (OP-stack), wei by lower-case hash; absent: a receipt without one. */
  readonly l1Fees = new Map<string, bigint>();
}

export class FakeEthereum {
  private readonly chains = new Map<number, FakeChain>([[1, new FakeChain()]]);
  readonly requests: {
    action?: string;
    page?: string;
    startblock?: string;
    chainid?: string;
    rpc?: string;
    rpcChain?: number;
  }[] = [];
  readonly faults: EtherscanFault[] = [];
  private server?: Server;

  /** The history and state of chain `id` (created empty on first use). */
  chain(id: number): FakeChain {
    let chain = this.chains.get(id);
    if (!chain) {
      chain = new FakeChain();
      this.chains.set(id, chain);
    }
    return chain;
  }

  /** Forgets every chain but mainnet (whose fields the caller sets as before). */
  resetChains(): void {
    for (const id of [...this.chains.keys()]) if (id !== 1) this.chains.delete(id);
  }

  get normal(): EtherscanNormalTx[] {
    return this.chain(1).normal;
  }
  set normal(rows: EtherscanNormalTx[]) {
    this.chain(1).normal = rows;
  }
  get internal(): EtherscanInternalTx[] {
    return this.chain(1).internal;
  }
  set internal(rows: EtherscanInternalTx[]) {
    this.chain(1).internal = rows;
  }
  get tokens(): EtherscanTokenTx[] {
    return this.chain(1).tokens;
  }
  set tokens(rows: EtherscanTokenTx[]) {
    this.chain(1).tokens = rows;
  }
  get ethBalances(): Map<string, bigint> {
    return this.chain(1).ethBalances;
  }
  get tokenBalances(): Map<string, bigint> {
    return this.chain(1).tokenBalances;
  }

  async start(): Promise<string> {
    this.server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const rpcPath = /^\/rpc(?:\/(\d{1,12}))?$/.exec(url.pathname);
      if (req.method === 'POST' && rpcPath) {
        const chainId = Number(rpcPath[1] ?? 1);
        const payload = JSON.parse(await readBody(req)) as RpcRequest | RpcRequest[];
        const answer = (call: RpcRequest) => {
          this.requests.push({ rpc: call.method, rpcChain: chainId });
          return { jsonrpc: '2.0', id: call.id, ...this.rpc(chainId, call) };
        };
        return json(200, Array.isArray(payload) ? payload.map(answer) : answer(payload));
      }
      if (url.pathname !== '/api') return json(404, { error: 'not found' });
      const q = Object.fromEntries(url.searchParams);
      this.requests.push({ action: q.action, page: q.page, startblock: q.startblock, chainid: q.chainid });
      const fault = this.faults.find((f) => f.remaining > 0 && f.action === q.action);
      if (fault) {
        fault.remaining -= 1;
        return json(fault.status ?? 200, fault.body ?? {});
      }
      if (q.apikey !== FAKE_ETHERSCAN_KEY)
        return json(200, { status: '0', message: 'NOTOK', result: 'Invalid API Key' });
      const chainId = q.chainid === undefined ? 1 : Number(q.chainid);
      if (!this.chains.has(chainId))
        return json(200, {
          status: '0',
          message: 'NOTOK',
          result:
            'Missing or unsupported chainid parameter (required for v2 api), please see https://api.etherscan.io/v2/chainlist for the list of supported chainids',
        });
      const chain = this.chain(chainId);
      const rows = (
        { txlist: chain.normal, txlistinternal: chain.internal, tokentx: chain.tokens } as Record<
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

  private rpc(
    chainId: number,
    call: RpcRequest,
  ): { result: unknown } | { error: { code: number; message: string } } {
    const hex = (n: bigint) => `0x${n.toString(16)}`;
    const chain = this.chain(chainId);
    switch (call.method) {
      case 'eth_chainId':
        return { result: hex(BigInt(chainId)) };
      case 'eth_getBalance':
        return { result: hex(chain.ethBalances.get(String(call.params[0]).toLowerCase()) ?? 0n) };
      case 'eth_call': {
        const { to, data } = call.params[0] as { to: string; data: string };
        if (!data.startsWith('0x70a08231')) return { error: { code: -32000, message: 'execution reverted' } };
        const holder = `0x${data.slice(-40)}`.toLowerCase();
        const units = chain.tokenBalances.get(`${to.toLowerCase()}:${holder}`) ?? 0n;
        return { result: `0x${units.toString(16).padStart(64, '0')}` };
      }
      case 'eth_getTransactionReceipt': {
        // The receipt's shape (execution-apis), with the OP-stack fields where an l1Fee is set.
        const hash = String(call.params[0]).toLowerCase();
        const tx = chain.normal.find((row) => row.hash.toLowerCase() === hash);
        if (!tx) return { result: null };
        const l1Fee = chain.l1Fees.get(hash);
        return {
          result: {
            transactionHash: tx.hash,
            blockNumber: hex(BigInt(tx.blockNumber)),
            from: tx.from,
            to: tx.to,
            status: tx.isError === '0' ? '0x1' : '0x0',
            gasUsed: hex(BigInt(tx.gasUsed)),
            effectiveGasPrice: hex(BigInt(tx.gasPrice)),
            logs: [],
            type: '0x2',
            ...(l1Fee === undefined
              ? {}
              : { l1Fee: hex(l1Fee), l1GasUsed: '0x640', l1GasPrice: '0x3b9aca00', l1FeeScalar: '0.684' }),
          },
        };
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
