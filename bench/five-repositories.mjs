// Trees shaped like five public repositories a new user tried ctxfiles in (issue 27), reduced to
// their instruction files: which are always rules, which apply only to matching paths, and which
// other files a default `ctxfiles resolve` reads. Used by test/five-repositories.test.ts and by
// bench/package.mjs, which runs the packed, installed CLI in each.
// Every rule text is unique, so a test can tell from the output which ones were printed.

/** @type {ReadonlyArray<{ name: string, tree: Record<string, string>, printed: string[], notPrinted: string[] }>} */
export const FIVE_REPOSITORIES = [
  {
    // modelcontextprotocol/typescript-sdk: CLAUDE.md at the root, no rule folders.
    name: 'typescript-sdk',
    tree: {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'CLAUDE.md': '# MCP TypeScript SDK\n\nBuild with npm run build. SDK-CLAUDE-ROOT\n',
      'src/server/index.ts': 'export {};\n',
    },
    printed: ['SDK-CLAUDE-ROOT'],
    notPrinted: [],
  },
  {
    // cline/cline: a .clinerules/ folder of Markdown rules, some scoped by `paths`.
    name: 'cline',
    tree: {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.clinerules/general.md': '# General\nCLINE-ALWAYS-GENERAL\n',
      '.clinerules/protobuf.md': '---\npaths:\n  - "proto/**"\n---\nCLINE-GLOB-PROTO\n',
      '.clinerules/workflows/release.md': '# Release\nCLINE-ALWAYS-WORKFLOW\n',
      'proto/cline/task.proto': 'syntax = "proto3";\n',
    },
    printed: ['CLINE-ALWAYS-GENERAL', 'CLINE-ALWAYS-WORKFLOW'],
    notPrinted: ['CLINE-GLOB-PROTO'],
  },
  {
    // google-gemini/gemini-cli: GEMINI.md files, which no default reads; one always Cursor rule
    // stands in for the rule folders such a repository may hold.
    name: 'gemini-cli',
    tree: {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'GEMINI.md': 'GEMINI-ROOT\n',
      'packages/cli/GEMINI.md': 'GEMINI-CLI\n',
      'packages/core/GEMINI.md': 'GEMINI-CORE\n',
      '.cursor/rules/style.mdc': '---\nalwaysApply: true\n---\nGEMINI-REPO-ALWAYS-STYLE\n',
      '.cursor/rules/tests.mdc': '---\nglobs: "**/*.test.ts"\n---\nGEMINI-REPO-GLOB-TESTS\n',
    },
    printed: ['GEMINI-REPO-ALWAYS-STYLE'],
    notPrinted: ['GEMINI-REPO-GLOB-TESTS', 'GEMINI-ROOT'],
  },
  {
    // vercel/ai: AGENTS.md and CLAUDE.md at the root, Cursor rules by kind.
    name: 'vercel-ai',
    tree: {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'AGENTS.md': '# AI SDK\nAI-AGENTS-ROOT\n',
      'CLAUDE.md': '@AGENTS.md\nAI-CLAUDE-ROOT\n',
      '.cursor/rules/project.mdc':
        '---\ndescription: The project\nalwaysApply: true\n---\nAI-ALWAYS-PROJECT\n',
      '.cursor/rules/providers.mdc':
        '---\ndescription: Provider packages\nglobs: packages/*-provider/**\nalwaysApply: false\n---\nAI-GLOB-PROVIDERS\n',
      '.cursor/rules/changesets.mdc':
        '---\ndescription: How to write a changeset\n---\nAI-REQUESTED-CHANGESETS\n',
    },
    printed: ['AI-AGENTS-ROOT', 'AI-CLAUDE-ROOT', 'AI-ALWAYS-PROJECT'],
    notPrinted: ['AI-GLOB-PROVIDERS', 'AI-REQUESTED-CHANGESETS', 'alwaysApply'],
  },
  {
    // PatrickJS/awesome-cursorrules: a root .cursorrules and Cursor rules, mostly glob-scoped.
    name: 'awesome-cursorrules',
    tree: {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.cursorrules': 'AWESOME-CURSORRULES-ROOT\n',
      '.cursor/rules/readme.mdc': '---\nalwaysApply: true\n---\nAWESOME-ALWAYS-README\n',
      '.cursor/rules/react.mdc': '---\nglobs: *.tsx, *.jsx\n---\nAWESOME-GLOB-REACT\n',
      '.cursor/rules/python.mdc': '---\nglobs: ["**/*.py"]\n---\nAWESOME-GLOB-PYTHON\n',
      'rules/nextjs/.cursorrules': 'AWESOME-NESTED-NEXT\n',
    },
    printed: ['AWESOME-CURSORRULES-ROOT', 'AWESOME-ALWAYS-README'],
    notPrinted: ['AWESOME-GLOB-REACT', 'AWESOME-GLOB-PYTHON', 'AWESOME-NESTED-NEXT'],
  },
];

/** Writes a tree below `root` (a directory that exists). */
export async function writeTree(root, tree) {
  const fs = await import('node:fs');
  const path = await import('node:path');
  for (const [file, text] of Object.entries(tree)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
}
