/**
 * Jest on Node 20 cannot `require()` an ES module, but a few CommonJS packages we use
 * (@nestjs/throttler, @nest-lab/throttler-storage-redis, nestjs-pino,
 * @apidevtools/swagger-parser) require ESM-only packages (@nestjs/common, @nestjs/core,
 * @apidevtools/json-schema-ref-parser). Plain Node 20.20 allows that; Jest's runtime does not.
 * This setup file loads the ES modules through Jest once and parks them on globalThis; the resolver
 * (test/jest/resolver.cjs) points those packages' require() calls at shims that return the very same
 * module instances, so class identity (HttpException, Reflector) holds across the boundary.
 */
import * as common from '@nestjs/common';
import * as core from '@nestjs/core';
import * as refParser from '@apidevtools/json-schema-ref-parser';

(globalThis as { __esmBridge?: Record<string, unknown> }).__esmBridge = {
  '@nestjs/common': common,
  '@nestjs/core': core,
  '@apidevtools/json-schema-ref-parser': refParser,
};
