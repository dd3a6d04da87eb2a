import { describe, expect, test } from 'vitest';
import { FIVE_REPOSITORIES } from '../bench/five-repositories.mjs';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// With no config, in trees shaped like the five repositories of issue 27, `ctxfiles resolve` prints
// the always rules and the instruction files, never a glob rule, a rule on request or frontmatter.
// bench/package.mjs runs the same check with the packed, installed CLI.
describe('resolve with the defaults', () => {
  test.each(FIVE_REPOSITORIES)('$name', async ({ tree, printed, notPrinted }) => {
    const result = await cli(['resolve'], { cwd: tempTree(tree) });
    expect(result.code).toBe(0);
    for (const text of printed) expect(result.stdout).toContain(text);
    for (const text of notPrinted) expect(result.stdout).not.toContain(text);
  });
});
