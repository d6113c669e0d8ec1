/**
 * Imported by both entry points (src/main.ts, src/cli.ts) right after the runtime check: Node keeps
 * the compiled code of the modules loaded from here on in its on-disk compile cache
 * (NODE_COMPILE_CACHE, or node-compile-cache under the system's temporary directory), so the next
 * start of the service or of a CLI command compiles its ~2,500 modules again only when they changed
 * (~10-20% of the module loading measured on this 2-core host). Where the directory cannot be
 * written the cache is simply off: enableCompileCache reports it and never throws.
 */
import module from 'node:module';

// Node 22.1 and later (runtime-check.ts asks for 24); not in the @types/node this project uses yet.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
