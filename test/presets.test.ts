import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { DEFAULT_CONFIG, KNOWN_TOP_LEVEL_KEYS } from '../src/config/defaults.js';
import { DEFAULT_PROFILE } from '../src/config/types.js';
import { loadConfig, parseConfig } from '../src/index.js';
import fastValidate from '../src/config/validate-config.generated.js';
import { mergeLayers } from '../src/config/trust.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

const PRESETS = HOST_REGISTRY.presets;
const PRESET_NAMES = HOST_REGISTRY.presetNames;
const getPreset = (name: string) => HOST_REGISTRY.preset(name)?.config;
const PRESET_SUMMARIES = Object.fromEntries(PRESETS.map((preset) => [preset.name, preset.summary]));
import { cli, spawnBin } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// Goldens: for each preset, a repository shaped like one that tool works in, and the exact bytes
// the tool puts in front of the model (docs/presets.md cites where each rule comes from), from the
// repository root and from a directory three levels down.

const accepts = (value: Readonly<Record<string, unknown>>) =>
  Object.keys(value).every((key) => KNOWN_TOP_LEVEL_KEYS.includes(key)) && fastValidate(value);

/** What `resolve` prints for `preset` with the work dir `cwd`, temp paths replaced. */
async function view(
  root: string,
  cwd: string,
  preset: string,
  options: { home?: string; env?: Record<string, string>; paths?: string[] } = {},
): Promise<string> {
  const workDir = path.join(root, cwd);
  const config = await loadConfig({ cwd: workDir, preset, stopDir: root });
  const home = options.home ?? tempTree();
  const resolver = await createResolver({ workDir, config, homeDir: home, env: options.env ?? {} });
  const { text } = await resolver.resolve(options.paths === undefined ? {} : { paths: options.paths });
  return text.replaceAll(home, '<home>').replaceAll(root, '<root>');
}

/** ctxfiles' `reminder` frame (docs/formats.md), used where a tool's own framing is not public. */
const reminder = (files: ReadonlyArray<readonly [string, string]>) =>
  `<system-reminder>\n${[
    DEFAULT_CONFIG.wording.reminderIntro,
    ...files.map(([file, text]) => `Instructions from: ${file}\n\n${text.replace(/\n$/, '')}`),
  ].join('\n\n')}\n</system-reminder>`;

describe('the preset table', () => {
  test('names, order and one summary line each', () => {
    expect(PRESET_NAMES).toEqual([
      'opencode',
      'opencode-go',
      'codex',
      'claude-code',
      'claude-code-2.1.197',
      'cursor',
      'copilot',
      'gemini-cli',
      'continue',
      'qwen-code',
      'kilo',
      'pi',
      'cline',
    ]);
    for (const name of PRESET_NAMES) {
      expect(PRESET_SUMMARIES[name]).toMatch(/^[^\n]{20,160}$/);
      expect(getPreset(name)).toBe(PRESETS.find((preset) => preset.name === name)?.config);
    }
    expect(getPreset('Codex')).toBeUndefined();
    expect(getPreset('toString')).toBeUndefined();
  });

  test.each(PRESET_NAMES)('%s is deeply frozen', (name) => {
    const frozen = (value: unknown): boolean =>
      typeof value !== 'object' ||
      value === null ||
      (Object.isFrozen(value) && Object.values(value).every(frozen));
    expect(frozen(getPreset(name))).toBe(true);
  });

  // Only keys of the config reference, every value accepted by the schema: a preset applies whole.
  test.each(PRESET_NAMES)('%s validates against the config schema', async (name) => {
    const preset = getPreset(name)!;
    expect(accepts(preset)).toBe(true);
    const { diagnostics } = await parseConfig({ ...preset }, `preset ${name}`);
    expect(diagnostics).toEqual([]);
  });

  // A preset may silence a sentence of ours where the tool shows none, never write the tool's own.
  test('a preset sets a wording only to silence it: long sentences stay ours', () => {
    for (const name of PRESET_NAMES) {
      const wording = (getPreset(name)?.['wording'] ?? {}) as Record<string, string>;
      for (const [key, value] of Object.entries(wording)) {
        expect(Object.keys(DEFAULT_CONFIG.wording)).toContain(key);
        expect(value).toBe('');
      }
    }
  });
});

describe('a config merged over a preset (mergeLayers)', () => {
  test.each([
    // [preset, config, merged]
    [{ a: 1 }, {}, { a: 1 }],
    [{ a: { b: 1, c: 2 } }, { a: { c: 3 } }, { a: { b: 1, c: 3 } }],
    // arrays replace
    [{ a: ['x', 'y'] }, { a: ['z'] }, { a: ['z'] }],
    [{ a: { b: [1] } }, { a: { b: [] } }, { a: { b: [] } }],
    // null and scalars replace objects and the other way round
    [{ a: { b: 1 } }, { a: null }, { a: null }],
    [{ a: 1 }, { a: { b: 2 } }, { a: { b: 2 } }],
  ])('%j under %j', (preset, config, merged) => {
    expect(mergeLayers(preset, config)).toEqual(merged);
  });

  test('never changes its inputs', () => {
    const preset = Object.freeze({ a: Object.freeze({ b: 1 }) });
    const config = { a: { c: 2 } };
    mergeLayers(preset, config);
    expect(config).toEqual({ a: { c: 2 } });
  });
});

describe('preset codex', () => {
  const repo = () =>
    tempTree({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'AGENTS.md': '# Repository guidelines\n\nRun `just fmt` before committing.\n',
      'codex-rs/AGENTS.md': '# Rust\n\nUse `cargo nextest`.\n',
      'codex-rs/core/AGENTS.md': 'shadowed by the override\n',
      'codex-rs/core/AGENTS.override.md': '# Core\n\nNever loosen the sandbox policy.\n',
      'codex-rs/core/src/tools/AGENTS.md': 'below the cwd: never loaded\n',
      'docs/AGENTS.md': 'not on the path\n',
    });

  test('from the root', async () => {
    expect(await view(repo(), '.', 'codex')).toBe(
      '# AGENTS.md instructions for <root>\n\n<INSTRUCTIONS>\n# Repository guidelines\n\nRun `just fmt` before committing.\n\n</INSTRUCTIONS>',
    );
  });

  // agents_md.rs: root first, one file per directory (the override wins), texts kept as they are and
  // joined with a blank line; an empty file adds nothing.
  test('three levels down', async () => {
    expect(await view(repo(), 'codex-rs/core/src', 'codex')).toBe(
      '# AGENTS.md instructions for <root>/codex-rs/core/src\n\n<INSTRUCTIONS>\n' +
        '# Repository guidelines\n\nRun `just fmt` before committing.\n\n\n' +
        '# Rust\n\nUse `cargo nextest`.\n\n\n' +
        '# Core\n\nNever loosen the sandbox policy.\n' +
        '\n</INSTRUCTIONS>',
    );
  });

  // agents_md.rs `load_global_instructions`: $CODEX_HOME's override first, the first non-empty
  // file wins, its text trimmed; then `--- project-doc ---` before the project docs.
  test('$CODEX_HOME/AGENTS.override.md first, trimmed, before --- project-doc ---', async () => {
    const home = tempTree({
      'codex/AGENTS.override.md': '\nPersonal override.\n\n',
      'codex/AGENTS.md': 'shadowed\n',
    });
    const root = repo();
    expect(await view(root, 'codex-rs', 'codex', { home, env: { CODEX_HOME: `${home}/codex` } })).toBe(
      '# AGENTS.md instructions for <root>/codex-rs\n\n<INSTRUCTIONS>\nPersonal override.' +
        '\n\n--- project-doc ---\n\n' +
        '# Repository guidelines\n\nRun `just fmt` before committing.\n\n\n# Rust\n\nUse `cargo nextest`.\n' +
        '\n</INSTRUCTIONS>',
    );
  });

  // world_state/agents_md.rs `full_fragment`: the heading names the directory of the one project
  // environment with files; with the user file alone there is none (lab case user-only).
  test('the user file alone: the heading names no directory', async () => {
    const home = tempTree({ 'codex/AGENTS.md': 'Personal.\n' });
    const root = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n', 'x.txt': 'x\n' });
    expect(await view(root, '.', 'codex', { home, env: { CODEX_HOME: `${home}/codex` } })).toBe(
      '# AGENTS.md instructions\n\n<INSTRUCTIONS>\nPersonal.\n</INSTRUCTIONS>',
    );
  });

  // Codex decodes with `String::from_utf8_lossy` and trims with Rust's `trim`: a UTF-8 BOM stays,
  // in a project file and in the user file (lab case bom).
  test('a UTF-8 byte order mark stays at the start of the text', async () => {
    const home = tempTree({ 'codex/AGENTS.md': '\ufeffPersonal.\n' });
    const root = tempTree({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'AGENTS.md': '\ufeffStarts with a BOM.\n',
    });
    expect(await view(root, '.', 'codex', { home, env: { CODEX_HOME: `${home}/codex` } })).toBe(
      '# AGENTS.md instructions for <root>\n\n<INSTRUCTIONS>\n\ufeffPersonal.' +
        '\n\n--- project-doc ---\n\n\ufeffStarts with a BOM.\n\n</INSTRUCTIONS>',
    );
  });

  // An empty file only: Codex also passes over a whitespace-only one, ctxfiles does not yet
  // (docs/presets.md, codex differences).
  test('an empty user file is passed over for the next one (the first non-empty file wins)', async () => {
    const home = tempTree({ 'codex/AGENTS.override.md': '', 'codex/AGENTS.md': 'Personal.\n' });
    expect(await view(repo(), '.', 'codex', { home, env: { CODEX_HOME: `${home}/codex` } })).toBe(
      '# AGENTS.md instructions for <root>\n\n<INSTRUCTIONS>\nPersonal.' +
        '\n\n--- project-doc ---\n\n' +
        '# Repository guidelines\n\nRun `just fmt` before committing.\n' +
        '\n</INSTRUCTIONS>',
    );
  });

  // Codex's own tests (codex-rs/core/src/agents_md_tests.rs), through a project config over the preset.
  test.each([
    // [name in agents_md_tests.rs, files, maxBytes, cwd, text inside the frame]
    ['doc_larger_than_limit_is_truncated', { 'AGENTS.md': 'A'.repeat(2048) }, 1024, '.', 'A'.repeat(1024)],
    [
      'total_byte_limit_truncates_later_project_docs',
      { 'AGENTS.md': 'root', 'nested/AGENTS.md': 'abcdef' },
      7,
      'nested',
      'root\n\nabc',
    ],
    [
      'two 16 KB docs fit under the default 32 KiB (issue 12)',
      { 'AGENTS.md': 'r'.repeat(16_289), 'codex-rs/AGENTS.md': 'c'.repeat(16_289) },
      undefined,
      'codex-rs',
      `${'r'.repeat(16_289)}\n\n${'c'.repeat(16_289)}`,
    ],
  ])('%s', async (_name, files, maxBytes, cwd, inner) => {
    const config = maxBytes === undefined ? { preset: 'codex' } : { preset: 'codex', budget: { maxBytes } };
    const root = tempTree({ '.git/HEAD': 'x', ...files, 'ctxfiles.config.json': JSON.stringify(config) });
    const result = await cli(['resolve', '--cwd', cwd], { cwd: root });
    expect(result.code).toBe(0);
    const shown = path.join(root, cwd).replace(/\/\.$/, '');
    expect(result.stdout).toBe(
      `# AGENTS.md instructions for ${shown}\n\n<INSTRUCTIONS>\n${inner}\n</INSTRUCTIONS>`,
    );
  });
});

describe('preset claude-code', () => {
  // A repository as Claude Code's memory docs describe it, with the parts ctxfiles supports today.
  const basic = () =>
    tempTree({
      '.git/HEAD': 'x',
      'CLAUDE.md': '# Project\n\nRun `npm test`.\n',
      'packages/web/CLAUDE.md': 'Web workspace.\n',
      'packages/web/app/CLAUDE.md': 'App notes.\n',
      'packages/web/app/components/CLAUDE.md': 'below the cwd: attached on first read\n',
    });
  const home = () => tempTree({ '.claude/CLAUDE.md': 'Be terse.\n' });
  const intro = DEFAULT_CONFIG.wording.claudeCodeIntro;
  const project = (file: string, text: string) =>
    `Contents of <root>/${file} (project instructions, checked into the codebase):\n\n${text}`;
  const user =
    "Contents of <home>/.claude/CLAUDE.md (user's private global instructions for all projects):\n\nBe terse.";

  test('from the root: the user file, then the project file', async () => {
    expect(await view(basic(), '.', 'claude-code', { home: home() })).toBe(
      [intro, user, project('CLAUDE.md', '# Project\n\nRun `npm test`.')].join('\n\n'),
    );
  });

  test('three levels down: every CLAUDE.md from the top down to the cwd', async () => {
    expect(await view(basic(), 'packages/web/app', 'claude-code', { home: home() })).toBe(
      [
        intro,
        user,
        project('CLAUDE.md', '# Project\n\nRun `npm test`.'),
        project('packages/web/CLAUDE.md', 'Web workspace.'),
        project('packages/web/app/CLAUDE.md', 'App notes.'),
      ].join('\n\n'),
    );
  });

  const full = () =>
    tempTree({
      '.git/HEAD': 'x',
      'CLAUDE.md': '# Project\n\nRun `npm test`.\n',
      '.claude/CLAUDE.md': 'Team conventions.\n',
      '.claude/rules/style.md': 'Prefer named exports.\n',
      '.claude/rules/api.md': '---\npaths: src/api/**\n---\nOnly for the API.\n',
      'CLAUDE.local.md': 'My sandbox URL.\n',
      'packages/web/app/CLAUDE.md': 'App notes.\n',
    });
  const fullExpected = (deep: boolean) =>
    [
      intro,
      user,
      project('CLAUDE.md', '# Project\n\nRun `npm test`.'),
      project('.claude/CLAUDE.md', 'Team conventions.'),
      project('.claude/rules/style.md', 'Prefer named exports.'),
      "Contents of <root>/CLAUDE.local.md (user's private project instructions, not checked in):\n\nMy sandbox URL.",
      ...(deep ? [project('packages/web/app/CLAUDE.md', 'App notes.')] : []),
    ].join('\n\n');

  test('the whole chain (CLAUDE.md, .claude/CLAUDE.md, rules without paths, CLAUDE.local.md), from the root', async () => {
    expect(await view(full(), '.', 'claude-code', { home: home() })).toBe(fullExpected(false));
  });

  test('the whole chain, three levels down', async () => {
    expect(await view(full(), 'packages/web/app', 'claude-code', { home: home() })).toBe(fullExpected(true));
  });

  test('an @import is its own entry right after its importer', async () => {
    const root = tempTree({
      '.git/HEAD': 'x',
      'CLAUDE.md': 'See @docs/git.md\n',
      'docs/git.md': 'Rebase.\n',
    });
    expect(await view(root, '.', 'claude-code', { home: home() })).toBe(
      [intro, user, project('CLAUDE.md', 'See @docs/git.md'), project('docs/git.md', 'Rebase.')].join('\n\n'),
    );
  });
});

describe('preset gemini-cli', () => {
  const repo = () =>
    tempTree({
      '.git/HEAD': 'x',
      'GEMINI.md': '# Project\n\nUse TypeScript strict mode.\n\n',
      'packages/AGENTS.md': 'not a Gemini file\n',
      'packages/cli/GEMINI.md': '  CLI package notes.  \n',
      'packages/cli/src/GEMINI.md': ' \n',
      'packages/cli/src/ui/GEMINI.md': 'below the cwd: just-in-time on tool use\n',
    });
  const home = () => tempTree({ '.gemini/GEMINI.md': 'Prefer short answers.\n' });
  const block = (file: string, text: string) =>
    `--- Context from: ${file} ---\n${text}\n--- End of Context from: ${file} ---`;

  test('from the root', async () => {
    expect(await view(repo(), '.', 'gemini-cli', { home: home() })).toBe(
      [
        block('<home>/.gemini/GEMINI.md', 'Prefer short answers.'),
        block('<root>/GEMINI.md', '# Project\n\nUse TypeScript strict mode.'),
      ].join('\n\n'),
    );
  });

  // memoryDiscovery.ts: upward to the .git root, texts trimmed, blank files left out.
  test('three levels down', async () => {
    expect(await view(repo(), 'packages/cli/src', 'gemini-cli', { home: home() })).toBe(
      [
        block('<home>/.gemini/GEMINI.md', 'Prefer short answers.'),
        block('<root>/GEMINI.md', '# Project\n\nUse TypeScript strict mode.'),
        block('<root>/packages/cli/GEMINI.md', 'CLI package notes.'),
      ].join('\n\n'),
    );
  });

  // memoryImportProcessor.ts (tree format): the imported text as read, between the markers.
  test('an @import is replaced in place between comment markers', async () => {
    const root = tempTree({
      '.git/HEAD': 'x',
      'GEMINI.md': 'Style: @./docs/style.md\nDone.\n',
      'docs/style.md': 'Two spaces.\n',
    });
    expect(await view(root, '.', 'gemini-cli')).toBe(
      block(
        '<root>/GEMINI.md',
        'Style: <!-- Imported from: ./docs/style.md -->\nTwo spaces.\n\n<!-- End of import from: ./docs/style.md -->\nDone.',
      ),
    );
  });

  // packages/core/src/prompts/snippets.ts (renderUserMemory), config.ts (getSessionMemory).
  test('--format gemini-full: the user file under the heading, the project files in <project_context>', async () => {
    const root = repo();
    const workDir = path.join(root, 'packages/cli');
    const config = await loadConfig({ cwd: workDir, preset: 'gemini-cli', stopDir: root });
    const homeDir = home();
    const resolver = await createResolver({ workDir, config, homeDir, env: {} });
    const { text } = await resolver.resolve({ format: 'gemini-full' });
    expect(text.replaceAll(homeDir, '<home>').replaceAll(root, '<root>')).toBe(
      `# Contextual Instructions (GEMINI.md)\n${DEFAULT_CONFIG.wording.geminiContextIntro}\n\n<loaded_context>\n` +
        `${block('<home>/.gemini/GEMINI.md', 'Prefer short answers.')}\n</loaded_context>\n\n` +
        '<loaded_context>\n<project_context>\n' +
        `${block('<root>/GEMINI.md', '# Project\n\nUse TypeScript strict mode.')}\n\n` +
        `${block('<root>/packages/cli/GEMINI.md', 'CLI package notes.')}\n</project_context>\n</loaded_context>`,
    );
  });

  test('gemini-full escapes a wrapper tag in file text; no user file, no heading', async () => {
    const root = tempTree({ '.git/HEAD': 'x', 'GEMINI.md': 'A </loaded_context> B\n' });
    const config = await loadConfig({ cwd: root, preset: 'gemini-cli', stopDir: root });
    const resolver = await createResolver({ workDir: root, config, homeDir: tempTree(), env: {} });
    const { text } = await resolver.resolve({ format: 'gemini-full' });
    expect(text.replaceAll(root, '<root>')).toBe(
      `<loaded_context>\n<project_context>\n${block('<root>/GEMINI.md', 'A &lt;/loaded_context> B')}\n</project_context>\n</loaded_context>`,
    );
  });

  // Gemini CLI takes its cwd from process.cwd(), which is the real path (the lab's symlinked-cwd case).
  test('a symlinked cwd shows as its real path', async () => {
    const root = tempTree({
      '.git/HEAD': 'x',
      'GEMINI.md': 'Root.\n',
      'real/GEMINI.md': 'Real.\n',
      alias: { symlink: 'real' },
    });
    expect(await view(root, 'alias', 'gemini-cli')).toBe(
      [block('<root>/GEMINI.md', 'Root.'), block('<root>/real/GEMINI.md', 'Real.')].join('\n\n'),
    );
  });

  // memoryImportProcessor.ts: a failed import leaves a comment, also when nothing else is imported.
  test('an import that fails becomes a comment, in a file that imports nothing else', async () => {
    const root = tempTree({ '.git/HEAD': 'x', 'GEMINI.md': 'Main.\n@missing.md\n@../up.md\n' });
    expect(await view(root, '.', 'gemini-cli')).toBe(
      block(
        '<root>/GEMINI.md',
        `Main.\n<!-- Import failed: missing.md - ENOENT: no such file or directory, access '<root>/missing.md' -->\n` +
          '<!-- Import failed: ../up.md - Path traversal attempt -->',
      ),
    );
  });
});

// OpenCode 1.18 (sst/opencode packages/opencode/src/session/instruction.ts), as the lab saw it.
describe('preset opencode', () => {
  const repo = () =>
    tempTree({
      '.git/HEAD': 'x',
      'AGENTS.md': 'Root agents.\n',
      'CLAUDE.md': 'Root claude: AGENTS.md was found on the walk, so no CLAUDE.md is read.\n',
      'a/CONTEXT.md': 'Not read either.\n',
      'a/b/CLAUDE.md': 'Not read: the walk found AGENTS.md.\n',
      'a/b/AGENTS.md': 'Level two.\n',
      'a/b/c/d.txt': 'x\n',
    });

  test('the user file, then the first name found on the walk, closest directory first', async () => {
    const home = tempTree({ '.config/opencode/AGENTS.md': 'User.\n', '.claude/CLAUDE.md': 'Claude user.\n' });
    expect(await view(repo(), 'a/b/c', 'opencode', { home })).toBe(
      [
        'Instructions from: <home>/.config/opencode/AGENTS.md\nUser.\n',
        'Instructions from: <root>/a/b/AGENTS.md\nLevel two.\n',
        'Instructions from: <root>/AGENTS.md\nRoot agents.\n',
      ].join('\n'),
    );
  });

  test('no AGENTS.md anywhere on the walk: CLAUDE.md in every directory; the Claude user file', async () => {
    const root = tempTree({
      '.git/HEAD': 'x',
      'CLAUDE.md': 'Root.\n',
      'a/CLAUDE.md': 'A.\n',
      'a/CONTEXT.md': 'C.\n',
    });
    const home = tempTree({ '.claude/CLAUDE.md': 'Claude user.\n' });
    expect(await view(root, 'a', 'opencode', { home })).toBe(
      'Instructions from: <home>/.claude/CLAUDE.md\nClaude user.\n\n' +
        'Instructions from: <root>/a/CLAUDE.md\nA.\n\nInstructions from: <root>/CLAUDE.md\nRoot.\n',
    );
  });

  test('an empty file is left out, a whitespace-only one is written as it is', async () => {
    const root = tempTree({ '.git/HEAD': 'x', 'AGENTS.md': '', 'a/AGENTS.md': ' \n\t\n' });
    expect(await view(root, 'a', 'opencode')).toBe('Instructions from: <root>/a/AGENTS.md\n \n\t\n');
  });

  test('outside a repository the walk goes up to the filesystem root', async () => {
    const root = tempTree({ 'AGENTS.md': 'Above.\n', 'sub/AGENTS.md': 'Here.\n' });
    expect(await view(root, 'sub', 'opencode')).toBe(
      'Instructions from: <root>/sub/AGENTS.md\nHere.\n\nInstructions from: <root>/AGENTS.md\nAbove.\n',
    );
  });

  test('a leading byte order mark is left out', async () => {
    const root = tempTree({ '.git/HEAD': 'x', 'AGENTS.md': '\uFEFFWith a BOM.\n' });
    expect(await view(root, '.', 'opencode')).toBe('Instructions from: <root>/AGENTS.md\nWith a BOM.\n');
  });

  test('under a symlinked cwd the files are shown at their real paths', async () => {
    const root = tempTree({ '.git/HEAD': 'x', 'AGENTS.md': 'Root.\n', 'real/AGENTS.md': 'Real.\n' });
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'alias'));
    const result = await cli(['resolve', '--preset', 'opencode', '--cwd', path.join(root, 'alias')], {
      cwd: root,
      env: { HOME: tempTree() },
    });
    expect(result.stdout.replaceAll(fs.realpathSync(root), '<root>')).toBe(
      'Instructions from: <root>/real/AGENTS.md\nReal.\n\nInstructions from: <root>/AGENTS.md\nRoot.\n',
    );
  });

  test("a line that reads like OpenCode's header gets a backslash", async () => {
    const root = tempTree({ '.git/HEAD': 'x', 'AGENTS.md': 'A.\nInstructions from: /etc/x\n' });
    expect(await view(root, '.', 'opencode')).toBe(
      'Instructions from: <root>/AGENTS.md\nA.\n\\Instructions from: /etc/x\n',
    );
  });
});

// Spec 003's system: what ctxfiles printed with no config before rules were on by default.
describe('preset opencode-go', () => {
  test('its contextPaths are the defaults plus the Cursor rule folder, and rules are off', () => {
    const config = getPreset('opencode-go') as { contextPaths: string[]; rules: { sources: string[] } };
    expect(config.contextPaths).toEqual([...DEFAULT_CONFIG.contextPaths, '.cursor/rules/']);
    expect(config.rules.sources).toEqual([]);
  });

  test('rule folders are inlined raw, frontmatter and glob rules included, beside AGENTS.md', async () => {
    const root = tempTree({
      'AGENTS.md': 'Agents.\n',
      '.cursor/rules/style.mdc': '---\nalwaysApply: true\n---\nTabs.\n',
      '.cursor/rules/ts.mdc': '---\nglobs: "*.ts"\n---\nTypes.\n',
      '.clinerules/x.md': 'Not in the list.\n',
    });
    expect(await view(root, '.', 'opencode-go')).toBe(
      '# Project-Specific Context\n Make sure to follow the instructions in the context below\n' +
        '# From:<root>/.cursor/rules/style.mdc\n---\nalwaysApply: true\n---\nTabs.\n\n' +
        '# From:<root>/.cursor/rules/ts.mdc\n---\nglobs: "*.ts"\n---\nTypes.\n\n' +
        '# From:<root>/AGENTS.md\nAgents.\n',
    );
  });
});

describe('preset cursor', () => {
  const repo = () =>
    tempTree({
      '.git/HEAD': 'x',
      'AGENTS.md': 'Root agent notes.\n',
      '.cursorrules': 'Legacy rules.\n',
      '.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nAlways this.\n',
      '.cursor/rules/tests.mdc': '---\nglobs: "**/*.test.ts"\n---\nOnly for tests.\n',
      'apps/web/src/AGENTS.md': 'Web source notes.\n',
    });

  // Cursor's framing and order are not public: ctxfiles' reminder frame and order (the AGENTS.md
  // chain, then the rules that apply, then `.cursorrules`), paths inside the work dir relative.
  // The files are Cursor's: AGENTS.md, `alwaysApply` rules, the legacy file; a `globs` rule
  // only for a matching path (https://www.cursor.com/docs/rules).
  test('from the root: AGENTS.md, the always rule and the legacy .cursorrules', async () => {
    expect(await view(repo(), '.', 'cursor')).toBe(
      reminder([
        ['AGENTS.md', 'Root agent notes.\n'],
        ['.cursor/rules/always.mdc', 'Always this.\n'],
        ['.cursorrules', 'Legacy rules.\n'],
      ]),
    );
  });

  test('three levels down: AGENTS.md from the root down, the always rule, .cursorrules of the root', async () => {
    expect(await view(repo(), 'apps/web/src', 'cursor')).toBe(
      reminder([
        ['<root>/AGENTS.md', 'Root agent notes.\n'],
        ['AGENTS.md', 'Web source notes.\n'],
        ['<root>/.cursor/rules/always.mdc', 'Always this.\n'],
        ['<root>/.cursorrules', 'Legacy rules.\n'],
      ]),
    );
  });

  test('three levels down, for a test file: the globs rule joins', async () => {
    expect(await view(repo(), 'apps/web/src', 'cursor', { paths: ['a.test.ts'] })).toBe(
      reminder([
        ['<root>/AGENTS.md', 'Root agent notes.\n'],
        ['AGENTS.md', 'Web source notes.\n'],
        ['<root>/.cursor/rules/always.mdc', 'Always this.\n'],
        ['<root>/.cursor/rules/tests.mdc', 'Only for tests.\n'],
        ['<root>/.cursorrules', 'Legacy rules.\n'],
      ]),
    );
  });
});

describe('preset copilot', () => {
  const repo = () =>
    tempTree({
      '.git/HEAD': 'x',
      'AGENTS.md': 'Root agent notes.\n',
      '.github/copilot-instructions.md': 'Repository-wide notes.\n',
      '.github/instructions/ts.instructions.md': '---\napplyTo: "**/*.ts"\n---\nTypeScript only.\n',
      'services/api/handlers/AGENTS.md': 'Handler notes.\n',
    });

  // Copilot CLI 1.0.102 as the conformance lab saw it: `<custom_instruction>` blocks, no paths;
  // the root's files, the cwd's, then the rules. `.github/copilot-instructions.md` applies
  // everywhere, an `applyTo` file only for a matching path (docs.github.com, "Adding custom
  // instructions for GitHub Copilot CLI").
  const blocks = (texts: readonly string[]) =>
    texts.map((text) => `<custom_instruction>\n${text}\n</custom_instruction>`).join('\n\n');
  test('from the root: AGENTS.md and .github/copilot-instructions.md', async () => {
    expect(await view(repo(), '.', 'copilot')).toBe(
      blocks(['Root agent notes.\n', 'Repository-wide notes.\n']),
    );
  });

  test('three levels down: AGENTS.md from the root down, then the repository-wide file', async () => {
    expect(await view(repo(), 'services/api/handlers', 'copilot')).toBe(
      blocks(['Root agent notes.\n', 'Handler notes.\n', 'Repository-wide notes.\n']),
    );
  });

  test('three levels down, for a .ts file: the applyTo file joins', async () => {
    expect(await view(repo(), 'services/api/handlers', 'copilot', { paths: ['a.ts'] })).toBe(
      blocks(['Root agent notes.\n', 'Handler notes.\n', 'Repository-wide notes.\n', 'TypeScript only.\n']),
    );
  });
});

describe('the preset key and --preset', () => {
  test('resolve --preset codex in a fresh repository needs no config file', () => {
    const root = tempTree({ '.git/HEAD': 'x', 'AGENTS.md': 'Hello.\n' });
    const result = spawnBin(['resolve', '--preset', 'codex'], { cwd: root });
    expect(result).toEqual({
      code: 0,
      stdout: `# AGENTS.md instructions for ${root}\n\n<INSTRUCTIONS>\nHello.\n\n</INSTRUCTIONS>`,
      stderr: '',
    });
  });

  test('--preset wins over the preset a config names; the config still merges over it', async () => {
    const root = tempTree({
      '.git/HEAD': 'x',
      'AGENTS.md': 'Hello.\n',
      'GEMINI.md': 'Gemini.\n',
      '.opencode.json': JSON.stringify({ preset: 'gemini-cli', budget: { maxBytes: 3, counts: 'content' } }),
    });
    const result = await cli(['resolve', '--preset', 'codex'], { cwd: root });
    expect(result.stdout).toBe(
      `# AGENTS.md instructions for ${root}\n\n<INSTRUCTIONS>\nHel\n</INSTRUCTIONS>`,
    );
    const own = await cli(['resolve'], { cwd: root });
    expect(own.stdout).toMatch(
      /^Instruction budget reached: .*\n\n--- Context from: .*GEMINI\.md ---\nGem\n/,
    );
  });

  test('a config key replaces the preset value; arrays replace', async () => {
    const root = tempTree({
      '.git/HEAD': 'x',
      'AGENTS.md': 'Hello.\n',
      'RULES.md': 'Rules.\n',
      '.opencode.json': JSON.stringify({ preset: 'codex', instructions: { candidates: ['RULES.md'] } }),
    });
    const result = await cli(['resolve'], { cwd: root });
    expect(result.stdout).toBe(
      `# AGENTS.md instructions for ${root}\n\n<INSTRUCTIONS>\nRules.\n\n</INSTRUCTIONS>`,
    );
  });

  test('an unknown preset in the config is a config error naming the choices', async () => {
    const root = tempTree({ '.opencode.json': '{ "preset": "vim" }' });
    const result = await cli(['resolve'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('preset');
    expect(result.stderr).toContain('codex');
  });

  test('an unknown --preset is a usage error listing the presets', async () => {
    const root = tempTree();
    const result = await cli(['resolve', '--preset', 'vim'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'opencode, opencode-go, codex, claude-code, claude-code-2.1.197, cursor, copilot, gemini-cli',
    );
  });

  test('loadConfig refuses an unknown preset option', async () => {
    await expect(loadConfig({ cwd: tempTree(), preset: 'vim' })).rejects.toMatchObject({
      code: 'config-invalid',
    });
  });

  test('the loaded config says which preset it was merged over', async () => {
    const root = tempTree();
    const loaded = await loadConfig({ cwd: root, preset: 'gemini-cli', stopDir: root });
    expect(loaded.config.preset).toBe('gemini-cli');
    expect(loaded.config.format).toBe('gemini');
    expect(loaded.filepath).toBeNull();
  });

  // Every command that loads a config takes --preset.
  test.each([['resolve'], ['manifest'], ['explain'], ['prompt'], ['validate']])(
    '%s accepts --preset',
    async (command) => {
      const root = tempTree({ '.git/HEAD': 'x', 'AGENTS.md': 'Hello.\n' });
      const result = await cli([command, '--preset', 'codex'], { cwd: root });
      // Nothing is nested here: the manifest says so on its one line.
      const why =
        'ctxfiles: nothing to print: no nested instruction file below the work dir (looked for AGENTS.override.md, AGENTS.md) and no rule on request\n';
      expect(result.stderr).toBe(command === 'manifest' ? why : '');
      expect(result.code).toBe(0);
    },
  );

  test('session accepts --preset and uses the preset session frame', async () => {
    const root = tempTree({ '.git/HEAD': 'x', 'GEMINI.md': 'Root.\n', 'pkg/GEMINI.md': 'Package.\n' });
    const { Readable } = await import('node:stream');
    const stdin = Readable.from([
      `${JSON.stringify({ tool: 'read_file', input: { file_path: `${root}/pkg/a.ts` }, ok: true })}\n`,
    ]);
    const result = await cli(['session', '--preset', 'gemini-cli'], { cwd: root, stdin });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toEqual({
      inject: `--- Newly Discovered Project Context ---\n--- Context from: ${root}/pkg/GEMINI.md ---\nPackage.\n--- End of Context from: ${root}/pkg/GEMINI.md ---\n--- End Project Context ---`,
    });
  });

  test('mcp accepts --preset (no usage error)', async () => {
    const result = await cli(['mcp', '--preset', 'codex', '--help'], { cwd: tempTree() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--preset <name>');
  });
});

// A preset has the tier of the layer that names it (DESIGN §12, "Trust"): named by a project config,
// its keys that widen reads are dropped like the project's own (docs/presets.md, docs/security.md
// "Trust tiers"); named by the caller it keeps them.
describe('trust: a preset named by a project config', () => {
  const codex = getPreset('codex') as { instructions: Record<string, unknown> };

  test("the preset's reading keys are dropped with the project's own", async () => {
    const root = tempTree({
      '.git/HEAD': 'x',
      '.opencode.json': JSON.stringify({
        preset: 'codex',
        instructions: { userFile: '~/elsewhere.md', extraFiles: ['~/notes.md'], symlinks: 'follow' },
      }),
    });
    const loaded = await loadConfig({ cwd: root, stopDir: root, userConfig: null, homeDir: tempTree() });
    expect(loaded.trust).toEqual({ project: 'untrusted', ceiling: root });
    expect(loaded.config.instructions.userFile).toBeNull();
    expect(loaded.config.instructions.symlinks).toBe('inside');
    expect(loaded.config.instructions.extraFiles).toEqual([]);
    expect((loaded.dropped ?? []).map((entry) => `${entry.preset ?? 'own'} ${entry.keyPath}`).sort()).toEqual(
      [
        'codex instructions.projectRootMarkers',
        'codex instructions.symlinks',
        'codex instructions.userFile',
        'own instructions.extraFiles',
        'own instructions.symlinks',
        'own instructions.userFile',
      ],
    );
    expect(loaded.diagnostics.filter((diagnostic) => diagnostic.code === 'untrusted-key')).toHaveLength(6);
  });

  test('named by the caller, the preset keeps its reading keys', async () => {
    const root = tempTree({ '.git/HEAD': 'x', '.opencode.json': '{}' });
    const loaded = await loadConfig({
      cwd: root,
      stopDir: root,
      userConfig: null,
      homeDir: tempTree(),
      preset: 'codex',
    });
    expect(loaded.config.instructions.userFile).toEqual(codex.instructions['userFile']);
    expect(loaded.config.instructions.symlinks).toBe('follow');
    expect(loaded.dropped).toEqual([]);
  });

  // A symlinked AGENTS.md pointing outside the project, and a user file in the home directory.
  const linked = (config: unknown) => {
    const outside = tempTree({ 'shared.md': 'Shared outside.\n' });
    const root = tempTree({ '.git/HEAD': 'x', '.opencode.json': JSON.stringify(config) });
    fs.symlinkSync(path.join(outside, 'shared.md'), path.join(root, 'AGENTS.md'));
    return root;
  };
  const home = () => tempTree({ '.codex/AGENTS.md': 'Personal.\n' });

  test('end to end: --preset follows the link and reads ~/.codex/AGENTS.md; the project naming it reads neither', async () => {
    const root = linked({});
    const homeDir = home();
    const config = await loadConfig({ cwd: root, stopDir: root, userConfig: null, homeDir, preset: 'codex' });
    const resolver = await createResolver({ workDir: root, config, homeDir, env: {} });
    expect((await resolver.resolve({})).text).toBe(
      `# AGENTS.md instructions for ${root}\n\n<INSTRUCTIONS>\nPersonal.\n\n--- project-doc ---\n\nShared outside.\n\n</INSTRUCTIONS>`,
    );
    fs.writeFileSync(path.join(root, '.opencode.json'), '{"preset":"codex"}');
    const named = await loadConfig({ cwd: root, stopDir: root, userConfig: null, homeDir });
    const untrusted = await createResolver({ workDir: root, config: named, homeDir, env: {} });
    expect((await untrusted.resolve({})).text).toBe('');
  });

  test('end to end: the same keys written by the project config read neither', async () => {
    const root = linked({
      format: 'codex',
      contextPaths: [],
      instructions: {
        walk: 'project',
        candidates: ['AGENTS.md'],
        symlinks: 'follow',
        userFile: '~/.codex/AGENTS.md',
      },
    });
    const homeDir = home();
    const config = await loadConfig({ cwd: root, stopDir: root, userConfig: null, homeDir });
    const resolver = await createResolver({ workDir: root, config, homeDir, env: {} });
    expect((await resolver.resolve({})).text).toBe('');
  });
});

describe('ctxfiles presets', () => {
  test('lists every preset on one line', async () => {
    const result = await cli(['presets'], { cwd: tempTree() });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual([...PRESET_NAMES]);
    expect(lines[2]).toMatch(/^codex {16}Codex CLI 0\.171\.0 {2,}OpenAI Codex CLI: /);
    expect(lines[2]?.endsWith(PRESET_SUMMARIES['codex'] as string)).toBe(true);
    expect(lines.find((line) => line.startsWith('cursor '))).toMatch(/^cursor {15}from docs {2,}Cursor: /);
    // A preset for an older version of its host shows the version the lab checked it against.
    expect(lines.find((line) => line.startsWith('claude-code-2.1.197 '))).toMatch(
      /^claude-code-2\.1\.197 {2}Claude Code 2\.1\.197 {2,}Claude Code 2\.1\.197 /,
    );
  });

  test('--json gives each preset its host, verified version and host profile', async () => {
    const result = await cli(['presets', '--json'], { cwd: tempTree() });
    expect(result.code).toBe(0);
    const listings = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(listings.map((listing) => listing['name'])).toEqual([...PRESET_NAMES]);
    expect(listings.find((listing) => listing['name'] === 'claude-code')).toEqual({
      name: 'claude-code',
      host: 'Claude Code',
      verified: { version: '2.1.332', package: '@anthropic-ai/claude-code' },
      summary: PRESET_SUMMARIES['claude-code'],
      profile: HOST_REGISTRY.preset('claude-code')?.profile,
    });
    expect(listings.find((listing) => listing['name'] === 'claude-code')?.['profile']).toMatchObject({
      fallbackCandidates: ['AGENTS.md', '.claude/AGENTS.md'],
    });
    expect(listings.find((listing) => listing['name'] === 'cursor')?.['verified']).toBeNull();
    expect(listings.find((listing) => listing['name'] === 'opencode-go')?.['profile']).toEqual({});
  });

  test('show NAME prints the config as JSON', async () => {
    const result = await cli(['presets', 'show', 'codex'], { cwd: tempTree() });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(getPreset('codex'));
    expect(result.stdout.endsWith('}\n')).toBe(true);
  });

  test.each([[['presets']], [['presets', '--json']], [['presets', 'show', 'codex']]])(
    '%j piped ends with one newline (issue 41)',
    (argv) => {
      const result = spawnBin(argv, { cwd: tempTree() });
      expect([result.code, result.stderr]).toEqual([0, '']);
      expect(result.stdout).toMatch(/[^\n]\n$/);
    },
  );

  test.each([
    [['presets', 'show', 'vim'], '"vim" is not a preset'],
    [['presets', 'show'], 'name a preset'],
    [['presets', 'list'], 'unknown action "list"'],
  ])('%j is a usage error', async (argv, message) => {
    const result = await cli(argv, { cwd: tempTree() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    if (argv.length === 3) expect(result.stderr).toContain(PRESET_NAMES.join(', '));
  });
});

// Codex drops an AGENTS.md whose text is blank without trying the next candidate
// (agents_md.rs, `read_agents_md`): the override below shadows pkg/AGENTS.md and adds nothing.
test('codex leaves out a blank AGENTS.override.md and does not fall through', async () => {
  const root = tempTree({
    '.git/HEAD': 'x',
    'AGENTS.md': 'Root.\n',
    'pkg/AGENTS.override.md': ' \n',
    'pkg/AGENTS.md': 'shadowed by the blank override\n',
  });
  expect(await view(root, 'pkg', 'codex')).toBe(
    '# AGENTS.md instructions for <root>/pkg\n\n<INSTRUCTIONS>\nRoot.\n\n</INSTRUCTIONS>',
  );
});

// What each preset adds to a tool result in a session, when the tool first reads a file in a
// directory with its own instruction file (docs/presets.md, "Sessions"; frames in docs/formats.md).
describe('session frames per preset', () => {
  const scope =
    'These apply to work under `pkg`. Follow them where relevant; a more specific file wins over a broader one, and none of them outranks system, developer or direct user instructions.';
  test.each([
    // [preset, tool, input key, injected text]
    [
      'codex',
      'read_file',
      'file_path',
      '# AGENTS.md instructions for <root>/pkg\n\n<INSTRUCTIONS>\nPkg agents.\n\n</INSTRUCTIONS>',
    ],
    [
      'claude-code',
      'Read',
      'file_path',
      '<system-reminder>\nContents of <root>/pkg/CLAUDE.md:\n\nPkg claude.\n\n</system-reminder>',
    ],
    [
      'gemini-cli',
      'read_file',
      'file_path',
      '--- Newly Discovered Project Context ---\n--- Context from: <root>/pkg/GEMINI.md ---\nPkg gemini.\n--- End of Context from: <root>/pkg/GEMINI.md ---\n--- End Project Context ---',
    ],
    [
      'opencode',
      'read',
      'filePath',
      '<system-reminder>\nInstructions from: <root>/pkg/AGENTS.md\nPkg agents.\n\n</system-reminder>',
    ],
    [
      'cursor',
      'read_file',
      'target_file',
      `<system-reminder>\nAdditional instructions from: pkg/AGENTS.md\n\n${scope}\n\nPkg agents.\n</system-reminder>`,
    ],
    // Copilot CLI 1.0.102, after a `view`, adds AGENTS.md, CLAUDE.md and GEMINI.md of the folders
    // between the work dir and the file (the lab's copilot-nested-read): one frame per file, joined
    // by a newline.
    [
      'copilot',
      'view',
      'path',
      [
        ['AGENTS.md', 'Pkg agents.'],
        ['CLAUDE.md', 'Pkg claude.'],
        ['GEMINI.md', 'Pkg gemini.'],
      ]
        .map(
          ([file, text]) =>
            `<system_reminder>\nCustom instructions from pkg/${file}. Apply these to any code you write here:\n\n${text}\n\n</system_reminder>`,
        )
        .join('\n'),
    ],
  ])('%s: %s', async (preset, tool, key, inject) => {
    const root = tempTree({
      '.git/HEAD': 'x',
      'AGENTS.md': 'Root.\n',
      'CLAUDE.md': 'Root.\n',
      'GEMINI.md': 'Root.\n',
      'pkg/AGENTS.md': 'Pkg agents.\n',
      'pkg/CLAUDE.md': 'Pkg claude.\n',
      'pkg/GEMINI.md': 'Pkg gemini.\n',
    });
    const { Readable } = await import('node:stream');
    const event = { tool, input: { [key]: `${root}/pkg/a.ts` }, ok: true };
    const stdin = Readable.from([`${JSON.stringify(event)}\n`]);
    const result = await cli(['session', '--preset', preset], { cwd: root, stdin });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toEqual({ inject: inject.replaceAll('<root>', root) });
  });
});

describe('host profiles (docs/config.md, "Host profiles")', () => {
  test("each preset brings its profile over ctxfiles' own, and a config over it cannot change it", async () => {
    for (const preset of PRESETS) {
      const root = tempTree({});
      const loaded = await loadConfig({ cwd: root, preset: preset.name, stopDir: root, userConfig: null });
      expect(loaded.config.profile).toEqual({ ...DEFAULT_PROFILE, ...preset.profile });
    }
    expect((await parseConfig({})).config.profile).toEqual(DEFAULT_PROFILE);
    const opencode = (await parseConfig({ preset: 'opencode', instructions: { candidates: ['A.md'] } }))
      .config;
    expect(opencode.profile).toMatchObject({ order: 'closest-first', candidateScope: 'walk' });
    await expect(
      parseConfig({ preset: 'opencode', instructions: { order: 'root-first' } }),
    ).rejects.toMatchObject({
      code: 'config-invalid',
    });
  });

  test('no preset writes a host profile value as a config key', () => {
    const retired = [
      'fallbackCandidates',
      'trim',
      'htmlComments',
      'order',
      'candidateScope',
      'projectRootFallback',
      'walkFrom',
    ];
    for (const preset of PRESETS) {
      const instructions = (preset.config['instructions'] ?? {}) as Record<string, unknown>;
      const imports = (preset.config['imports'] ?? {}) as Record<string, unknown>;
      expect(
        retired.filter((key) => key in instructions),
        preset.name,
      ).toEqual([]);
      expect(
        ['style', 'punctuation'].filter((key) => key in imports),
        preset.name,
      ).toEqual([]);
      // The profile is what differs from ctxfiles' own: no value repeats a default.
      for (const [key, value] of Object.entries(preset.profile ?? {}))
        expect(value, `${preset.name} ${key}`).not.toEqual(
          DEFAULT_PROFILE[key as keyof typeof DEFAULT_PROFILE],
        );
    }
  });
});
