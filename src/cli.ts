/**
 * npm run cli -- tenant create acme --name "Acme Advisors"
 * npm run cli -- client create --tenant acme --scopes partner
 * npm run cli -- client rotate <clientId> | client disable <clientId> | client enable <clientId>
 * npm run cli -- --help | --version
 *
 * Exit status: 0 success (help and version included); 1 the command failed or was used wrongly
 * (the reason on stderr); 75 DATA_DIR is held by another process; 78 invalid configuration.
 *
 * The arguments are parsed before anything else loads (src/cli/program.ts, commander alone): help,
 * version and usage errors answer at once, without the configuration, Nest or the database. A
 * command that parses loads what it needs then (src/cli/run-command.ts).
 */
import './runtime-check.js'; // first: a too-old Node stops here, before anything else loads
import './compile-cache.js'; // then: the modules loaded later (the application's) compile from the cache
import { buildProgram } from './cli/program.js';
import { describeError, exitCodeOf } from './cli/errors.js';
import { API_VERSION } from './version.js';

const program = buildProgram({
  version: API_VERSION, // the API's spelling (2026.04.1), as /api/status says it
  run: async (name, args, options) => {
    const { runCommand } = await import('./cli/run-command.js');
    await runCommand(name, args, options, describeError);
  },
});

// Commander answers --help, --version and usage errors itself (status 0 for help and version, 1
// for usage errors) and exits before any command runs. A failed command (or an argument its check
// refused): one message, and the status; run-command.ts has closed the application by then
// (database closed, DATA_DIR lock released).
program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(describeError(error));
  process.exitCode = exitCodeOf(error);
});
