import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig, parseConfig } from '../src/index.js';
import { relativeDisplay } from '../src/config/read-source.js';
import { KNOWN_TOP_LEVEL_KEYS } from '../src/config/defaults.js';
import { configSchema } from '../src/config/schema.js';
import fastValidate from '../src/config/validate-config.generated.js';
import { CtxfilesError } from '../src/errors.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { tempTree } from './helpers/disk.js';

async function loadError(
  tree: Record<string, string>,
  options: { configFile?: string; thorough?: boolean } = {},
): Promise<CtxfilesError> {
  const root = tempTree(tree);
  const error = await loadConfig({ cwd: root, stopDir: root, displayCwd: root, ...options }).catch(
    (caught: unknown) => caught,
  );
  if (!(error instanceof CtxfilesError)) throw new Error(`expected a CtxfilesError, got ${String(error)}`);
  return error;
}

describe('config search', () => {
  test('no config → defaults and filepath null', async () => {
    const root = tempTree({ 'AGENTS.md': 'x' });
    const loaded = await loadConfig({ cwd: root, stopDir: root });
    expect(loaded.filepath).toBeNull();
    expect(loaded.config.contextPaths).toContain('AGENTS.md');
    expect(loaded.config.contextDiscovery).toEqual({
      enabled: true,
      maxFiles: 100,
      maxDepth: 8,
      maxFileBytes: 32768,
      maxSessionBytes: 131072,
      maxManifestBytes: 8192,
      mode: 'manifest',
      respectGitignore: false,
      cache: false,
      repeatHostFiles: false,
    });
    expect(loaded.config.imports).toEqual({
      enabled: false,
      maxDepth: 5,
      mode: 'entries',
      failed: 'keep',
      external: true,
      root: 'source',
    });
    expect(loaded.config.contextRoot).toBe('workDir');
    expect(loaded.config.contextPaths.slice(0, 3)).toEqual(['AGENTS.md', 'AGENTS.local.md', 'CLAUDE.md']);
  });

  test.each([
    ['.opencode.json', '{"contextPaths": ["A.md"]}'],
    ['.opencode.yaml', 'contextPaths: [A.md]'],
    ['.opencode.yml', 'contextPaths: [A.md]'],
    ['ctxfiles.config.json', '{"contextPaths": ["A.md"]}'],
    ['ctxfiles.config.yaml', 'contextPaths: [A.md]'],
    ['package.json', '{"name": "x", "ctxfiles": {"contextPaths": ["A.md"]}}'],
  ])('finds %s', async (name, text) => {
    const root = tempTree({ [name]: text });
    const loaded = await loadConfig({ cwd: root, stopDir: root });
    expect(loaded.filepath).toBe(path.join(root, name));
    expect(loaded.config.contextPaths).toEqual(['A.md']);
  });

  // A code config runs only where the project is trusted (test/code-config.test.ts for the refusal).
  test.each([
    ['ctxfiles.config.mjs', 'export default { contextPaths: ["A.md"] };'],
    ['ctxfiles.config.cjs', 'module.exports = { contextPaths: ["A.md"] };'],
  ])('finds %s in a trusted project', async (name, text) => {
    const root = tempTree({ [name]: text, 'user.json': '{}' });
    fs.writeFileSync(path.join(root, 'user.json'), JSON.stringify({ trustedProjects: [root] }));
    const loaded = await loadConfig({ cwd: root, stopDir: root, userConfig: path.join(root, 'user.json') });
    expect(loaded.filepath).toBe(path.join(root, name));
    expect(loaded.config.contextPaths).toEqual(['A.md']);
  });

  test('searches upward from the work dir and stops at stopDir', async () => {
    const root = tempTree({ '.opencode.json': '{"contextPaths": ["top.md"]}', 'repo/pkg/x.txt': '' });
    const found = await loadConfig({ cwd: path.join(root, 'repo/pkg'), stopDir: root });
    expect(found.filepath).toBe(path.join(root, '.opencode.json'));
    const stopped = await loadConfig({ cwd: path.join(root, 'repo/pkg'), stopDir: path.join(root, 'repo') });
    expect(stopped.filepath).toBeNull();
  });

  test('the first search place wins and the others are reported', async () => {
    const root = tempTree({
      '.opencode.json': '{}',
      'ctxfiles.config.yaml': 'contextPaths: []',
      'package.json': '{"name": "x"}',
    });
    const loaded = await loadConfig({ cwd: root, stopDir: root, displayCwd: root });
    expect(loaded.filepath).toBe(path.join(root, '.opencode.json'));
    expect(loaded.diagnostics).toEqual([
      {
        level: 'info',
        code: 'config-shadowed',
        message: 'ctxfiles.config.yaml is ignored: .opencode.json comes first in the search order',
        path: path.join(root, 'ctxfiles.config.yaml'),
      },
    ]);
  });

  test('package.json without a ctxfiles key does not count', async () => {
    const root = tempTree({ 'package.json': '{"name": "x"}' });
    expect((await loadConfig({ cwd: root, stopDir: root })).filepath).toBeNull();
  });

  test('a missing explicit config is an error', async () => {
    const error = await loadError({}, { configFile: 'nope.json' });
    expect(error.code).toBe('config-not-found');
    expect(error.message).toBe('nope.json: the config file does not exist');
  });

  test('a BOM at the start of a JSON config is accepted', async () => {
    const root = tempTree({ '.opencode.json': '\uFEFF{"contextPaths": ["A.md"]}' });
    expect((await loadConfig({ cwd: root, stopDir: root })).config.contextPaths).toEqual(['A.md']);
  });
});

describe('config errors name file, line, column and key path', () => {
  test.each([
    [
      'wrong type in JSON',
      { '.opencode.json': '{\n  "contextPaths": "AGENTS.md"\n}' },
      'config-invalid',
      '.opencode.json:2:19: contextPaths: wrong type. Expected an array, received "AGENTS.md".',
    ],
    [
      'a number where a path is expected',
      { '.opencode.yaml': 'contextPaths:\n  - AGENTS.md\n  - 1.0\n' },
      'config-invalid',
      '.opencode.yaml:3:5: contextPaths[1]: wrong type. Expected a string, received 1.',
    ],
    [
      'YAML typing tricks: yes is a string, null is not',
      { '.opencode.yaml': 'contextPaths: [yes, null]\n' },
      'config-invalid',
      '.opencode.yaml:1:21: contextPaths[1]: wrong type. Expected a string, received null.',
    ],
    [
      'a negative cap',
      { '.opencode.json': '{"contextDiscovery": {"maxFiles": -1}}' },
      'config-invalid',
      '.opencode.json:1:35: contextDiscovery.maxFiles: too small. Expected a number >= 0, received -1.',
    ],
    [
      'a fractional cap',
      { '.opencode.json': '{"contextDiscovery": {"maxDepth": 1.5}}' },
      'config-invalid',
      '.opencode.json:1:35: contextDiscovery.maxDepth: wrong type. Expected an integer, received 1.5.',
    ],
    [
      'a typo inside context',
      { '.opencode.json': '{"agents": {"coder": {"context": {"pahts": ["A.md"]}}}}' },
      'config-invalid',
      '.opencode.json:1:35: agents.coder.context.pahts: unknown key "pahts". Did you mean "paths"?',
    ],
    [
      'a typo inside contextDiscovery',
      { '.opencode.json': '{"contextDiscovery": {"maxFile": 3}}' },
      'config-invalid',
      '.opencode.json:1:23: contextDiscovery.maxFile: unknown key "maxFile". Did you mean "maxFiles"?',
    ],
    [
      'an unknown key under imports lists the real keys',
      { '.opencode.json': '{"imports": {"allowOutside": true}}' },
      'config-invalid',
      '.opencode.json:1:14: imports.allowOutside: unknown key "allowOutside". Known keys: "enabled", "maxDepth", "mode", "failed", "external", "root".',
    ],
    [
      'a typo in a reason of imports.failed',
      { '.opencode.json': '{"imports": {"failed": {"misssing": "keep"}}}' },
      'config-invalid',
      '.opencode.json:1:25: imports.failed.misssing: unknown key "misssing". Did you mean "missing"?',
    ],
    [
      'a wrong choice for a reason of imports.failed',
      { '.opencode.json': '{"imports": {"failed": {"outside": "drop"}}}' },
      'config-invalid',
      '.opencode.json:1:36: imports.failed.outside: Invalid option: expected one of "keep"|"comment".',
    ],
    [
      'a wrong word for imports.failed',
      { '.opencode.json': '{"imports": {"failed": "kep"}}' },
      'config-invalid',
      '.opencode.json:1:24: imports.failed: Invalid option: expected one of "keep"|"comment".',
    ],
    [
      'a relative user file is reported by the string form of the key',
      { '.opencode.json': '{"instructions": {"userFile": "notes.md"}}' },
      'config-invalid',
      '.opencode.json:1:31: instructions.userFile: must be an absolute path, start with "~/" or with ${env.NAME}.',
    ],
    [
      'an unknown imports.root',
      { '.opencode.json': '{"imports": {"root": "file"}}' },
      'config-invalid',
      '.opencode.json:1:22: imports.root: Invalid option: expected one of "source"|"marker".',
    ],
    [
      'a key that became part of a host profile says so',
      { '.opencode.json': '{"instructions": {"walkFrom": "projectRootParent"}}' },
      'config-invalid',
      '.opencode.json:1:19: instructions.walkFrom: "walkFrom" is no longer a config key: it reproduced a host, and the presets of the hosts that need it set it in their host profile. Remove it, and name the preset to get that behaviour (docs/config.md, "Host profiles").',
    ],
    [
      'each such key under imports too',
      { '.opencode.json': '{"imports": {"style": "copilot"}}' },
      'config-invalid',
      '.opencode.json:1:14: imports.style: "style" is no longer a config key: it reproduced a host, and the presets of the hosts that need it set it in their host profile. Remove it, and name the preset to get that behaviour (docs/config.md, "Host profiles").',
    ],
    [
      'an unknown key under rules lists the real keys',
      { '.opencode.json': '{"rules": {"foo": 1}}' },
      'config-invalid',
      '.opencode.json:1:12: rules.foo: unknown key "foo". Known keys: "sources", "nested", "userFolders".',
    ],
    [
      'an unknown key of a session tool lists the real keys',
      { '.opencode.json': '{"session": {"tools": {"edit": {"as": "edit", "paths": ["file"]}}}}' },
      'config-invalid',
      '.opencode.json:1:47: session.tools.edit.paths: unknown key "paths". Known keys: "as", "pathKeys".',
    ],
    [
      'nested must be a boolean',
      { '.opencode.yaml': 'agents:\n  coder:\n    context:\n      nested: "no"\n' },
      'config-invalid',
      '.opencode.yaml:4:15: agents.coder.context.nested: wrong type. Expected a boolean, received "no".',
    ],
    [
      'JSON syntax',
      { '.opencode.json': '{\n  "contextPaths": [\n    "A.md",\n  ]\n  "x": 1\n}' },
      'config-syntax',
      /^\.opencode\.json:\d+:\d+: /,
    ],
    [
      'YAML syntax',
      { '.opencode.yaml': 'contextPaths: [A.md\nagents: {}\n' },
      'config-syntax',
      '.opencode.yaml:2:1: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ],
    [
      'a prototype-polluting key',
      { '.opencode.json': '{"agents": {"__proto__": {"context": {"paths": ["x"]}}}}' },
      'config-syntax',
      '.opencode.json:1:13: agents.__proto__: the key "__proto__" is not allowed',
    ],
    [
      'not an object',
      { '.opencode.json': '["AGENTS.md"]' },
      'config-invalid',
      '.opencode.json:1:1: the config must be an object',
    ],
    [
      'an alias bomb',
      {
        '.opencode.yaml':
          'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n',
      },
      'config-syntax',
      /^\.opencode\.yaml: cannot expand the document: /,
    ],
  ])('%s', async (_name, tree, code, message) => {
    const error = await loadError(tree);
    expect(error.code).toBe(code);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(error.message).not.toContain('ZodError');
  });

  test('duplicate keys are an error on every path, naming the second (docs/config.md)', async () => {
    const tree = { '.opencode.json': '{"contextPaths": ["A.md"], "contextPaths": ["B.md"]}' };
    for (const thorough of [false, true]) {
      const error = await loadError(tree, { thorough });
      expect(error.code).toBe('config-syntax');
      expect(error.message).toBe(
        '.opencode.json:1:28: not valid JSON: the key "contextPaths" appears twice in one object',
      );
    }
  });

  test('several problems are all listed', async () => {
    const error = await loadError({ '.opencode.json': '{"contextPaths": [1], "flows": "x"}' });
    expect(error.message.split('\n')).toEqual([
      '.opencode.json:1:19: contextPaths[0]: wrong type. Expected a string, received 1.',
      '.opencode.json:1:32: flows: wrong type. Expected an array, received "x".',
    ]);
  });

  test('a config file over the size cap is refused before parsing', async () => {
    const error = await loadError({ '.opencode.json': `{"x": "${'a'.repeat(1_100_000)}"}` });
    expect(error.code).toBe('config-syntax');
    expect(error.message).toMatch(/^\.opencode\.json: the file is \d+ bytes; at most 1048576 are accepted$/);
  });
});

describe('unknown top-level keys', () => {
  test('the known keys are exactly the top level of the schema, which the fast validator closes', () => {
    expect([...KNOWN_TOP_LEVEL_KEYS].sort()).toEqual(Object.keys(configSchema.shape).sort());
    expect(fastValidate({ contextPaths: ['A.md'] })).toBe(true);
    expect(fastValidate({ contextPath: ['A.md'] })).toBe(false);
  });

  test('warn with a did-you-mean hint and do not fail', async () => {
    const root = tempTree({ '.opencode.json': '{\n  "contextPath": ["A.md"],\n  "provider": {}\n}' });
    const loaded = await loadConfig({ cwd: root, stopDir: root, displayCwd: root });
    expect(loaded.diagnostics.map((d) => [d.level, d.code, d.message])).toEqual([
      [
        'warn',
        'unknown-key',
        '.opencode.json:2:3: contextPath: unknown key "contextPath" is ignored. Did you mean "contextPaths"?',
      ],
      [
        'warn',
        'unknown-key',
        '.opencode.json:3:3: provider: unknown key "provider" is ignored. Did you mean "providers"?',
      ],
    ]);
  });

  test("OpenCode's own keys are known and pass silently, on the fast and the thorough path", async () => {
    // The top-level keys of OpenCode's Config struct (opencode-ai/opencode, internal/config/config.go).
    const openCode = {
      data: { directory: '.opencode' },
      wd: '.',
      providers: { anthropic: { apiKey: 'k' } },
      shell: { path: '/bin/bash' },
      lsp: { go: { command: 'gopls' } },
      mcpServers: { x: { command: 'x' } },
      tui: { theme: 'opencode' },
      agents: { coder: { model: 'm', maxTokens: 5000 } },
      autoCompact: true,
      debug: false,
      debugLSP: false,
      contextPaths: ['A.md'],
    };
    for (const thorough of [false, true]) {
      const root = tempTree({ '.opencode.json': JSON.stringify(openCode) });
      const loaded = await loadConfig({ cwd: root, stopDir: root, displayCwd: root, thorough });
      expect(loaded.diagnostics).toEqual([]);
      expect(loaded.config.contextPaths).toEqual(['A.md']);
    }
  });

  test('agent keys other than context pass through', async () => {
    const { config } = await parseConfig({ agents: { coder: { model: 'm', tools: { write: false } } } });
    expect(config.agents['coder']).toEqual({ model: 'm', tools: { write: false } });
  });

  test('prototype keys in an embedder object are refused', async () => {
    const value = JSON.parse('{"agents": {"constructor": {}}}') as unknown;
    await expect(parseConfig(value)).rejects.toMatchObject({
      code: 'config-invalid',
      message: '<config>: agents.constructor: the key "constructor" is not allowed',
    });
    expect(({} as Record<string, unknown>)['context']).toBeUndefined();
  });
});

describe('config files are read through the FileSystem port; only ENOENT/ENOTDIR mean absent', () => {
  test('a config found in the memory filesystem is loaded from it', async () => {
    const memory = createMemoryFileSystem({ '/w/.opencode.json': '{"format":"xml"}' });
    const loaded = await loadConfig({ cwd: '/w', stopDir: '/', fs: memory, displayCwd: '/w' });
    expect(loaded.filepath).toBe('/w/.opencode.json');
    expect(loaded.config.format).toBe('xml');
  });

  test.each([
    // A search place that cannot be checked is an error, not "no config here".
    ['stat', 'EACCES', 'config-syntax', '.opencode.json: cannot read the file (EACCES)'],
    ['readFile', 'EIO', 'config-syntax', '.opencode.json: cannot read the file (EIO)'],
  ] as const)('%s failing with %s is %s', async (op, code, errorCode, message) => {
    const memory = createMemoryFileSystem({ '/w/.opencode.json': '{}' });
    memory.fail('/w/.opencode.json', op, code);
    const error = await loadConfig({ cwd: '/w', stopDir: '/', fs: memory, displayCwd: '/w' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CtxfilesError);
    expect((error as CtxfilesError).code).toBe(errorCode);
    expect((error as CtxfilesError).message).toBe(message);
  });

  test('an absent search place is passed over', async () => {
    const memory = createMemoryFileSystem({ '/w/AGENTS.md': '' });
    memory.fail('/w/.opencode.json', 'stat', 'ENOTDIR');
    const loaded = await loadConfig({ cwd: '/w', stopDir: '/', fs: memory });
    expect(loaded.filepath).toBeNull();
  });

  test('a flow directory that cannot be listed is an error naming the glob', async () => {
    const memory = createMemoryFileSystem({
      '/w/.opencode.json': '{"flows":["flows/**/*.yaml"]}',
      '/w/flows/a.yaml': 'steps: []',
    });
    memory.fail('/w/flows', 'readdir', 'EACCES');
    const error = await loadConfig({ cwd: '/w', stopDir: '/', fs: memory, displayCwd: '/w' }).catch(
      (caught: unknown) => caught,
    );
    expect((error as CtxfilesError).code).toBe('config-invalid');
    expect((error as CtxfilesError).message).toBe(
      'flows: the glob "flows/**/*.yaml" cannot list flows (EACCES)',
    );
  });

  test('an absent flow directory gives no flows', async () => {
    const memory = createMemoryFileSystem({ '/w/.opencode.json': '{"flows":["flows/**/*.yaml"]}' });
    const loaded = await loadConfig({ cwd: '/w', stopDir: '/', fs: memory });
    expect(loaded.flows.size).toBe(0);
  });
});

describe('how config paths are shown', () => {
  test('relative to the display dir, above it too, but absolute when only the root is shared', () => {
    const shown = relativeDisplay('/home/me/repo/pkg/api');
    expect(shown('/home/me/repo/pkg/api/ctxfiles.config.json')).toBe('ctxfiles.config.json');
    expect(shown('/home/me/repo/.opencode.json')).toBe(path.join('..', '..', '.opencode.json'));
    expect(shown('/home/me/.config/ctxfiles/config.json')).toBe(
      path.join('..', '..', '..', '.config', 'ctxfiles', 'config.json'),
    );
    expect(shown('/dev/null')).toBe('/dev/null');
    expect(shown('/home/me/repo/pkg/api')).toBe('api');
  });

  test('a parent config in an error message is shown the same way', async () => {
    const root = tempTree({ '.opencode.json': '{"contextPaths": 5}', 'pkg/api/x.md': '' });
    const error = await loadConfig({
      cwd: path.join(root, 'pkg/api'),
      displayCwd: path.join(root, 'pkg/api'),
    }).catch((caught: unknown) => caught);
    expect((error as CtxfilesError).message).toMatch(/^\.\.\/\.\.\/\.opencode\.json:1:\d+: contextPaths: /);
  });
});
