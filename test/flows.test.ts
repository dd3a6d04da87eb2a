import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../src/index.js';
import { CtxfilesError } from '../src/errors.js';
import { tempTree } from './helpers/disk.js';

/** The flow globs these tests use: a `flows/` folder, as a project that configures one. */
const FLOWS_CONFIG = { 'ctxfiles.config.json': '{"flows": ["flows/**/*.{yaml,yml}"]}' };

async function load(tree: Record<string, string>) {
  const hasConfig = Object.keys(tree).some((file) => /(^|\/)(\.opencode|ctxfiles\.config)\.json$/.test(file));
  const root = tempTree(hasConfig ? tree : { ...FLOWS_CONFIG, ...tree });
  return { root, loaded: await loadConfig({ cwd: root, stopDir: root, displayCwd: root }) };
}

async function loadError(tree: Record<string, string>): Promise<CtxfilesError> {
  const error = await load(tree).catch((caught: unknown) => caught);
  if (!(error instanceof CtxfilesError)) throw new Error(`expected a CtxfilesError, got ${String(error)}`);
  return error;
}

describe('flow files', () => {
  test('found through the default globs, id from the file name', async () => {
    const root = tempTree({
      '.ctxfiles/flows/release.yaml': 'steps:\n  - id: plan\n    agent: planner\n',
      '.ctxfiles/flows/nested/hotfix.yml': 'id: hot\nsteps: [{ id: fix }]\n',
      '.opencode/flows/ops.yaml': 'steps: [{ id: run }]\n',
      'node_modules/x/flows/ignored.yaml': 'not: [a flow',
      // A repository's own flows/ folder is not ctxfiles's unless configured.
      'flows/ci.yaml': 'on: push\njobs: [a flow',
    });
    const loaded = await loadConfig({ cwd: root, stopDir: root, displayCwd: root });
    expect([...loaded.flows.keys()].sort()).toEqual(['hot', 'ops', 'release']);
    expect(loaded.flows.get('release')).toEqual({
      id: 'release',
      file: path.join(root, '.ctxfiles/flows/release.yaml'),
      steps: [{ id: 'plan', agent: 'planner' }],
    });
  });

  test('globs are relative to the config file', async () => {
    const { loaded } = await load({
      'config/.opencode.json': '',
      '.opencode.json': '{"flows": ["pipelines/*.yaml"]}',
      'pipelines/a.yaml': 'steps: [{id: s}]',
    });
    expect([...loaded.flows.keys()]).toEqual(['a']);
  });

  test('templates, extends chains, includes and shallow merge', async () => {
    const { loaded } = await load({
      'shared/base.yaml':
        'templates:\n  root:\n    agent: coder\n    prompt: from root\n    context: { paths: [ROOT.md], mode: append, nested: false }\n',
      'flows/release.yaml': [
        'include: [../shared/base.yaml]',
        'templates:',
        '  middle:',
        '    extends: root',
        '    prompt: from middle',
        'steps:',
        '  - id: a',
        '    extends: middle',
        '  - id: b',
        '    extends: middle',
        '    context: { paths: [B.md] }',
        '    extra: { kept: true }',
      ].join('\n'),
    });
    const steps = loaded.flows.get('release')?.steps;
    expect(steps).toEqual([
      {
        id: 'a',
        agent: 'coder',
        prompt: 'from middle',
        context: { paths: ['ROOT.md'], mode: 'append', nested: false },
      },
      // A step's context overrides the template's entirely: no mode, no nested carried over.
      { id: 'b', agent: 'coder', prompt: 'from middle', context: { paths: ['B.md'] }, extra: { kept: true } },
    ]);
  });

  test.each([
    [
      'an unknown template',
      { 'flows/f.yaml': 'templates:\n  base: {agent: x}\nsteps:\n  - id: a\n    extends: bsae\n' },
      'flow-unknown-template',
      'flows/f.yaml:5:14: steps[0].extends: unknown template "bsae". Known templates: base.',
    ],
    [
      'a template cycle prints the chain',
      {
        'flows/f.yaml':
          'templates:\n  a: {extends: b}\n  b: {extends: c}\n  c: {extends: a}\nsteps:\n  - id: s\n    extends: a\n',
      },
      'flow-cycle',
      'flows/f.yaml:4:16: templates.c.extends: template cycle: a -> b -> c -> a',
    ],
    [
      'an include cycle prints the chain',
      {
        'flows/f.yaml': 'include: [../t/one.yaml]\nsteps: [{id: s}]\n',
        't/one.yaml': 'include: [two.yaml]\n',
        't/two.yaml': 'include: [one.yaml]\n',
      },
      'flow-cycle',
      't/two.yaml:1:11: include[0]: include cycle: t/one.yaml -> t/two.yaml -> t/one.yaml',
    ],
    [
      'a duplicate step id',
      { 'flows/f.yaml': 'steps:\n  - id: a\n  - id: b\n  - id: a\n' },
      'flow-duplicate',
      'flows/f.yaml:4:9: steps[2].id: step id "a" is already used by steps[0]',
    ],
    [
      'a duplicate flow id',
      { 'flows/a.yaml': 'id: same\nsteps: [{id: s}]\n', 'flows/b.yaml': 'id: same\nsteps: [{id: s}]\n' },
      'flow-duplicate',
      'flows/b.yaml:1:5: id: flow id "same" is already defined in flows/a.yaml:1:5',
    ],
    [
      'a duplicate template across an include',
      {
        'flows/f.yaml': 'include: [../t.yaml]\ntemplates:\n  base: {}\nsteps: [{id: s}]\n',
        't.yaml': 'templates:\n  base: {}\n',
      },
      'flow-duplicate',
      'flows/f.yaml:3:9: templates.base: template "base" is already defined at t.yaml:2:9',
    ],
    [
      'a YAML error with line and column',
      { 'flows/f.yaml': 'steps:\n  - id: a\n    agent: [x\n' },
      'flow-syntax',
      /^flows\/f\.yaml:\d+:\d+: /,
    ],
    [
      'a step without an id',
      { 'flows/f.yaml': 'steps:\n  - agent: coder\n' },
      'flow-invalid',
      'flows/f.yaml:2:5: steps[0].id: is required. Expected a string.',
    ],
    [
      'an unknown top-level key',
      { 'flows/f.yaml': 'step:\n  - id: a\n' },
      'flow-invalid',
      'flows/f.yaml:1:1: steps: is required. Expected an array.\nflows/f.yaml:1:1: step: unknown key "step". Did you mean "steps"?',
    ],
    [
      'a typo in a step context',
      { 'flows/f.yaml': 'steps:\n  - id: a\n    context: {paths: [a], mdoe: append}\n' },
      'flow-invalid',
      'flows/f.yaml:3:27: steps[0].context.mdoe: unknown key "mdoe". Did you mean "mode"?',
    ],
  ])('%s', async (_name, tree, code, message) => {
    const error = await loadError(tree);
    expect(error.code).toBe(code);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });

  test('problems in several flow files are all reported', async () => {
    const error = await loadError({ 'flows/a.yaml': 'steps: 3\n', 'flows/b.yaml': 'steps: [{id: 1}]\n' });
    expect(error.problems.map((problem) => problem.file)).toEqual(['flows/a.yaml', 'flows/b.yaml']);
  });
});

describe('flow globs and includes stay inside the config directory', () => {
  const SECRET = 'TOKEN-0123456789abcdef0123456789abcdef';
  const outside = () => tempTree({ 'secret.yaml': SECRET, 'flows/x.yaml': `steps: [{ id: ${SECRET} }]\n` });

  test.each([
    ['an absolute glob', (away: string) => [`${away}/secret.yaml`]],
    ['a glob that climbs out', (away: string) => [`../${path.basename(away)}/*.yaml`]],
    ['a symlinked directory', () => ['link/*.yaml']],
    ['a symlinked file', () => ['secret-link.yaml']],
  ])('%s is refused and nothing it names is echoed', async (_name, globs) => {
    const away = outside();
    const error = await loadError({
      'ctxfiles.config.json': JSON.stringify({ flows: globs(away) }),
      link: { symlink: path.join(away, 'flows') },
      'secret-link.yaml': { symlink: path.join(away, 'secret.yaml') },
    } as unknown as Record<string, string>);
    expect(error.code).toBe('config-invalid');
    expect(error.message).toContain('outside the config');
    expect(error.message).not.toContain(SECRET.slice(0, 10));
  });

  test('an include outside the config directory is refused', async () => {
    const away = outside();
    const error = await loadError({
      'flows/release.yaml': `include: [${JSON.stringify(path.join(away, 'secret.yaml'))}]\nsteps: [{ id: a }]\n`,
    });
    expect(error.code).toBe('flow-invalid');
    expect(error.message).toContain('outside the config');
    expect(error.message).not.toContain(SECRET.slice(0, 10));
  });

  test('a flow file that is one string is described by type, never echoed', async () => {
    const error = await loadError({ 'flows/release.yaml': SECRET });
    expect(error.message).toContain('received a string');
    expect(error.message).not.toContain(SECRET.slice(0, 10));
  });
});
