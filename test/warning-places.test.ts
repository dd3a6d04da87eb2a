import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import type { ResolveRequest } from '../src/api/select-request.js';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// Warnings found while resolving point at the key that caused them, in the shape of every config
// problem (STYLE.md rule 10): `<file>:<line>:<col>: <key.path>: <problem>`.

const MODE = 'unknown mode "prepend" on the agent layer acts as "append" (known modes: replace, append)';
const OUTSIDE = '"../x.md" is skipped: the entry climbs out of the work dir';

async function placed(
  tree: Record<string, string>,
  request: Readonly<ResolveRequest> = {},
): Promise<{ root: string; messages: string[] }> {
  const root = tempTree({ 'AGENTS.md': 'a', 'A.md': 'b', ...tree });
  const resolver = await createResolver({ workDir: root, userConfig: null, env: {} });
  const { diagnostics } = await resolver.resolve(request);
  const messages = diagnostics
    .filter((d) => d.code === 'unknown-mode' || d.code === 'outside-workdir')
    .map((d) => d.message.replaceAll(root, '<root>'));
  return { root, messages };
}

describe('warnings name file, line, column and key path', () => {
  test('a JSON config: an entry outside the work dir and an unknown mode', async () => {
    const { messages } = await placed(
      {
        '.opencode.json': [
          '{',
          '  "contextPaths": ["AGENTS.md", "../x.md"],',
          '  "agents": {',
          '    "coder": { "context": { "paths": ["A.md"], "mode": "prepend" } }',
          '  }',
          '}',
        ].join('\n'),
      },
      { agent: 'coder' },
    );
    expect(messages).toEqual([
      `<root>/.opencode.json:4:56: agents.coder.context.mode: ${MODE}`,
      `<root>/.opencode.json:2:33: contextPaths[1]: ${OUTSIDE}`,
    ]);
  });

  test('a YAML config', async () => {
    const { messages } = await placed(
      {
        'ctxfiles.config.yaml': [
          'contextPaths:',
          '  - AGENTS.md',
          '  - ../x.md',
          'agents:',
          '  coder:',
          '    context:',
          '      paths: [A.md, ../y.md]',
          '      mode: prepend',
        ].join('\n'),
      },
      { agent: 'coder' },
    );
    expect(messages).toEqual([
      `<root>/ctxfiles.config.yaml:8:13: agents.coder.context.mode: ${MODE}`,
      `<root>/ctxfiles.config.yaml:3:5: contextPaths[1]: ${OUTSIDE}`,
      `<root>/ctxfiles.config.yaml:7:21: agents.coder.context.paths[1]: ${OUTSIDE.replace('x', 'y')}`,
    ]);
  });

  test("package.json's ctxfiles key: the key path as the file spells it", async () => {
    const { messages } = await placed({
      'package.json': '{\n  "name": "p",\n  "ctxfiles": { "contextPaths": ["../x.md"] }\n}\n',
    });
    expect(messages).toEqual([`<root>/package.json:3:34: ctxfiles.contextPaths[0]: ${OUTSIDE}`]);
  });

  test('a flow file: the step of the flow', async () => {
    const { messages } = await placed(
      {
        '.opencode.json': '{"contextPaths": ["AGENTS.md"]}',
        '.ctxfiles/flows/release.yaml': [
          'id: release',
          'steps:',
          '  - id: plan',
          '  - id: ship',
          '    context:',
          '      mode: prepend',
          '      paths:',
          '        - ../x.md',
        ].join('\n'),
      },
      { flow: 'release', step: 'ship' },
    );
    expect(messages).toEqual([
      `<root>/.ctxfiles/flows/release.yaml:6:13: steps[1].context.mode: ${MODE.replace('agent', 'step')}`,
      `<root>/.ctxfiles/flows/release.yaml:8:11: steps[1].context.paths[0]: ${OUTSIDE}`,
    ]);
  });

  test('a config object given in code has no file: the key path alone', async () => {
    const root = tempTree({ 'AGENTS.md': 'a' });
    const resolver = await createResolver({
      workDir: root,
      config: {
        contextPaths: ['AGENTS.md', '../x.md'],
        agents: { coder: { context: { paths: ['A.md'], mode: 'prepend' } } },
      },
      env: {},
    });
    const { diagnostics } = await resolver.resolve({ agent: 'coder' });
    expect(
      diagnostics
        .filter((d) => d.code === 'unknown-mode' || d.code === 'outside-workdir')
        .map((d) => d.message),
    ).toEqual([`agents.coder.context.mode: ${MODE}`, `contextPaths[1]: ${OUTSIDE}`]);
  });

  test('a key the file does not hold (set by another layer) gets no line or column', async () => {
    const root = tempTree({ 'AGENTS.md': 'a', 'user.json': '{"contextPaths": ["../x.md"]}' });
    const resolver = await createResolver({ workDir: root, userConfig: `${root}/user.json`, env: {} });
    const { diagnostics } = await resolver.resolve();
    // No project config: the entry is placed by key path only, never at a wrong line.
    expect(diagnostics.filter((d) => d.code === 'outside-workdir').map((d) => d.message)).toEqual([
      `contextPaths[0]: ${OUTSIDE}`,
    ]);
  });
});

test('validate places its findings in the config and flow files', async () => {
  const root = tempTree({
    'ctxfiles.config.yaml': 'contextPaths:\n  - docs/*.md\n',
    '.ctxfiles/flows/f.yaml': 'id: f\nsteps:\n  - id: a\n    context:\n      mode: merge\n',
  });
  const result = await cli(['validate'], { cwd: root });
  expect(result.code).toBe(0);
  expect(result.stderr.split('\n').filter(Boolean)).toEqual([
    'ctxfiles: warning: ctxfiles.config.yaml:2:5: contextPaths[0]: "docs/*.md" looks like a glob, but entries are matched literally, so it names nothing; list the files or name their directory with a trailing "/" [glob-entry]',
    'ctxfiles: warning: .ctxfiles/flows/f.yaml:5:13: steps[0].context.mode: unknown mode "merge" acts as "append" (known modes: replace, append) [unknown-mode]',
  ]);
});
