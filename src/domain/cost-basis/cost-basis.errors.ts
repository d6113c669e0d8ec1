/** Codes of the errors this module throws; the API layer maps them to HTTP in one place. */
export enum CostBasisErrorCode {
  InvalidLedgerEntry = 'cost_basis.invalid_ledger_entry',
}

/**
 * A ledger entry the engine cannot interpret (bad decimal, non-positive amount, invalid
 * date, ...). Thrown before any entry is applied: the engine never returns a partial result.
 * Data problems the engine can represent (unknown basis, insufficient holdings) are issues
 * in the result instead, never errors.
 */
export class InvalidLedgerEntryError extends Error {
  readonly code = CostBasisErrorCode.InvalidLedgerEntry;

  constructor(
    readonly accountId: string,
    readonly transactionId: string,
    readonly field: string,
    readonly reason: string,
  ) {
    super(`Ledger entry ${accountId}/${transactionId}: ${field} ${reason}`);
    this.name = 'InvalidLedgerEntryError';
  }
}
