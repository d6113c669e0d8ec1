/**
 * `npm run build`'s postbuild step: makes the embedded database template for this build's
 * migrations (pglite-template.ts, pglite-template-maker.ts) unless it exists already, and removes
 * templates of other migrations. About 4 s when the migrations changed; a hash of a few files
 * otherwise. Prints one line, on stderr (`npm run cli` builds first, and its stdout is the CLI's
 * output). Never fails the build: without a template the service starts as before.
 */
import { ensurePGliteTemplate } from './pglite-template-maker.js';

ensurePGliteTemplate()
  .then(({ name, made }) =>
    console.error(
      made
        ? `Embedded database template made in ${made.ms} ms: ${made.migrations} migrations (${name}).`
        : `Embedded database template up to date (${name}).`,
    ),
  )
  .catch((error: unknown) => {
    // A build without a template still works (the database is created at first start, as before).
    console.warn(
      `Embedded database template not made: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
