import { createRequire } from 'node:module';

// node:os loads only when HOME does not give the answer: loading it costs a cold CLI run about as
// much as reading a dozen files (docs/performance.md, "Start-up").
const require = createRequire(import.meta.url);

/**
 * The user's home directory, as `os.homedir()` gives it. On POSIX that is `$HOME` when it is set and
 * not empty (libuv's `uv_os_homedir` reads it before the password database), so node:os is loaded
 * only on Windows or without `HOME`. One difference: in a worker thread `process.env` is the
 * worker's own copy, which this reads, where `os.homedir()` reads the process's environment.
 */
export function homeDirectory(): string {
  const home = process.env['HOME'];
  if (process.platform !== 'win32' && home !== undefined && home !== '') return home;
  return (require('node:os') as typeof import('node:os')).homedir();
}
