/**
 * The one place that decides the cost-basis method of the service's figures. The balances are
 * computed with DEFAULT_COST_BASIS_METHOD, and the tax report uses it when none is asked for: so
 * "summed over all years, the report equals the balances' realizedGainLoss" holds by construction
 * and cannot drift when one of them changes.
 */
import type { CostBasisMethod } from './cost-basis.types.js';

/** Every lot-selection method, in the order the API documents them. */
export const COST_BASIS_METHODS: readonly CostBasisMethod[] = ['fifo', 'hifo', 'lifo', 'lofo', 'ltfo'];

/** The 400 message of a `method` field or parameter. */
export const COST_BASIS_METHODS_MESSAGE = `method must be one of: ${COST_BASIS_METHODS.join(', ')}.`;

/** The advisor's standing orders and the method each is (docs/cost-basis.md, "Standing orders"). */
export const STANDING_ORDERS: Readonly<Record<string, CostBasisMethod>> = {
  longest_held: 'fifo',
  shortest_held: 'lifo',
  highest_basis: 'hifo',
  lowest_basis: 'lofo',
  long_term_first_highest_basis: 'ltfo',
};

/** The method of the balances, of holdings as of a date, and of reports that name none. */
export const DEFAULT_COST_BASIS_METHOD: CostBasisMethod = 'fifo';
