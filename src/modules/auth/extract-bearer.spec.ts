import fc from 'fast-check';
import type { Request } from 'express';
import { ExtractJwt } from 'passport-jwt';
import { extractBearer } from './jwt.strategy.js';

const passportBearer = ExtractJwt.fromAuthHeaderAsBearerToken();
const withHeader = (authorization: string | undefined) =>
  ({ headers: authorization === undefined ? {} : { authorization } }) as Request;

describe('extractBearer', () => {
  it('reads the usual form, "Bearer <compact JWS>"', () => {
    expect(extractBearer(withHeader('Bearer eyJh.eyJz.c2ln-_'))).toBe('eyJh.eyJz.c2ln-_');
  });

  it.each([
    ['bearer abc'],
    ['BEARER abc'],
    ['Bearer  abc'],
    ['Bearer\tabc'],
    [' Bearer abc'],
    ['Bearer abc def'],
    ['Bearer abc '],
    ['Bearer a+b/c='],
    ['Basic dXNlcjpwYXNz'],
    ['Bearer'],
    ['Bearer '],
    [''],
  ])('answers as passport-jwt for %j', (header) => {
    expect(extractBearer(withHeader(header))).toBe(passportBearer(withHeader(header)));
  });

  it('answers as passport-jwt for any header', () => {
    const piece = fc.constantFrom('Bearer', 'bearer', ' ', '\t', '.', '-', '_', '=', 'abc', 'é', '');
    const header = fc.oneof(
      fc.string(),
      fc.array(piece).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(fc.option(header, { nil: undefined }), (value) => {
        expect(extractBearer(withHeader(value))).toBe(passportBearer(withHeader(value)));
      }),
      { numRuns: 2000 },
    );
  });
});
