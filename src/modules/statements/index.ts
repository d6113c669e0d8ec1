/** The statements module's public face (docs/modules.md). */
export { StatementsModule } from './statements.module.js';
export { ClientStatementService, type ClientStatementQuery } from './client-statement.service.js';
