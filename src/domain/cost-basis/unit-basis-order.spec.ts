/**
 * HIFO and LOFO's order of lots by basis per unit (lot-book.ts compareUnitBasis): the estimate it
 * takes first never changes an answer; it equals the exact comparison of a.basis × b.qty with
 * b.basis × a.qty on any pair, equal unit prices written at different scales, near-ties in the
 * 30th decimal place and zeros included, and HIFO/LOFO sort any lots as the exact order does.
 */
import fc from 'fast-check';
import { ScaledDecimal } from '../money/scaled-decimal.js';
import {
  compareLotsForMethod,
  compareUnitBasis,
  LotBook,
  splitLotPiece,
  type Lot,
  type LotPiece,
} from './lot-book.js';
import { compareByteOrder } from './processing-order.js';

const exactUnitOrder = (a: LotPiece, b: LotPiece): number =>
  a.costBasisUsd.times(b.quantity).compare(b.costBasisUsd.times(a.quantity));

const scaled = fc
  .record({ units: fc.bigInt({ min: 0n, max: 10n ** 40n }), scale: fc.integer({ min: 0, max: 34 }) })
  .map(({ units, scale }) => new ScaledDecimal(units, scale));
const positive = scaled.filter((value) => value.isPositive());

let sequence = 0;
const lotOf = (quantity: ScaledDecimal, costBasisUsd: ScaledDecimal, basisKnown = true): Lot => ({
  quantity,
  costBasisUsd,
  acquiredAt: new Date(Date.UTC(2024, 0, 1)),
  basisKnown,
  originTransactionId: `t${sequence}`,
  accountId: 'a',
  symbol: 'BTC',
  sequence: sequence++,
});

/** A lot and another at the same unit basis (scaled by k at another scale), or one unit off in the last place. */
const pair = fc
  .record({
    quantity: positive,
    basis: scaled,
    factor: fc.bigInt({ min: 1n, max: 10n ** 6n }),
    extraScale: fc.integer({ min: 0, max: 12 }),
    nudge: fc.constantFrom(-1n, 0n, 1n),
  })
  .map(({ quantity, basis, factor, extraScale, nudge }) => {
    const ten = 10n ** BigInt(extraScale);
    const otherQuantity = new ScaledDecimal(quantity.units * factor * ten, quantity.scale + extraScale);
    let otherBasisUnits = basis.units * factor * ten + nudge;
    if (otherBasisUnits < 0n) otherBasisUnits = 0n;
    return [
      lotOf(quantity, basis),
      lotOf(otherQuantity, new ScaledDecimal(otherBasisUnits, basis.scale + extraScale)),
    ] as const;
  });
const anyLot = fc.tuple(positive, scaled).map(([quantity, basis]) => lotOf(quantity, basis));

describe('lots by basis per unit (HIFO, LOFO)', () => {
  it('compares as the exact products do: random pairs, equal unit prices at other scales, near-ties', () => {
    fc.assert(
      fc.property(fc.oneof(pair, fc.tuple(anyLot, anyLot)), ([a, b]) => {
        expect(compareUnitBasis(a, b)).toBe(exactUnitOrder(a, b));
        expect(compareUnitBasis(b, a)).toBe(exactUnitOrder(b, a));
      }),
      { numRuns: 5_000 },
    );
  });

  it('sorts lots for HIFO and LOFO as the exact order does', () => {
    const byAge = (a: Lot, b: Lot) =>
      a.acquiredAt.getTime() - b.acquiredAt.getTime() ||
      compareByteOrder(a.originTransactionId, b.originTransactionId) ||
      a.sequence - b.sequence;
    const exactHifo = (a: Lot, b: Lot) =>
      Number(b.basisKnown) - Number(a.basisKnown) || exactUnitOrder(b, a) || byAge(a, b);
    const exactLofo = (a: Lot, b: Lot) =>
      Number(b.basisKnown) - Number(a.basisKnown) || exactUnitOrder(a, b) || byAge(a, b);
    const lots = fc
      .array(
        fc.oneof(
          anyLot,
          pair.map(([a]) => a),
          pair.map(([, b]) => b),
        ),
        { maxLength: 40 },
      )
      .map((drawn) => drawn.map((lot, i) => (i % 5 === 4 ? { ...lot, basisKnown: false } : lot)));
    fc.assert(
      fc.property(lots, (drawn) => {
        expect([...drawn].sort(compareLotsForMethod('hifo'))).toEqual([...drawn].sort(exactHifo));
        expect([...drawn].sort(compareLotsForMethod('lofo'))).toEqual([...drawn].sort(exactLofo));
      }),
      { numRuns: 500 },
    );
  });

  /** The lots as a HIFO book keeps them: each carries the unit estimate the book made when it opened it. */
  const booked = (pieces: readonly Lot[]): Lot[] => {
    const book = new LotBook('hifo');
    for (const piece of pieces) book.open('a', 'BTC', piece);
    return book.openLots();
  };

  it("compares a book's lots, which carry their estimates, as the exact products do", () => {
    fc.assert(
      fc.property(fc.oneof(pair, fc.tuple(anyLot, anyLot)), (drawn) => {
        const [a, b] = booked(drawn);
        expect(a!.unitEstimate).toEqual(expect.any(Number));
        expect(compareUnitBasis(a!, b!)).toBe(exactUnitOrder(a!, b!));
        expect(compareUnitBasis(b!, a!)).toBe(exactUnitOrder(b!, a!));
      }),
      { numRuns: 2_000 },
    );
  });

  it("gives a split lot's rest the estimate of its own basis per unit, not the whole's", () => {
    // 1 unit at $10 split 1/3 off: the rest's basis is rounded in the last allocated place, and a
    // rest of 1e-30 units carries a basis per unit far from $10.
    const quantities = fc.tuple(positive, positive).filter(([whole, part]) => part.compare(whole) < 0);
    fc.assert(
      fc.property(quantities, scaled, anyLot, ([whole, part], basis, other) => {
        const [lot] = booked([lotOf(whole, basis)]);
        const { rest } = splitLotPiece(lot!, part);
        expect(rest.unitEstimate).not.toBeUndefined();
        const [fresh] = booked([lotOf(rest.quantity, rest.costBasisUsd)]);
        expect(Object.is(rest.unitEstimate, fresh!.unitEstimate)).toBe(true);
        expect(compareUnitBasis(rest, other)).toBe(exactUnitOrder(rest, other));
        expect(compareUnitBasis(other, rest)).toBe(exactUnitOrder(other, rest));
      }),
      { numRuns: 2_000 },
    );
  });
});
