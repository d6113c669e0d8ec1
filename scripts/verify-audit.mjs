#!/usr/bin/env node
// Re-verifies an audit export (GET /admin/audit/export?format=jsonl) offline: docs/audit.md, "Hash chain".
// Each entry's hash is recomputed; consecutive entries (sequence n, n + 1) must link. Usage: node scripts/verify-audit.mjs audit.jsonl
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
const sort = (v) =>
  Array.isArray(v)
    ? v.map(sort)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sort(v[k])]),
        )
      : v;
let prev = null,
  count = 0,
  broken = null;
for (const line of readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean)) {
  const e = JSON.parse(line);
  const canonical = JSON.stringify([
    String(e.sequence),
    e.occurredAt,
    e.tenantId,
    e.actor.kind,
    e.actor.id,
    e.action,
    e.target?.kind ?? null,
    e.target?.id ?? null,
    e.requestId,
    e.status,
    JSON.stringify(sort(e.details)),
    e.prevHash,
  ]);
  const hash = createHash('sha256').update(canonical, 'utf8').digest('hex');
  const linked = prev === null || prev.sequence + 1 !== e.sequence || e.prevHash === prev.hash;
  if (hash !== e.hash || !linked) {
    broken = e.sequence;
    break;
  }
  prev = e;
  count++;
}
console.log(broken === null ? `valid: ${count} entries` : `INVALID: entry ${broken} does not verify`);
process.exitCode = broken === null ? 0 : 1;
