#!/usr/bin/env node
// The two references of bench/load.mjs, each in its own process so they get a core like the service:
//   node bench/reference-servers.mjs http <port> <bodyFile>   bare node:http (the machine's limit)
//   node bench/reference-servers.mjs nest <port> <bodyFile>   bare NestJS + Express, one route (the framework's ceiling)
// Both answer GET with exactly the bytes of a cached balances response.
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
} else {
  console.error('usage: reference-servers.mjs http|nest <port> <bodyFile>');
  process.exit(2);
}
