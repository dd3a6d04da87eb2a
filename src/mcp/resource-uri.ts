import path from 'node:path';
import { isInside } from '../fs/contain.js';

/** The URI scheme of instruction files served as MCP resources (documented in docs/mcp.md). */
export const RESOURCE_SCHEME = 'ctxfiles';

/**
 * The resource URI of an instruction file:
 * - `ctxfiles://workdir/<path>` for a file inside the work dir, `<path>` relative to it;
 * - `ctxfiles://file/<path>` for a file outside it (chain files above the work dir, the user
 *   file, extra files), `<path>` absolute without its leading `/` (on Windows `C:/…`).
 *
 * Each segment is percent-encoded, so a name with `#`, `?`, `%` or spaces stays one segment.
 * A URI only names a file: the server reads nothing that is not in its current resource list.
 */
export function resourceUri(file: string, workDir: string): string {
  const inside = isInside(workDir, file) && file !== workDir;
  const shown = inside ? path.relative(workDir, file) : file;
  const segments = shown
    .split(path.sep)
    .filter((segment) => segment !== '')
    .map(encodeURIComponent);
  return `${RESOURCE_SCHEME}://${inside ? 'workdir' : 'file'}/${segments.join('/')}`;
}
