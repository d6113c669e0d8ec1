/**
 * DATABASE_SCHEMA names a schema that may not exist yet (a new deployment, a new tenant of a shared
 * server): it is created, and said so in one line, before the migrations fill it. Without this the
 * migrations failed with "no schema has been selected to create in", which the start-up retried
 * ten times as if the server were down. The name is a checked SQL identifier (AppConfig).
 */
export async function ensureSchema(
  runner: { query(sql: string, parameters?: unknown[]): Promise<unknown> },
  schema: string | undefined,
  logger: { log(message: string): void },
): Promise<void> {
  if (!schema) return;
  const found = (await runner.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])) as unknown[];
  if (found.length > 0) return;
  await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  logger.log(`Created schema ${schema} (DATABASE_SCHEMA), which did not exist`);
}
