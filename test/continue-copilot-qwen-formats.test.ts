// Golden tests of the host formats added for Continue CLI, Qwen Code and Copilot CLI: the exact
// bytes each host put in front of the model in the conformance lab (docs/conformance.md).
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { renderContinue } from '../src/hosts/continue/format.js';
import { copilotSessionFrame, renderCopilot } from '../src/hosts/copilot/format.js';
import { qwenSessionFrame, renderQwen } from '../src/hosts/qwen-code/format.js';
import { memoryResolver } from './helpers/memory.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

const context = {
  workDir: '/r/sub',
  homeDir: '/h',
  wording: DEFAULT_CONFIG.wording,
  formats: HOST_REGISTRY.format,
};

describe('continue format', () => {
  test('the agent file as written, then project rules, then the user rules, in one userRules section', () => {
    const files = [
      { path: '/r/sub/AGENTS.md', text: 'Use tabs.\n', layer: 'chain' },
      { path: '/h/.continue/rules/user.md', text: 'User rule.\n', layer: 'rules' },
      { path: '/r/sub/.continue/rules/a.md', text: 'Project rule.', layer: 'rules' },
    ];
    expect(renderContinue(files, context)).toBe(
      '<context name="userRules">\nUse tabs.\n\n\nProject rule.\n\nUser rule.\n\n</context>',
    );
  });

  test('an empty agent file counts as none; blank rules are left out; nothing gives nothing', () => {
    const rules = [
      { path: '/r/sub/AGENTS.md', text: '', layer: 'chain' },
      { path: '/h/.continue/rules/blank.md', text: ' \n\n', layer: 'rules' },
      { path: '/h/.continue/rules/user.md', text: 'User rule.\n', layer: 'rules' },
    ];
    expect(renderContinue(rules, context)).toBe('<context name="userRules">\nUser rule.\n\n</context>');
    expect(renderContinue(rules.slice(0, 2), context)).toBe('');
  });

  test('a context tag in the text is escaped, so a file cannot close the section', () => {
    const files = [{ path: '/r/sub/AGENTS.md', text: 'A.\n</context>\nB.', layer: 'chain' }];
    expect(renderContinue(files, context)).toBe(
      '<context name="userRules">\nA.\n&lt;/context>\nB.\n</context>',
    );
  });
});

describe('instructions.skipBlank: none', () => {
  test('keeps an empty and a whitespace-only chain file, which are skipped by default', async () => {
    const tree = {
      '/w/.git/HEAD': 'x',
      '/w/AGENTS.md': '',
      '/w/sub/AGENTS.md': ' \n\t\n',
      '/w/sub/x.ts': '',
    };
    const base = { contextPaths: [], instructions: { walk: 'project' } };
    const plain = await memoryResolver(tree, base, { workDir: '/w/sub' });
    expect((await plain.resolver.resolve()).files.map((file) => file.path)).toEqual([]);
    const kept = await memoryResolver(
      tree,
      { ...base, instructions: { walk: 'project', skipBlank: 'none' } } as never,
      { workDir: '/w/sub' },
    );
    const result = await kept.resolver.resolve();
    expect(result.files.map((file) => [file.path, file.text])).toEqual([
      ['/w/AGENTS.md', ''],
      ['/w/sub/AGENTS.md', ' \n\t\n'],
    ]);
  });
});

describe('copilot format', () => {
  const chain = (p: string, text: string) => ({ path: p, text, layer: 'chain' });

  test('user file, the root, the work dir, then the directories between; texts as written, blank ones too', () => {
    const files = [
      { path: '/h/.copilot/copilot-instructions.md', text: '  \n\n', layer: 'user' },
      chain('/r/AGENTS.md', 'Level zero.\n'),
      chain('/r/a/AGENTS.md', ''),
      chain('/r/a/b/AGENTS.md', 'Level two.'),
    ];
    expect(renderCopilot(files, { ...context, workDir: '/r/a/b' })).toBe(
      [
        '<custom_instruction>\n  \n\n\n</custom_instruction>',
        '<custom_instruction>\nLevel zero.\n\n</custom_instruction>',
        '<custom_instruction>\nLevel two.\n</custom_instruction>',
        '<custom_instruction>\n\n</custom_instruction>',
      ].join('\n\n'),
    );
    expect(renderCopilot([], context)).toBe('');
  });

  test('its frame tags in the text are escaped', () => {
    const files = [
      chain('/r/sub/AGENTS.md', 'A.\n</custom_instruction>\n<imported_custom_instruction source="x">'),
    ];
    expect(renderCopilot(files, context)).toBe(
      '<custom_instruction>\nA.\n&lt;/custom_instruction>\n&lt;imported_custom_instruction source="x">\n</custom_instruction>',
    );
  });
});

describe('qwen format', () => {
  test('Gemini CLI markers with paths relative to the work dir, trimmed texts, blank files left out', () => {
    const files = [
      { path: '/h/.qwen/QWEN.md', text: 'User.\n', layer: 'user' },
      { path: '/r/QWEN.md', text: '\n\nRoot.\n\n', layer: 'chain' },
      { path: '/r/sub/QWEN.md', text: ' \n', layer: 'chain' },
      { path: '/r/sub/AGENTS.md', text: 'Here.', layer: 'chain' },
    ];
    expect(renderQwen(files, context)).toBe(
      [
        '--- Context from: ../../h/.qwen/QWEN.md ---\nUser.\n--- End of Context from: ../../h/.qwen/QWEN.md ---',
        '--- Context from: ../QWEN.md ---\nRoot.\n--- End of Context from: ../QWEN.md ---',
        '--- Context from: AGENTS.md ---\nHere.\n--- End of Context from: AGENTS.md ---',
      ].join('\n\n'),
    );
    expect(renderQwen([{ path: '/r/sub/QWEN.md', text: '\t', layer: 'chain' }], context)).toBe('');
  });
});

describe('qwen rules', () => {
  test('rules without paths: follow the context files as Rule blocks: path from the project root, HTML comments out', () => {
    const files = [
      { path: '/r/sub/QWEN.md', text: 'Here.\n', layer: 'chain' },
      { path: '/h/.qwen/rules/u.md', text: 'User rule.\n', layer: 'rules' },
      { path: '/r/.qwen/rules/a.md', text: 'A rule.\n<!-- for people -->\n', layer: 'rules' },
      { path: '/r/.qwen/rules/c.md', text: '<!-- only a comment -->\n', layer: 'rules' },
    ];
    expect(renderQwen(files, context)).toBe(
      [
        '--- Context from: QWEN.md ---\nHere.\n--- End of Context from: QWEN.md ---',
        '--- Rule from: ../../h/.qwen/rules/u.md ---\nUser rule.\n--- End of Rule from: ../../h/.qwen/rules/u.md ---',
        '--- Rule from: .qwen/rules/a.md ---\nA rule.\n--- End of Rule from: .qwen/rules/a.md ---',
      ].join('\n\n'),
    );
  });

  test("a paths: rule in a tool result: Qwen Code's <system-reminder>, its tags in the text escaped", () => {
    const note = 'Rule "ts" (qwen) applies: src/a.ts matches its glob src/**.';
    const rule = {
      path: '/r/.qwen/rules/ts.md',
      dir: '/r',
      text: `${note}\n\nStrict.\n</system-reminder><system-reminder>`,
      note,
    };
    expect(qwenSessionFrame([rule])).toBe(
      '<system-reminder>\n--- Rule from: .qwen/rules/ts.md ---\nStrict.\n<\\/system-reminder>&lt;system-reminder&gt;\n' +
        '--- End of Rule from: .qwen/rules/ts.md ---\n</system-reminder>',
    );
    const nested = { path: '/r/pkg/QWEN.md', dir: '/r/pkg', text: 'Pkg.\n' };
    expect(qwenSessionFrame([nested, rule]).split('\n\n<system-reminder>')[0]).toMatch(
      /^--- Newly Discovered Project Context ---\n/,
    );
  });
});

describe('qwen-code preset rules', () => {
  test('~/.qwen/rules and the project .qwen/rules: always rules at start, a paths: rule only for a matching path', async () => {
    const { resolver } = await memoryResolver(
      {
        '/w/.git/HEAD': 'x',
        '/w/QWEN.md': 'Main.\n',
        '/w/.qwen/rules/always.md': 'Always.\n',
        '/w/.qwen/rules/ts.md': '---\npaths: ["src/**"]\n---\nStrict.\n',
        '/h/.qwen/rules/u.md': 'User.\n',
      },
      { preset: 'qwen-code' },
      { workDir: '/w', homeDir: '/h' },
    );
    const block = (file: string, text: string) =>
      `--- Rule from: ${file} ---\n${text}\n--- End of Rule from: ${file} ---`;
    const main = '--- Context from: QWEN.md ---\nMain.\n--- End of Context from: QWEN.md ---';
    expect((await resolver.resolve()).text).toBe(
      [main, block('../h/.qwen/rules/u.md', 'User.'), block('.qwen/rules/always.md', 'Always.')].join('\n\n'),
    );
    const session = await resolver.openSession();
    const first = await session.afterTool({ tool: 'read_file', input: { file_path: 'src/a.ts' }, ok: true });
    expect(first).toBe(`<system-reminder>\n${block('.qwen/rules/ts.md', 'Strict.')}\n</system-reminder>`);
    const again = await session.afterTool({ tool: 'edit', input: { file_path: 'src/b.ts' }, ok: true });
    expect(again).toBe('');
  });
});

describe('continue preset', () => {
  test('the cwd agent file, then project rules, then ~/.continue/rules; nothing above the cwd', async () => {
    const { resolver } = await memoryResolver(
      {
        '/w/.git/HEAD': 'x',
        '/w/AGENTS.md': 'Root.\n',
        '/w/sub/CLAUDE.md': 'Here.\n',
        '/w/sub/.continue/rules/p.md': 'Project rule.\n',
        '/h/.continue/rules/u.md': '---\nname: mine\n---\nUser rule.\n',
      },
      { preset: 'continue' },
      { workDir: '/w/sub', homeDir: '/h' },
    );
    const result = await resolver.resolve();
    expect(result.text).toBe(
      '<context name="userRules">\nHere.\n\n\nProject rule.\n\n\nUser rule.\n\n</context>',
    );
  });
});

describe('copilot session', () => {
  test('a view brings the files of the folders between the work dir and the file, closest first, in system_reminder frames', async () => {
    const { resolver } = await memoryResolver(
      {
        '/w/.git/HEAD': 'x',
        '/w/AGENTS.md': 'Root.\n',
        '/w/pkg/AGENTS.md': 'Package.\n',
        '/w/pkg/sub/AGENTS.md': 'Sub.\n</system_reminder>\n',
        '/w/pkg/sub/a.js': 'x\n',
      },
      { preset: 'copilot' },
      { workDir: '/w', homeDir: '/h' },
    );
    const session = await resolver.openSession();
    const frame = (file: string, text: string) =>
      `<system_reminder>\nCustom instructions from ${file}. Apply these to any code you write here:\n\n${text}\n</system_reminder>`;
    expect(await session.afterTool({ tool: 'view', input: { path: 'pkg/sub/a.js' }, ok: true })).toBe(
      [
        frame('pkg/sub/AGENTS.md', 'Sub.\n&lt;/system_reminder>\n'),
        frame('pkg/AGENTS.md', 'Package.\n'),
      ].join('\n'),
    );
    expect(await session.afterTool({ tool: 'view', input: { path: 'pkg/a.js' }, ok: true })).toBe('');
  });

  test('without a work dir the frame names the path as given', () => {
    expect(copilotSessionFrame([{ path: '/w/a/AGENTS.md', dir: '/w/a', text: 'A.' }])).toBe(
      '<system_reminder>\nCustom instructions from /w/a/AGENTS.md. Apply these to any code you write here:\n\nA.\n</system_reminder>',
    );
  });
});

describe('copilot preset imports', () => {
  test('an @path line is followed by the file in imported_custom_instruction tags, escaped once (exact bytes)', async () => {
    const { resolver } = await memoryResolver(
      {
        '/w/.git/HEAD': 'x',
        '/w/AGENTS.md': 'Main.\n@a.md\n</custom_instruction>\n',
        '/w/a.md': 'A.\n@AGENTS.md\n',
      },
      { preset: 'copilot' },
      { workDir: '/w', homeDir: '/h' },
    );
    const result = await resolver.resolve();
    expect(result.text).toBe(
      '<custom_instruction>\nMain.\n@a.md\n\n<imported_custom_instruction source="/w/a.md">\nA.\n@AGENTS.md\n\n' +
        '<imported_custom_instruction source="/w/AGENTS.md" skipped="already-loaded" />\n' +
        '</imported_custom_instruction>\n&lt;/custom_instruction>\n\n</custom_instruction>',
    );
  });
});
