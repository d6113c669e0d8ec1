/**
 * The one place that decides the cost-basis method of the service's figures. The balances are
 * computed with DEFAULT_COST_BASIS_METHOD, and the tax report uses it when none is asked for: so
 * "summed over all years, the report equals the balances' realizedGainLoss" holds by construction
 * and cannot drift when one of them changes.
 */
import type { CostBasisMethod } from './cost-basis.types.js';

/** Every lot-selection method, in the order the API documents them. */
export const COST_BASIS_METHODS: readonly CostBasisMethod[] = ['fifo', 'hifo', 'lifo'];

/** The method of the balances, of holdings as of a date, and of reports that name none. */
export const DEFAULT_COST_BASIS_METHOD: CostBasisMethod = 'fifo';
