/**
 * Front routes: providers that answer some requests before the application's own pipeline
 * (Express, the request edge, the body parsers, Nest's router), and leave every other request to
 * it untouched.
 *
 * A provider marked `@FrontRoute()` is found through Nest's DiscoveryService and mounted by
 * app.factory.ts on the HTTP adapter (ServiceHttpAdapter), which hands it each request before
 * Express, with Express's request and response prototypes; while the application closes, Express
 * answers everything (503). No module but its own names it. Whatever it answers, it answers as the
 * application would: it does the edge's work with the edge's parts (RequestEdge), and hands
 * anything it cannot finish by itself to the application's exception filter through `next(error)`
 * after `edge.enter`; `next()` passes the request on untouched.
 */
import type { NextFunction, Request, Response } from 'express';
import { DiscoveryService } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import type { RequestEdge } from './request-edge.js';

/** Answers the request, or calls `next()` to leave it to the application (`next(error)`: its exception filter). */
export type FrontRouteHandler = (req: Request, res: Response, next: NextFunction) => void;

export interface FrontRouteProvider {
  /** The middleware to mount, given the edge whose work it must do when it answers. */
  frontRoute(edge: RequestEdge): FrontRouteHandler;
}

/** Marks a provider (implementing FrontRouteProvider) to be mounted ahead of the request edge. */
export const FrontRoute = DiscoveryService.createDecorator<void>();

/** The front routes of an application, in module order. */
export function frontRoutesOf(app: INestApplication): FrontRouteProvider[] {
  return app
    .get(DiscoveryService)
    .getProviders({ metadataKey: FrontRoute.KEY })
    .map((wrapper) => wrapper.instance as FrontRouteProvider);
}

/** An error a front route handed on (`next(error)`), relayed into Express by `relayFrontRouteErrors`. */
export const RELAYED_ERROR = Symbol('frontRoute.error');

export type Relaying = Request & { [RELAYED_ERROR]?: unknown };

/**
 * The first middleware of the application (createApp): a request a front route handed on with an
 * error goes straight to the application's exception filter, as an error of a middleware at that
 * place would; every other request goes on.
 */
export function relayFrontRouteErrors(req: Request, _res: Response, next: NextFunction): void {
  const relaying = req as Relaying;
  if (!(RELAYED_ERROR in relaying)) return next();
  const error = relaying[RELAYED_ERROR];
  delete relaying[RELAYED_ERROR];
  next(error);
}
