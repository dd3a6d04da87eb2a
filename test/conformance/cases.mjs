// The lab's fixture table: small repositories, one row each, shared by every host. In paths and
// texts, `{DOC}` is the host's own instruction file name (AGENTS.md, CLAUDE.md, GEMINI.md) and
// `{USER}` the host's user file relative to HOME; each host's driver fills them in. Nothing here
// says what a host should load: the lab runs the host and ctxfiles on the same tree and compares.
//
// Row keys: `id`; `about` (one line for docs/conformance.md); `repo` and `home` (path → text; a
// value `{ link: target }` makes a symlink, `{ dir: true }` a directory); `git` (directories of the
// repo to `git init`, default the root); `cwd` (inside the repo, default the root); `hosts` (only
// these hosts); `hostConfig` (per host, settings its driver writes and options of the run: see
// hosts/*.mjs); `read` (a
// live case: the scripted first turn reads this file, relative to the repo, and the lab compares
// what the host adds to the tool result with `ctxfiles session`); `hook` (the ctxfiles hook is
// registered in the host); `reads` (a hook case whose script reads these files, one per turn, all
// in the places of the first: what the host added after the first read is compared with the hook's
// answer to it, and nothing may be added after the others, as each file and rule arrives once);
// `hookStart` (a hook case without a read: what the hook added at session
// start, compared with the hook's own answer to SessionStart); `write` (a hook case whose script
// adds this file with the host's patch tool instead of reading); `compact` and `resume` (below);
// `count` (count-rows.mjs: the host as `ctxfiles init` sets it up, each text's copies counted).

import { COUNT_ROWS } from './count-rows.mjs';

const big = (unit, bytes) => unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit))).slice(0, bytes);

// ---- The lab's blind spots (issue #39): one case per difference docs/presets.md described
// without a row, each now reproduced or listed in known-differences.json with its reason. ----
const BLIND_SPOTS = [
  {
    id: 'codex-home-without-agents',
    about: 'CODEX_HOME names a directory without AGENTS.md; ~/.codex/AGENTS.md exists',
    hosts: ['codex'],
    hostConfig: { codex: { codexHome: 'codex-home' } },
    home: { '.codex/AGENTS.md': 'Not read: CODEX_HOME is set.\n' },
    repo: { 'AGENTS.md': 'Project rules.\n' },
  },
  {
    id: 'codex-cd-link-into-repo',
    about: 'codex -C names a link outside the repository that points into one of its sub-folders',
    hosts: ['codex'],
    hostConfig: { codex: { cdFlag: true } },
    outside: { link: { link: '../repo/pkg' } },
    repo: { 'AGENTS.md': 'Root rules.\n', 'pkg/AGENTS.md': 'Package rules.\n' },
    cwd: '../outside/link',
  },
  {
    id: 'claude-rule-paths-read',
    about: 'a .claude/rules rule with paths: arrives when a matching file is read',
    hosts: ['claude-code'],
    repo: {
      'CLAUDE.md': 'Root claude.\n',
      '.claude/rules/ts.md': '---\npaths: ["src/**"]\n---\nTypeScript uses strict mode.\n',
      'src/index.ts': 'export {};\n',
    },
    read: 'src/index.ts',
  },
  {
    id: 'gemini-path-order',
    about: 'files in folders whose names sort before and after the file name (Api/, Api/lib/)',
    hosts: ['gemini-cli'],
    repo: { '{DOC}': 'Root.\n', 'Api/{DOC}': 'Api.\n', 'Api/lib/{DOC}': 'Api lib.\n' },
    cwd: 'Api/lib',
  },
  {
    id: 'gemini-user-blank-runs',
    about: 'runs of blank lines in the user file and in a project file',
    hosts: ['gemini-cli'],
    home: { '{USER}': 'User one.\n\n\n\nUser two.\n \n\n\nUser three.\n' },
    repo: { '{DOC}': 'Project one.\n\n\n\nProject two.\n' },
  },
  {
    id: 'import-trailing-dot',
    about: 'an @import followed by a full stop (see @notes.md.)',
    hosts: ['gemini-cli', 'qwen-code'],
    repo: { '{DOC}': 'Main.\nSee @notes.md.\n', 'notes.md': 'Notes.\n' },
  },
  {
    id: 'over-one-mib',
    about: 'a project file of 1,100,000 bytes, past the 1 MiB ctxfiles reads of one file',
    hosts: ['gemini-cli'],
    repo: { '{DOC}': `${big('0123456789abcdef', 1_100_000 - 6)}\nEnd.\n` },
  },
  {
    id: 'codex-user-frame-tags',
    about: "the user file holds Codex's own <INSTRUCTIONS> frame tags",
    hosts: ['codex'],
    home: { '{USER}': 'User rules.\n</INSTRUCTIONS>\nNot a user instruction any more.\n<INSTRUCTIONS>\n' },
    repo: { '{DOC}': 'Project rules.\n' },
  },
];
// ---- end of the blind spots ----
/** Hosts without the events of the layer rows in their pinned versions (docs/subagents.md). */
const LAYER_SKIPS = {
  'gemini-cli':
    'Gemini CLI 0.61 has no subagent event and its hook inputs carry no agent or mode (createBaseInput in its bundle): the MCP route, instructions_for_path with agent and step',
  opencode: 'no command hooks: the MCP route',
  kilo: 'no command hooks: the MCP route',
  continue: 'hooks never fire in 1.5.47 (docs/hooks.md): the MCP route',
  copilot: 'no command hooks ctxfiles uses: the MCP route',
  pi: 'no command hooks (its extensions are TypeScript modules loaded into the process): the MCP route',
  cline:
    'Cline CLI 3.0.65 runs TaskStart and UserPromptSubmit hooks detached and ignores their output, and its hook inputs carry agent_id and parent_agent_id but no agent type or mode (@cline/core 0.0.86 dist/index.js): no layer can arrive before a subagent or a mode starts; the MCP route, instructions_for_path with agent and step',
};

const CODEX_PLAN_SKIP =
  'codex exec 0.171 has no flag that starts a session in plan mode (a TUI collaboration mode); its hook inputs carry permission_mode, which the hook maps (test/hook-subagents.test.ts)';

/** The config of the layer rows: a global layer, two agents, a scout mapped to the explorer, plan mode mapped to a step. */
const LAYER_CONFIG = {
  contextPaths: ['RULES.md'],
  agents: {
    reviewer: { context: { paths: ['REVIEW.md'], mode: 'replace' } },
    explorer: { context: { paths: ['EXPLORE.md'], mode: 'append' } },
  },
  subagents: { scout: 'explorer' },
};

/**
 * The config of the mode rows: plan mode selects the plan step, the default mode the build step
 * (leaving plan mode returns to it). Flow globs are relative to the config file, which the lab
 * writes beside the repository.
 */
const MODE_CONFIG = {
  contextPaths: ['RULES.md'],
  modes: { plan: { flow: 'work', step: 'plan' }, default: { flow: 'work', step: 'build' } },
  flows: ['repo/.ctxfiles/flows/*.yaml'],
};

const AGENT_FILE = (name) =>
  `---\nname: ${name}\ndescription: The ${name} agent of the lab.\n---\nYou are the ${name}. Reply with one word.\n`;

const LAYER_REPO = {
  'RULES.md': 'Root rules from the parent.\n',
  'REVIEW.md': 'Review rules from the reviewer layer.\n',
  'EXPLORE.md': 'Explore rules from the explorer layer.\n',
  'PLAN.md': 'Plan rules from the plan step.\n',
  'BUILD.md': 'Build rules from the build step.\n',
  '.ctxfiles/flows/work.yaml':
    'steps:\n  - id: plan\n    context: { paths: [PLAN.md], mode: append }\n  - id: build\n    context: { paths: [BUILD.md], mode: append }\n',
  // The hosts' own custom agents: Claude Code's and Qwen Code's agent files.
  '.claude/agents/reviewer.md': AGENT_FILE('reviewer'),
  '.claude/agents/scout.md': AGENT_FILE('scout'),
  // Qwen Code 0.24.4 gives a fresh subagent the SubagentStart answer only through the `hook_context`
  // variable of its prompt template (docs/subagents.md), so its agent files name it.
  '.qwen/agents/reviewer.md': `${AGENT_FILE('reviewer')}\n\${hook_context}\n`,
  '.qwen/agents/scout.md': `${AGENT_FILE('scout')}\n\${hook_context}\n`,
  'src/index.js': 'export {};\n',
};

/** @type {readonly object[]} */
export const CASES = [
  { id: 'root-file', about: 'one file at the repository root', repo: { '{DOC}': 'Use tabs.\n' } },
  { id: 'no-files', about: 'no instruction file anywhere', repo: { 'README.md': 'Nothing here.\n' } },
  {
    id: 'root-and-cwd',
    about: 'a file at the root and one in the cwd, a subdirectory',
    repo: { '{DOC}': 'Root rules.\n', 'pkg/{DOC}': 'Package rules.\n' },
    cwd: 'pkg',
  },
  {
    id: 'three-levels',
    about: 'files at three levels down to the cwd',
    repo: { '{DOC}': 'Level zero.\n', 'a/{DOC}': 'Level one.\n', 'a/b/{DOC}': 'Level two.\n' },
    cwd: 'a/b',
  },
  {
    id: 'cwd-without-file',
    about: 'the cwd two levels down holds no file; its ancestors do',
    repo: { '{DOC}': 'Root rules.\n', 'a/{DOC}': 'A rules.\n', 'a/b/code.txt': 'x\n' },
    cwd: 'a/b',
  },
  {
    id: 'below-cwd',
    about: 'a file below the cwd is not part of the start-up context',
    repo: { '{DOC}': 'Root rules.\n', 'sub/{DOC}': 'Sub rules.\n' },
  },
  {
    id: 'user-only',
    about: 'only the user file in HOME',
    home: { '{USER}': 'User rules.\n' },
    repo: { 'x.txt': 'x\n' },
  },
  {
    id: 'user-and-project',
    about: 'the user file and a project file',
    home: { '{USER}': 'User rules.\n' },
    repo: { '{DOC}': 'Project rules.\n' },
  },
  {
    id: 'user-blank',
    about: 'a whitespace-only user file and a project file',
    home: { '{USER}': '  \n\n' },
    repo: { '{DOC}': 'Project rules.\n' },
  },
  { id: 'empty-file', about: 'an empty project file', repo: { '{DOC}': '' } },
  { id: 'whitespace-file', about: 'a whitespace-only project file', repo: { '{DOC}': '\n  \n\t\n' } },
  {
    id: 'empty-root-and-sub',
    about: 'an empty root file and a non-empty file in the cwd',
    repo: { '{DOC}': '', 'sub/{DOC}': 'Sub rules.\n' },
    cwd: 'sub',
  },
  { id: 'bom', about: 'a UTF-8 byte order mark', repo: { '{DOC}': '\ufeffStarts with a BOM.\n' } },
  { id: 'crlf', about: 'CRLF line ends', repo: { '{DOC}': 'Line one.\r\nLine two.\r\n' } },
  { id: 'no-final-newline', about: 'no newline at the end', repo: { '{DOC}': 'No newline at the end.' } },
  {
    id: 'blank-lines-around',
    about: 'blank lines before and after the text',
    repo: { '{DOC}': '\n\nMiddle.\n\n\n' },
  },
  {
    id: 'html-comment',
    about: 'an HTML comment in the text',
    repo: { '{DOC}': 'Before.\n<!-- a note for humans -->\nAfter.\n' },
  },
  {
    id: 'frame-like-text',
    about: 'text that reads like the frames the hosts use',
    repo: {
      '{DOC}':
        'A.\n</INSTRUCTIONS>\n--- Context from: /x ---\nContents of /x (project instructions, checked into the codebase):\nInstructions from: /x\n</system-reminder>\nB.\n',
    },
  },
  { id: 'large-ascii', about: 'one 40,000-byte file of ASCII', repo: { '{DOC}': big('abcdefghij', 40_000) } },
  {
    id: 'large-multibyte-cut',
    about: 'one 40,001-byte file whose byte 32,768 falls inside a two-byte character',
    repo: { '{DOC}': `a${big('é', 40_000)}` },
  },
  {
    id: 'large-three-byte-cut',
    about: 'one 36,001-byte file of three-byte characters',
    repo: { '{DOC}': `a${big('€', 36_000)}` },
  },
  {
    id: 'cap-across-files',
    about: 'two 20,000-byte files: together past 32 KiB',
    repo: { '{DOC}': big('r', 20_000), 'sub/{DOC}': big('s', 20_000) },
    cwd: 'sub',
  },
  {
    id: 'cap-blank-cut',
    about: 'the root file is blank up to the 32 KiB cut; the cwd file follows',
    repo: { '{DOC}': `${' '.repeat(33_000)}Tail.\n`, 'sub/{DOC}': 'Sub rules.\n' },
    cwd: 'sub',
  },
  {
    id: 'no-git',
    about: 'no repository marker: a file above the cwd and one in it',
    git: [],
    repo: { '{DOC}': 'Above.\n', 'sub/{DOC}': 'Here.\n' },
    cwd: 'sub',
  },
  {
    id: 'nested-git',
    about: 'a repository inside a repository; the cwd in the inner one',
    git: ['', 'inner'],
    repo: { '{DOC}': 'Outer.\n', 'inner/{DOC}': 'Inner.\n', 'inner/src/{DOC}': 'Src.\n' },
    cwd: 'inner/src',
  },
  {
    id: 'symlink-file',
    about: 'the file is a symlink to a file outside the repository',
    outside: { 'shared.md': 'Shared through a link.\n' },
    repo: { '{DOC}': { link: '../outside/shared.md' } },
  },
  {
    id: 'dangling-symlink',
    about: 'the file is a dangling symlink; the cwd holds a real one',
    repo: { '{DOC}': { link: 'missing.md' }, 'sub/{DOC}': 'Sub rules.\n' },
    cwd: 'sub',
  },
  {
    id: 'file-is-directory',
    about: 'a directory with the file name at the root',
    repo: { '{DOC}/x.txt': 'x\n', 'sub/{DOC}': 'Sub rules.\n' },
    cwd: 'sub',
  },
  {
    id: 'symlinked-cwd',
    about: 'the cwd is reached through a symlinked directory',
    repo: { '{DOC}': 'Root rules.\n', 'real/{DOC}': 'Real rules.\n', alias: { link: 'real' } },
    cwd: 'alias',
  },
  {
    id: 'symlinked-cwd-flag',
    about: 'the cwd is named through a symlinked directory with -C',
    hosts: ['codex'],
    hostConfig: { codex: { cdFlag: true } },
    repo: { '{DOC}': 'Root rules.\n', 'real/{DOC}': 'Real rules.\n', alias: { link: 'real' } },
    cwd: 'alias',
  },
  {
    id: 'unicode-path',
    about: 'non-ASCII and space in the directory names',
    repo: { '{DOC}': 'Root.\n', 'dïr ü/{DOC}': 'Ünïcode.\n' },
    cwd: 'dïr ü',
  },
  {
    id: 'import-relative',
    about: 'an @import of a file beside it',
    repo: { '{DOC}': 'Main.\n@docs/extra.md\nEnd.\n', 'docs/extra.md': 'Extra text.\n' },
  },
  {
    id: 'import-chain',
    about: 'an @import that imports again',
    repo: { '{DOC}': 'Main.\n@a.md\n', 'a.md': 'A.\n@b.md\n', 'b.md': 'B.\n' },
  },
  {
    id: 'import-missing',
    about: 'an @import of a file that does not exist',
    repo: { '{DOC}': 'Main.\n@missing.md\n' },
  },
  {
    id: 'import-cycle',
    about: 'two files that import each other',
    repo: { '{DOC}': 'Main.\n@a.md\n', 'a.md': 'A.\n@b.md\n', 'b.md': 'B.\n@a.md\n' },
  },
  {
    id: 'import-outside',
    about: 'an @import of a file above the repository',
    outside: { 'up.md': 'From above.\n' },
    repo: { '{DOC}': 'Main.\n@../outside/up.md\n' },
  },
  {
    id: 'import-home',
    about: 'an @import of a file in HOME',
    home: { 'notes.md': 'Home notes.\n' },
    repo: { '{DOC}': 'Main.\n@~/notes.md\n' },
  },
  {
    id: 'import-in-code',
    about: 'an @path inside a code span and a fenced block',
    repo: { '{DOC}': 'Main `@a.md` here.\n```\n@a.md\n```\nmail me@example.com\n', 'a.md': 'A.\n' },
  },
  {
    id: 'all-names',
    about: 'AGENTS.md, CLAUDE.md, GEMINI.md and CONTEXT.md side by side',
    repo: {
      'AGENTS.md': 'From AGENTS.\n',
      'CLAUDE.md': 'From CLAUDE.\n',
      'GEMINI.md': 'From GEMINI.\n',
      'CONTEXT.md': 'From CONTEXT.\n',
    },
  },
  {
    id: 'agents-only',
    about: 'only AGENTS.md, at the root and in the cwd',
    repo: { 'AGENTS.md': 'Root agents.\n', 'sub/AGENTS.md': 'Sub agents.\n' },
    cwd: 'sub',
  },
  {
    id: 'claude-md-only',
    about: 'only CLAUDE.md, at the root and in the cwd',
    repo: { 'CLAUDE.md': 'Root claude.\n', 'sub/CLAUDE.md': 'Sub claude.\n' },
    cwd: 'sub',
  },
  {
    id: 'override-file',
    about: 'AGENTS.override.md beside AGENTS.md',
    hosts: ['codex'],
    home: { '.codex/AGENTS.override.md': 'User override.\n' },
    repo: { 'AGENTS.md': 'Plain.\n', 'AGENTS.override.md': 'Override.\n' },
  },
  {
    id: 'codex-fallback-names',
    about: 'config.toml project_doc_fallback_filenames names TEAM.md',
    hosts: ['codex'],
    hostConfig: { codex: { toml: 'project_doc_fallback_filenames = ["TEAM.md"]' } },
    repo: { 'TEAM.md': 'Team rules.\n', 'sub/AGENTS.md': 'Sub agents.\n' },
    cwd: 'sub',
  },
  {
    id: 'codex-max-bytes',
    about: 'config.toml project_doc_max_bytes = 10',
    hosts: ['codex'],
    hostConfig: { codex: { toml: 'project_doc_max_bytes = 10' } },
    repo: { 'AGENTS.md': 'Twenty bytes of text\n' },
  },
  {
    id: 'claude-local-and-dot-claude',
    about: 'CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md in one directory',
    hosts: ['claude-code'],
    repo: { 'CLAUDE.md': 'Main.\n', '.claude/CLAUDE.md': 'Dot claude.\n', 'CLAUDE.local.md': 'Local.\n' },
  },
  {
    id: 'claude-rules',
    about: 'project .claude/rules with and without paths:, and ~/.claude/rules',
    hosts: ['claude-code'],
    home: { '.claude/rules/user-rule.md': 'User rule.\n' },
    repo: {
      'CLAUDE.md': 'Main.\n',
      '.claude/rules/always.md': 'Always on.\n',
      '.claude/rules/scoped.md': '---\npaths: ["src/**"]\n---\nScoped rule.\n',
    },
  },
  {
    id: 'qwen-rules',
    about:
      'project .qwen/rules with and without paths: (one in a sub-folder, one with an HTML comment), and ~/.qwen/rules',
    hosts: ['qwen-code'],
    home: { '.qwen/rules/user-rule.md': 'User rule.\n' },
    repo: {
      'QWEN.md': 'Main.\n',
      '.qwen/rules/always.md': '---\ndescription: Always\n---\nAlways on.\n<!-- a note for people -->\n',
      '.qwen/rules/b/nested.md': 'Nested folder rule.\n',
      '.qwen/rules/scoped.md': '---\npaths: ["src/**"]\n---\nScoped rule.\n',
      '.qwen/rules/empty.md': '<!-- only a comment -->\n',
    },
  },
  {
    id: 'qwen-rule-paths-read',
    about: 'a .qwen/rules rule with paths: arrives in a <system-reminder> when a matching file is read',
    hosts: ['qwen-code'],
    repo: {
      'QWEN.md': 'Main.\n',
      '.qwen/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n---\nTypeScript uses strict mode.\n',
      '.qwen/rules/md.md': '---\npaths: "docs/**"\n---\nDocs rule.\n',
      'src/index.ts': 'export {};\n',
    },
    read: 'src/index.ts',
  },
  {
    id: 'copilot-nested-read',
    about:
      'AGENTS.md at the root, in pkg/ and in pkg/sub/; the model views pkg/sub/a.js: what Copilot CLI adds for the folders on its path',
    hosts: ['copilot'],
    repo: {
      'AGENTS.md': 'Root rules.\n',
      'pkg/AGENTS.md': 'Package rules.\n',
      'pkg/sub/AGENTS.md': 'Sub-folder rules.\n',
      'pkg/sub/a.js': 'export const a = 1;\n',
    },
    read: 'pkg/sub/a.js',
  },
  {
    id: 'copilot-nested-edit',
    about: 'AGENTS.md in pkg/ and pkg/sub/; the model edits pkg/sub/a.js without viewing it first',
    hosts: ['copilot'],
    hostConfig: { copilot: { tool: 'edit' } },
    repo: {
      'AGENTS.md': 'Root rules.\n',
      'pkg/AGENTS.md': 'Package rules.\n',
      'pkg/sub/AGENTS.md': 'Sub-folder rules.\n',
      'pkg/sub/a.js': 'export const a = 1;\n',
    },
    read: 'pkg/sub/a.js',
  },
  {
    id: 'gemini-file-names',
    about: 'settings.json context.fileName = ["AGENTS.md", "GEMINI.md"]',
    hosts: ['gemini-cli'],
    hostConfig: { 'gemini-cli': { settings: { context: { fileName: ['AGENTS.md', 'GEMINI.md'] } } } },
    home: { '.gemini/AGENTS.md': 'User agents.\n' },
    repo: { 'AGENTS.md': 'Root agents.\n', 'GEMINI.md': 'Root gemini.\n', 'sub/AGENTS.md': 'Sub agents.\n' },
    cwd: 'sub',
  },
  {
    id: 'gemini-whole-form',
    about:
      'the gemini-full format: the user file under # Contextual Instructions, the project files in <project_context>',
    hosts: ['gemini-cli'],
    hostConfig: { 'gemini-cli': { format: 'gemini-full' } },
    home: { '{USER}': 'User rules.\n' },
    repo: { '{DOC}': 'Root rules.\n', 'sub/{DOC}': 'Sub rules.\n' },
    cwd: 'sub',
  },
  {
    id: 'opencode-instructions',
    about: 'opencode.json instructions: ["docs/*.md"]',
    hosts: ['opencode'],
    hostConfig: { opencode: { config: { instructions: ['docs/*.md'] } } },
    repo: { 'AGENTS.md': 'Root agents.\n', 'docs/a.md': 'Doc A.\n', 'docs/b.md': 'Doc B.\n' },
  },
  {
    id: 'cline-rules-folder',
    about: "the cwd's .clinerules folder beside its AGENTS.md and the user's ~/.agents/AGENTS.md",
    hosts: ['cline'],
    home: { '.agents/AGENTS.md': 'User agents.\n' },
    repo: {
      'AGENTS.md': 'Workspace agents.\n',
      '.clinerules/style.md': 'Use tabs.\n',
      '.clinerules/api.md': '\nValidate input.\n\n',
    },
  },
  {
    id: 'pi-agent-dir-without-agents',
    about: 'PI_CODING_AGENT_DIR names a directory without AGENTS.md; ~/.pi/agent/AGENTS.md exists',
    hosts: ['pi'],
    hostConfig: { pi: { agentDir: 'pi-agent' } },
    home: { '.pi/agent/AGENTS.md': 'Not read: PI_CODING_AGENT_DIR is set.\n' },
    repo: { 'AGENTS.md': 'Project rules.\n' },
  },
  {
    id: 'pi-frame-tags',
    about: "text holding pi's own </project_instructions> and </project_context> tags",
    hosts: ['pi'],
    repo: { 'AGENTS.md': 'A.\n</project_instructions>\n</project_context>\nB.\n' },
  },
  {
    id: 'kilo-instructions',
    about: 'kilo.json instructions: ["docs/*.md"] in the user config dir and ["team/*.md"] in the project',
    hosts: ['kilo'],
    hostConfig: { kilo: { config: { instructions: ['docs/*.md'] } } },
    repo: {
      'AGENTS.md': 'Root agents.\n',
      'kilo.json': '{ "instructions": ["team/*.md"] }\n',
      'docs/a.md': 'Doc A.\n',
      'team/t.md': 'Team.\n',
    },
  },
  {
    id: 'kilo-rule-folders',
    about:
      "Kilo Code's rule folders (.kilo/rules, .kilocode/rules, .kilocoderules, a mode folder) before kilo.json instructions",
    hosts: ['kilo'],
    hostConfig: { kilo: { config: { instructions: ['docs/*.md'] } } },
    repo: {
      'AGENTS.md': 'Root agents.\n',
      '.kilocode/rules/style.md': 'Kilocode rule.\n',
      '.kilocode/rules/notes.txt': 'Not a rule.\n',
      '.kilocode/rules/deep/inner.md': 'Not read: below the folder.\n',
      '.kilo/rules/a.md': 'Kilo rule.\n',
      '.kilocoderules': 'Legacy single file.\n',
      '.kilocode/rules-code/c.md': 'Code mode rule.\n',
      'docs/a.md': 'Doc A.\n',
    },
  },
  {
    id: 'kilo-env-reference',
    about: 'a project file that holds {env:HOME} and one that holds {file:notes.md}',
    hosts: ['kilo'],
    repo: {
      'AGENTS.md': 'Root agents, home is {env:HOME}.\n',
      'pkg/AGENTS.md': 'Package agents; notes: {file:notes.md}.\n',
      'pkg/notes.md': 'Noted.\n',
    },
    cwd: 'pkg',
  },
  // Live cases: the first turn reads a file; what the host adds to the tool result is compared.
  {
    id: 'live-nested-read',
    about: 'reading a file in a subdirectory discloses its instruction file',
    repo: { '{DOC}': 'Root rules.\n', 'pkg/{DOC}': 'Package rules.\n', 'pkg/index.js': 'export {};\n' },
    read: 'pkg/index.js',
  },
  {
    id: 'live-nested-two-levels',
    about: 'reading a file two levels down discloses both levels',
    repo: { '{DOC}': 'Root.\n', 'a/{DOC}': 'Level A.\n', 'a/b/{DOC}': 'Level B.\n', 'a/b/c.txt': 'c\n' },
    read: 'a/b/c.txt',
  },
  {
    id: 'live-read-no-nested',
    about: 'reading a file whose directories hold no instruction file',
    repo: { '{DOC}': 'Root.\n', 'src/main.txt': 'main\n' },
    read: 'src/main.txt',
  },
  // Hook cases: the ctxfiles hook (docs/hooks.md) is registered in the host with a config that
  // watches RULES.md, a name no host reads itself; the lab compares what reached the model after
  // the read with the hook's own answer to the same event.
  {
    id: 'live-hook-nested',
    about: 'the ctxfiles hook, registered in the host, discloses a nested RULES.md after a read',
    hook: true,
    repo: {
      '{DOC}': 'Root.\n',
      'pkg/RULES.md': 'Package rules from the hook.\n',
      'pkg/index.js': 'export {};\n',
    },
    read: 'pkg/index.js',
  },
  {
    id: 'live-hook-markup',
    about: 'the hook discloses a nested RULES.md holding tags and ampersands',
    hook: true,
    repo: {
      'pkg/RULES.md': 'Use <b>bold</b> & keep </system-reminder> out.\n',
      'pkg/index.js': 'export {};\n',
    },
    read: 'pkg/index.js',
  },
  {
    id: 'live-hook-rule',
    about:
      'the hook discloses a nested RULES.md and a Cursor rule whose glob matches the file read, in one frame',
    hook: true,
    hosts: ['gemini-cli', 'qwen-code'],
    repo: {
      '{DOC}': 'Root.\n',
      '.cursor/rules/pkg.mdc': '---\nglobs: pkg/**\n---\nPackage code uses tabs.\n',
      'pkg/RULES.md': 'Package rules from the hook.\n',
      'pkg/index.js': 'export {};\n',
    },
    read: 'pkg/index.js',
  },
  {
    id: 'live-hook-start',
    about:
      'the hook at session start: RULES.md and an always-on Cursor rule, which the host does not load itself',
    hook: true,
    hookStart: true,
    hosts: ['gemini-cli', 'qwen-code'],
    repo: {
      '{DOC}': 'Root.\n',
      'RULES.md': 'Root rules from the hook.\n',
      '.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nAlways use tabs.\n',
      'pkg/RULES.md': 'Package rules.\n',
    },
  },
  // MCP cases: `ctxfiles mcp` (docs/mcp.md) is registered in the host; the first turn calls its
  // instructions_for_path tool, and the lab compares the tool result that reached the model with
  // the server's own answer to the same call.
  // Codex with the hook as `ctxfiles init codex` writes it and a config that names the codex
  // preset and Cursor's rules: after `cat` through its shell the nested AGENTS.md and the rule
  // whose globs match arrive once; at session start, the Cursor always rule Codex never loads.
  {
    id: 'live-hook-codex-read',
    about: 'the Codex hook after cat through the shell: the nested AGENTS.md and a matching Cursor rule',
    hosts: ['codex'],
    hook: true,
    hookConfig: { preset: 'codex', rules: { sources: ['cursor'] } },
    repo: {
      'AGENTS.md': 'Root agents.\n',
      'packages/app/AGENTS.md': 'App agents.\n',
      '.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nAlways use tabs.\n',
      '.cursor/rules/app.mdc': '---\nglobs: packages/app/**\n---\nApp rule: no default exports.\n',
      'packages/app/src/index.ts': 'export const x = 1;\n',
    },
    read: 'packages/app/src/index.ts',
  },
  {
    id: 'live-hook-codex-start',
    about: 'the Codex hook at session start: a Cursor always rule Codex does not load itself',
    hosts: ['codex'],
    hook: true,
    hookStart: true,
    hookConfig: { preset: 'codex', rules: { sources: ['cursor'] } },
    repo: {
      'AGENTS.md': 'Root agents.\n',
      '.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nAlways use tabs.\n',
      'src/index.ts': 'export {};\n',
    },
    read: 'src/index.ts',
  },
  {
    id: 'live-hook-once',
    about:
      'two reads in one nested directory, one per turn: the nested RULES.md and the matching Cursor rule arrive after the first only',
    hosts: ['claude-code', 'gemini-cli', 'qwen-code', 'cline'],
    hook: true,
    hookConfig: { contextPaths: ['RULES.md'], rules: { sources: ['cursor'] } },
    repo: {
      '{DOC}': 'Root.\n',
      '.cursor/rules/pkg.mdc': '---\nglobs: pkg/**\n---\nPackage code uses tabs.\n',
      'pkg/RULES.md': 'Package rules from the hook.\n',
      'pkg/a.js': 'export const a = 1;\n',
      'pkg/b.js': 'export const b = 2;\n',
    },
    reads: ['pkg/a.js', 'pkg/b.js'],
  },
  // Claude Code with the hook as `ctxfiles init claude-code` writes it and a config that names the
  // claude-code preset and Cursor's rules: at session start, the Cursor always rule Claude Code
  // never loads itself.
  {
    id: 'live-hook-claude-start',
    about: 'the Claude Code hook at session start: a Cursor always rule Claude Code does not load itself',
    hosts: ['claude-code'],
    hook: true,
    hookStart: true,
    hookConfig: { preset: 'claude-code', rules: { sources: ['cursor'] } },
    repo: {
      'CLAUDE.md': 'Root claude.\n',
      '.cursor/rules/always.mdc':
        '---\nalwaysApply: true\n---\nAlways use tabs; keep <b> & </system-reminder> out.\n',
      'src/index.ts': 'export {};\n',
    },
  },
  {
    id: 'live-mcp-path',
    about: 'the ctxfiles MCP server, registered in the host, answers instructions_for_path',
    mcp: { path: 'pkg/index.js' },
    repo: {
      'AGENTS.md': 'Root agents.\n',
      'pkg/AGENTS.md': 'Package agents.\n',
      'pkg/index.js': 'export {};\n',
    },
  },
  // Claude Code with tool search on lists MCP tools by name only: the script searches with the words
  // a user's request would hold, then calls the tool the search found.
  {
    id: 'live-mcp-tool-search',
    about:
      'tool search on: a search for instructions that apply to a file finds the ctxfiles tool, whose call answers',
    hosts: ['claude-code'],
    mcp: { path: 'pkg/index.js', search: 'instructions that apply to a file' },
    repo: {
      'CLAUDE.md': 'Root claude.\n',
      'pkg/RULES.md': 'Package rules.\n',
      'pkg/CLAUDE.md': 'Package claude.\n',
      'pkg/index.js': 'export {};\n',
    },
  },
  // Codex with the hook as `ctxfiles init codex` writes it: the model adds a file with apply_patch,
  // Codex's freeform tool, offered for the models of its catalog (hence `model`), so a patch
  // under packages/app brings that directory's AGENTS.md and the Cursor rule whose glob matches.
  {
    id: 'live-hook-codex-patch',
    about:
      'the Codex hook after apply_patch adds a file in a nested directory: its AGENTS.md and the matching Cursor rule',
    hosts: ['codex'],
    hook: true,
    hookConfig: { preset: 'codex', rules: { sources: ['cursor'] } },
    hostConfig: { codex: { model: 'gpt-5.5' } },
    repo: {
      'AGENTS.md': 'Root agents.\n',
      'packages/app/AGENTS.md': 'App agents.\n',
      '.cursor/rules/app.mdc': '---\nglobs: packages/app/**\n---\nApp rule: no default exports.\n',
      'packages/app/src/index.ts': 'export const x = 1;\n',
    },
    write: 'packages/app/src/new.ts',
  },
  // Compaction and resume, with the hook as `ctxfiles init` writes it (docs/hooks.md, "/clear and
  // compaction"). `compact: { after: K }`: the model's answer that asks for read K reports a full
  // context window, so the host compacts before its next turn, and the lab's model answers its
  // request for a summary with a text of its own; before the compaction the first read brings
  // the nested file and rule, after it they arrive once again (with the start's text), each from
  // a fresh session of the hook. `resume: { reads }`: a second run resumes the first one's
  // session and reads these; a place already shown adds nothing, a new one is disclosed.
  {
    id: 'live-hook-compact',
    about:
      'the host compacts the conversation between reads: the always rule, the nested RULES.md and the matching Cursor rule arrive once again',
    hosts: ['claude-code', 'codex', 'qwen-code'],
    hook: true,
    hookConfig: { contextPaths: ['RULES.md'], rules: { sources: ['cursor'] } },
    compact: { after: 2 },
    repo: {
      '{DOC}': 'Root.\n',
      '.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nAlways use tabs.\n',
      '.cursor/rules/pkg.mdc': '---\nglobs: pkg/**\n---\nPackage code has no default exports.\n',
      'pkg/RULES.md': 'Package rules from the hook.\n',
      'pkg/a.js': 'export const a = 1;\n',
      'pkg/b.js': 'export const b = 2;\n',
      'pkg/c.js': 'export const c = 3;\n',
      'pkg/d.js': 'export const d = 4;\n',
    },
    reads: ['pkg/a.js', 'pkg/b.js', 'pkg/c.js', 'pkg/d.js'],
  },
  {
    id: 'live-hook-resume',
    about:
      'a second run resumes the session: a read where the first run worked adds nothing, a new place brings its RULES.md and rule',
    hosts: ['claude-code', 'codex', 'gemini-cli', 'qwen-code'],
    hook: true,
    hookConfig: { contextPaths: ['RULES.md'], rules: { sources: ['cursor'] } },
    repo: {
      '{DOC}': 'Root.\n',
      '.cursor/rules/pkg.mdc': '---\nglobs: pkg/**\n---\nPackage code has no default exports.\n',
      '.cursor/rules/lib.mdc': '---\nglobs: lib/**\n---\nLibrary code is pure.\n',
      'pkg/RULES.md': 'Package rules from the hook.\n',
      'lib/RULES.md': 'Library rules from the hook.\n',
      'pkg/a.js': 'export const a = 1;\n',
      'pkg/b.js': 'export const b = 2;\n',
      'lib/c.js': 'export const c = 3;\n',
    },
    reads: ['pkg/a.js'],
    resume: { reads: ['pkg/b.js', 'lib/c.js'] },
  },
  // Gemini CLI compresses only at a later prompt (a one-shot run's history has nothing to split
  // at), so here the second run, resuming the first, reports the full window (`compact.run: 1`).
  {
    id: 'live-hook-compact-resumed',
    about:
      'a resumed session is compressed: the nested RULES.md and the matching Cursor rule, read before, arrive once again after',
    hosts: ['gemini-cli'],
    hook: true,
    hookConfig: { contextPaths: ['RULES.md'], rules: { sources: ['cursor'] } },
    compact: { after: 1, run: 1 },
    repo: {
      '{DOC}': 'Root.\n',
      '.cursor/rules/pkg.mdc': '---\nglobs: pkg/**\n---\nPackage code has no default exports.\n',
      'pkg/RULES.md': 'Package rules from the hook.\n',
      'pkg/a.js': 'export const a = 1;\n',
      'pkg/b.js': 'export const b = 2;\n',
      'pkg/c.js': 'export const c = 3;\n',
      'pkg/d.js': 'export const d = 4;\n',
    },
    reads: ['pkg/a.js'],
    resume: { reads: ['pkg/b.js', 'pkg/c.js', 'pkg/d.js'] },
  },
  ...BLIND_SPOTS,
  ...COUNT_ROWS,
  // Subagents and modes (docs/subagents.md, test/conformance/layer-rows.mjs): the model starts a
  // subagent through the host's own tool, or the host starts in a mode; the hook config maps them
  // to ctxfiles agents and a flow step. Hosts whose pinned version has no such event are listed in
  // `skips` with the reason, read in their shipped code.
  {
    id: 'live-subagent-replace',
    about:
      "a custom reviewer subagent: its first request carries the reviewer agent's layer (replace: the parent's RULES.md stays out)",
    hosts: ['claude-code', 'codex', 'qwen-code'],
    skips: LAYER_SKIPS,
    hook: true,
    subagent: {
      type: 'reviewer',
      contains: ['Review rules from the reviewer layer.'],
      lacks: ['Root rules from the parent.', 'Explore rules from the explorer layer.'],
    },
    hookConfig: LAYER_CONFIG,
    repo: LAYER_REPO,
  },
  {
    id: 'live-subagent-mapped',
    about:
      "a custom scout subagent mapped to the explorer agent by `subagents`: its layer appends to the parent's (EXPLORE.md and RULES.md, not REVIEW.md)",
    hosts: ['claude-code', 'codex', 'qwen-code'],
    skips: LAYER_SKIPS,
    hook: true,
    subagent: {
      type: 'scout',
      contains: ['Explore rules from the explorer layer.', 'Root rules from the parent.'],
      lacks: ['Review rules from the reviewer layer.'],
    },
    hookConfig: LAYER_CONFIG,
    repo: LAYER_REPO,
  },
  {
    id: 'live-mode-plan',
    about: "the host starts in plan mode: the first request carries the plan step's PLAN.md",
    hosts: ['claude-code', 'qwen-code'],
    skips: { ...LAYER_SKIPS, codex: CODEX_PLAN_SKIP },
    hook: true,
    mode: {
      name: 'plan',
      contains: ['Plan rules from the plan step.'],
      lacks: ['Build rules from the build step.'],
    },
    hookConfig: MODE_CONFIG,
    repo: LAYER_REPO,
  },
  {
    id: 'live-mode-default',
    about:
      "the same config in the default mode, which selects the build step: its BUILD.md, and the plan step's PLAN.md stays out",
    hosts: ['claude-code', 'qwen-code'],
    skips: { ...LAYER_SKIPS, codex: CODEX_PLAN_SKIP },
    hook: true,
    mode: {
      name: 'default',
      contains: ['Build rules from the build step.'],
      lacks: ['Plan rules from the plan step.'],
    },
    hookConfig: MODE_CONFIG,
    repo: LAYER_REPO,
  },
];

/** Fills `{DOC}` and `{USER}` in a row's paths and texts for one host. */
export function caseFor(row, names) {
  const fill = (text) => text.replaceAll('{DOC}', names.doc).replaceAll('{USER}', names.user);
  const tree = (entries = {}) =>
    Object.fromEntries(
      Object.entries(entries).map(([file, value]) => [
        fill(file),
        typeof value === 'string' ? fill(value) : value.link ? { link: fill(value.link) } : value,
      ]),
    );
  return {
    ...row,
    repo: tree(row.repo),
    home: tree(row.home),
    outside: tree(row.outside),
    read: row.read && fill(row.read),
    write: row.write && fill(row.write),
    reads: row.reads && row.reads.map(fill),
    resume: row.resume && { ...row.resume, reads: row.resume.reads.map(fill) },
  };
}
