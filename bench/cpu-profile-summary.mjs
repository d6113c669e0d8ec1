// Summarises a V8 .cpuprofile by where the service's time goes: self time per category, by the
// script URL of the function a sample landed in (native work counts toward its JS caller).
const CATEGORIES = [
  [
    'JWT verification',
    /jsonwebtoken|passport-jwt|\/passport\/|\/jws\/|ecdsa-sig-formatter|internal\/crypto|jwt\.strategy|jwt-auth\.guard|token-verification/,
  ],
  ['rate limiting (throttler)', /@nestjs\/throttler|throttler-storage|rate-limit\.guard|ioredis/],
  ['database (TypeORM + pg)', /typeorm|\/pg\/|pg-protocol|pg-pool|pg-types|postgres-/],
  ['logging (pino)', /pino|sonic-boom|nestjs-pino/],
  ['interceptors / pipes / rxjs', /interceptor|rxjs|\/pipes\/|class-validator|class-transformer/],
  ['Nest core (routing, guards, DI)', /@nestjs\/core|@nestjs\/common|@nestjs\/platform-express/],
  [
    'Express + node:http',
    /express|\/router\/|body-parser|node:_http|node:net|node:stream|internal\/streams|on-finished|finalhandler/,
  ],
  ['service code (dist/src)', /\/dist\/src\//],
  ['async context (AsyncLocalStorage, async_hooks)', /async_hooks|async_local_storage|node:internal\/async/],
  ['node internals (timers, events, buffers)', /^node:/],
];

/**
 * `windows`, when given: [from, to] pairs of CLOCK_MONOTONIC µs (process.hrtime.bigint() / 1000n in
 * any process of the machine, the clock of the profile's timestamps); only samples inside one count,
 * so start-up and the other endpoints' runs stay out of the summary.
 */
export function summarizeProfile(profile, windows) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  if (windows?.length) {
    let at = profile.startTime;
    const samples = [];
    const timeDeltas = [];
    profile.samples.forEach((id, i) => {
      at += profile.timeDeltas[i] ?? 0;
      if (windows.some(([from, to]) => at >= from && at <= to)) {
        samples.push(id);
        timeDeltas.push(profile.timeDeltas[i] ?? 0);
      }
    });
    profile = { ...profile, samples, timeDeltas };
  }
  const totals = new Map();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    const { url, functionName } = node.callFrame;
    let category;
    if (functionName === '(idle)') category = 'idle';
    else if (functionName === '(garbage collector)') category = 'garbage collection';
    else if (functionName === '(program)') category = 'V8/native (program)';
    else category = CATEGORIES.find(([, re]) => re.test(url))?.[0] ?? (url ? 'other JS' : 'other native');
    totals.set(category, (totals.get(category) ?? 0) + dt);
    all += dt;
  });
  const busy = all - (totals.get('idle') ?? 0);
  // The heaviest functions nothing above claimed, so the categories can be checked.
  const uncategorised = new Map();
  profile.samples.forEach((id, i) => {
    const { url, functionName } = byId.get(id).callFrame;
    if (functionName.startsWith('(') || CATEGORIES.some(([, re]) => re.test(url))) return;
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}`;
    uncategorised.set(key, (uncategorised.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const top = [...uncategorised.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12);
  const rows = [...totals.entries()]
    .filter(([c]) => c !== 'idle')
    .sort((a, b) => b[1] - a[1])
    .map(([c, us]) => `| ${c} | ${(us / 1000).toFixed(0)} | ${((100 * us) / busy).toFixed(1)}% |`);
  return [
    '\nCPU profile of the service (self time, busy time only):',
    '| where | ms | share |',
    '|---|---:|---:|',
    ...rows,
    '\nHeaviest uncategorised functions:',
    ...top.map(([k, us]) => `- ${(us / 1000).toFixed(0)} ms ${k}`),
  ].join('\n');
}
