#!/usr/bin/env node
// The two references of bench/load.mjs, each in its own process so they get a core like the service:
//   node bench/reference-servers.mjs http <port> <bodyFile>   bare node:http (the machine's limit)
//   node bench/reference-servers.mjs nest <port> <bodyFile>   bare NestJS + Express, one route (the framework's ceiling)
//   node bench/reference-servers.mjs nest-sql <port> <specFile>
//                                             bare NestJS + the same SQL: the floor of a DB-bound row
// The first two answer GET with exactly the bytes of a cached balances response. `nest-sql` serves
// one GET route per entry of the spec file ({ databaseUrl, schema, routes: [{ path, queries:
// [{ sql, params }], bodyFile }] }): each request runs the route's statements one after the other
// through a `pg` pool (10 connections, the service's DATABASE_POOL_SIZE; rows parsed by pg as the
// service's are), then sends the bytes the service answered for that endpoint. It is what any
// NestJS service must spend to answer that request: the framework, the same statements and rows,
// and the same body written; everything the service costs above it is its own.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [kind, port, bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

if (kind === 'http') {
  createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  }).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
} else if (kind === 'nest') {
  await import('reflect-metadata');
  const bodyText = body.toString('utf8');
  const { Controller, Get, Header, Module } = await import('@nestjs/common');
  const { NestFactory } = await import('@nestjs/core');
  // Decorators applied by hand: this file is plain JavaScript.
  class ReferenceController {
    balances() {
      return bodyText;
    }
  }
  const descriptor = Object.getOwnPropertyDescriptor(ReferenceController.prototype, 'balances');
  Get('reference')(ReferenceController.prototype, 'balances', descriptor);
  Header('content-type', 'application/json; charset=utf-8')(
    ReferenceController.prototype,
    'balances',
    descriptor,
  );
  Controller()(ReferenceController);
  class ReferenceModule {}
  Module({ controllers: [ReferenceController] })(ReferenceModule);
  const app = await NestFactory.create(ReferenceModule, { logger: false });
  await app.listen(Number(port), '127.0.0.1');
  process.send?.('ready');
} else if (kind === 'nest-sql') {
  await import('reflect-metadata');
  const spec = JSON.parse(readFileSync(bodyFile, 'utf8'));
  const { default: pg } = await import('pg');
  pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value); // as the service does
  const pool = new pg.Pool({
    connectionString: spec.databaseUrl,
    max: 10,
    options: `-c search_path=${spec.schema}`,
    ...spec.poolOptions, // the service's timeouts (data-source-options.ts), when given
  });
  const { Controller, Get, Header, Module } = await import('@nestjs/common');
  const { NestFactory } = await import('@nestjs/core');
  class FloorController {}
  spec.routes.forEach((route, i) => {
    const text = readFileSync(route.bodyFile, 'utf8');
    const name = `route${i}`;
    FloorController.prototype[name] = async function floor() {
      for (const { sql, params } of route.queries) await pool.query(sql, params);
      return text;
    };
    const descriptor = Object.getOwnPropertyDescriptor(FloorController.prototype, name);
    Get(route.path)(FloorController.prototype, name, descriptor);
    Header('content-type', 'application/json; charset=utf-8')(FloorController.prototype, name, descriptor);
  });
  Controller()(FloorController);
  class FloorModule {}
  Module({ controllers: [FloorController] })(FloorModule);
  const app = await NestFactory.create(FloorModule, { logger: false });
  app.getHttpAdapter().getInstance().set('etag', false); // as the service: no body hash per answer
  await app.listen(Number(port), '127.0.0.1');
  process.send?.('ready');
} else {
  console.error('usage: reference-servers.mjs http|nest <port> <bodyFile> | nest-sql <port> <specFile>');
  process.exit(2);
}
