/**
 * `npm run sdk:generate`: regenerates everything derived from the OpenAPI document of the built
 * service (clients/openapi.json, the TypeScript SDK's types, the Postman collection) in one
 * deterministic pass. `npm run sdk:check` (`--check`) writes nothing and fails, naming the files,
 * when any committed artifact differs from what the current code generates.
 *
 * The document comes from the built app (dist/), booted in memory without listening. With
 * `--from <base address>` it is read from a running service's /docs-json instead (CI's SDK step
 * has the built service running anyway; the document is the same function's output).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { exportDocument, writeOutput } from './export-openapi.mjs';
import {
  OUTPUTS,
  renderDocument,
  renderOperations,
  renderPostman,
  renderSdkPackage,
  renderTypes,
  renderVersion,
} from './openapi-artifacts.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const check = process.argv.includes('--check');
const read = (file) => readFile(resolve(ROOT, file), 'utf8').catch(() => undefined);
const from = process.argv.indexOf('--from');
const document = from > 0 ? await served(process.argv[from + 1]) : await exportDocument();

async function served(base) {
  const response = await fetch(new URL('/docs-json', base));
  if (!response.ok) throw new Error(`GET ${base}/docs-json answered ${response.status}`);
  return response.json();
}
const artifacts = {
  [OUTPUTS.document]: renderDocument(document),
  [OUTPUTS.types]: await renderTypes(document),
  [OUTPUTS.version]: renderVersion(document),
  [OUTPUTS.operations]: renderOperations(document),
  [OUTPUTS.postman]: await renderPostman(document),
  [OUTPUTS.sdkPackage]: renderSdkPackage(document, await read(OUTPUTS.sdkPackage)),
};

const stale = [];
for (const [file, text] of Object.entries(artifacts)) {
  if ((await read(file)) === text) continue;
  stale.push(file);
  if (!check) await writeOutput(file, text);
}

if (check) {
  if (stale.length > 0) {
    console.error(
      `The generated clients are stale (${stale.join(', ')}): run \`npm run sdk:generate\` and commit the result.`,
    );
    process.exit(1);
  }
  console.log(`SDK and Postman collection match the OpenAPI document (API ${document.info.version}).`);
} else {
  console.log(stale.length > 0 ? `wrote ${stale.join(', ')}` : 'all generated files were up to date');
}
