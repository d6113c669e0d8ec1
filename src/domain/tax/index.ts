/**
 * Tax reporting's numbers (design §7, docs/tax-report.md): Form 8949 lines, boxes and totals, the
 * form's readiness, the gains report's sums and the CSV of the lines. Never decides lots, basis
 * or holding periods (src/domain/cost-basis does), reads the ledger or knows about HTTP.
 */
export * from './form-8949-lines.js';
export { csvField, FORM_8949_CSV_COLUMNS, toForm8949Csv } from './form-8949-csv.js';
export { toForm8949LineJson, type Form8949LineJson } from './form-8949-json.js';
export {
  formAmount,
  FORM_8949_LINES_PER_PAGE,
  renderForm8949Pdf,
  type Form8949PdfInput,
} from './form-8949-pdf.js';
export * from './readiness.js';
export * from './tax-year-report.js';
export * from './open-lots.js';
export * from './form-1099-da.js';
export { outcomeDigest, pageOf } from './form-1099-da-page.js';
