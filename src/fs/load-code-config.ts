import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Loads a config written in code (`ctxfiles.config.{js,mjs,cjs,ts}`) and returns its default
 * export (`module.exports` for CommonJS). Each call imports the file afresh, so an edited config is
 * seen by the next load. A `.ts` config is imported directly where Node strips types (22.18 and
 * later); elsewhere it is compiled with the `typescript` package the project has, into a temporary
 * `.mjs` beside it (so its relative imports resolve) that is removed at once.
 * @throws Error with a message the caller wraps with the file's name.
 */
export async function loadCodeConfig(file: string): Promise<unknown> {
  if (path.extname(file) !== '.ts') return defaultOf(await freshImport(file));
  try {
    return defaultOf(await freshImport(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
  }
  return defaultOf(await importCompiled(file));
}

async function freshImport(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file);
  // A new URL per load: the module loader caches by URL, and a config may change between loads.
  url.searchParams.set('ctxfiles', `${process.pid}-${Date.now()}-${(counter += 1)}`);
  return (await importUrl()(url.href)) as Record<string, unknown>;
}

let counter = 0;

/** Set in the CLI bundles (scripts/bundle-cli.mjs). */
declare const CTXFILES_VERSION: string | undefined;

/**
 * `import()` of a URL. The CLI bundle runs as a script compiled with `vm.Script`, which has no loader
 * for `import()`: there it goes through `dist/bin/import-url.cjs`, a real CommonJS module whose
 * `import()` Node serves (scripts/bundle-cli.mjs writes it).
 */
function importUrl(): (url: string) => Promise<unknown> {
  if (typeof CTXFILES_VERSION !== 'string') return (url) => import(url);
  return createRequire(import.meta.url)('./import-url.cjs') as (url: string) => Promise<unknown>;
}

async function importCompiled(file: string): Promise<Record<string, unknown>> {
  let typescript: typeof import('typescript');
  try {
    typescript = createRequire(file)('typescript') as typeof import('typescript');
  } catch {
    throw new Error(
      'a .ts config needs Node 22.18 or later (which loads TypeScript itself), or the typescript package installed in the project',
    );
  }
  const { readFileSync } = await import('node:fs');
  const { outputText } = typescript.transpileModule(readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: {
      module: typescript.ModuleKind.ESNext,
      target: typescript.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
  });
  const compiled = path.join(
    path.dirname(file),
    `.${path.basename(file, '.ts')}.${process.pid}-${Date.now()}.mjs`,
  );
  if (existsSync(compiled)) throw new Error(`${compiled} exists; remove it`);
  writeFileSync(compiled, outputText, { flag: 'wx' });
  try {
    return await freshImport(compiled);
  } finally {
    rmSync(compiled, { force: true });
  }
}

function defaultOf(module: Record<string, unknown>): unknown {
  return 'default' in module ? module['default'] : module;
}
