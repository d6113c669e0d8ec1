/** The tax module's public face: the report service and the mappers that make the live bodies. */
export { TaxModule } from './tax.module.js';
export {
  FIRST_TAX_YEAR,
  TaxReportService,
  type TaxReportQuery,
  type GainsReport,
  type Form8949Report,
} from './tax-report.service.js';
export { toGainsReportDto, toForm8949Dto } from './tax-report.mapper.js';
export { GainsReportDto, Form8949Dto } from './dto/tax-responses.dto.js';
export { TaxYearFormat } from './dto/tax-queries.dto.js';
export { ApiHeavyWorkResponses } from './heavy-work-responses.js';
