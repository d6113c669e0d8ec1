/**
 * `npm run openapi:export`: writes the OpenAPI document of the built service (dist/) to
 * clients/openapi.json without a running server. The application is created as main.ts creates
 * it, on an in-memory embedded database with logs and schedulers off, and the document is built
 * by the same function that serves /docs-json; nothing listens on a port.
 */
import 'reflect-metadata';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OUTPUTS, renderDocument } from './openapi-artifacts.mjs';

const ROOT = resolve(import.meta.dirname, '..');

/** The document as /docs-json serves it, from dist/ (run `npm run build` first). */
export async function exportDocument() {
  const load = (file) => import(pathToFileURL(resolve(ROOT, 'dist/src', file)).href);
  const [{ createApp }, { loadConfig }, { buildOpenApiDocument }] = await Promise.all([
    load('app.factory.js'),
    load('config/app-config.js'),
    load('swagger.js'),
  ]).catch((error) => {
    throw new Error(
      `cannot load the built service from dist/ (run \`npm run build\` first): ${error.message}`,
    );
  });
  const config = loadConfig({
    NODE_ENV: 'development',
    DATA_DIR: 'memory',
    LOG_LEVEL: 'silent',
    SCHEDULER_ENABLED: 'false',
    REDIS_URL: '',
  });
  const app = await createApp(config, { logs: false });
  try {
    await app.init();
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

export async function writeOutput(relative, text) {
  const file = resolve(ROOT, relative);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeOutput(OUTPUTS.document, renderDocument(await exportDocument()));
  console.log(`wrote ${OUTPUTS.document}`);
}
