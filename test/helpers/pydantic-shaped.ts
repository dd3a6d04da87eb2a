import type { DiskTree } from './disk.js';

/**
 * A project shaped like pydantic/pydantic-ai: a root AGENTS.md with `CLAUDE.md -> AGENTS.md`, the
 * same twin in 10 directories, and 5 directories with an AGENTS.md only. Each text is unique, so
 * counting it counts copies.
 */
export const TWINS = [
  'tests',
  'docs',
  'examples',
  'clai',
  'pydantic_ai_slim',
  'pydantic_evals',
  'pydantic_graph',
  'mcp-run-python',
  'fasta2a',
  'durable',
] as const;
export const ALONE = [
  'tests/models',
  'docs/api',
  'pydantic_ai_slim/pydantic_ai',
  'pydantic_evals/reports',
  'examples/chat',
] as const;

/** The unique line of each file: the root's, a twin directory's, an AGENTS.md-only directory's. */
export const ROOT_TEXT = 'ROOT-TEXT';
export const twinText = (dir: string) => `TWIN-TEXT-${dir}:`;
export const aloneText = (dir: string) => `ALONE-TEXT-${dir}:`;

/** A file to read in each of the 15 directories. */
export const FILE_IN = (dir: string) =>
  (TWINS as readonly string[]).includes(dir) ? `${dir}/src/x.py` : `${dir}/x.py`;

export function pydanticShaped(): DiskTree {
  const tree: DiskTree = {
    '.git/HEAD': 'ref: refs/heads/main\n',
    'AGENTS.md': `# Root\n${ROOT_TEXT}: use uv for everything.\n`,
    'CLAUDE.md': { symlink: 'AGENTS.md' },
  };
  for (const dir of TWINS) {
    tree[`${dir}/AGENTS.md`] = `# ${dir}\n${twinText(dir)} ${'guidance '.repeat(40)}\n`;
    tree[`${dir}/CLAUDE.md`] = { symlink: 'AGENTS.md' };
    tree[`${dir}/src/x.py`] = 'x = 1\n';
  }
  for (const dir of ALONE) {
    tree[`${dir}/AGENTS.md`] = `# ${dir}\n${aloneText(dir)} ${'advice '.repeat(40)}\n`;
    tree[`${dir}/x.py`] = 'x = 1\n';
  }
  return tree;
}
