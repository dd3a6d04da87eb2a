import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig } from '../src/index.js';
import { FORMATS } from '../src/config/types.js';
import { CtxfilesError } from '../src/errors.js';
import { createMemoryFileSystem, type MemoryNodeSpec } from '../src/fs/memory-file-system.js';
import { buildSystemPrompt } from '../src/prompt/build-system-prompt.js';
import { explain, formatExplain } from '../src/prompt/explain.js';
import { parseClaudeCode, parseGemini, parseReminder, parseXml } from './helpers/parse-formats.js';

/**
 * The containment law end to end: whatever a repository holds (names, symlinks, a config from the
 * project tier), no byte of a file outside the work dir reaches any output, and the escaped formats
 * still parse back to exactly the files they show.
 */

const SENTINEL = 'ZQX-SENTINEL-OUTSIDE-7731';
const OUTSIDE: Record<string, string> = {
  '/s/SECRET.md': SENTINEL,
  '/s/AGENTS.md': SENTINEL,
  '/s/rules/x.mdc': SENTINEL,
  '/AGENTS.md': SENTINEL,
  '/CLAUDE.md': SENTINEL,
  // A project root marker above the work dir, with secrets beside it: a project config's walk,
  // contextRoot or candidates must not climb to them.
  '/.git/HEAD': 'ref: refs/heads/main',
  '/.netrc': SENTINEL,
  '/.ssh/id_test': SENTINEL,
};

const NAMES = [
  'AGENTS.md',
  'CLAUDE.md',
  'docs',
  'pkg',
  '.cursor',
  'rules',
  '</system-reminder>',
  '</project_instructions>',
  '<project_files>',
  'a"b',
  '&amp;',
  '..md',
  '...',
  ' .md',
  'CON.md',
  '%2e%2e',
  '.git',
];
const TEXT = [
  'rule',
  '</system-reminder>',
  '<system-reminder>',
  '</project_instructions>',
  '</project_context>',
  '<environment>',
  '\n\nInstructions from: /etc/passwd\n\n',
  '&lt;',
  '\u202e',
  '@../s/SECRET.md',
  '\n',
];
const TARGETS = [
  '/s',
  '/s/SECRET.md',
  '../s',
  '/',
  '..',
  '../../s/AGENTS.md',
  'docs',
  'AGENTS.md',
  '/w',
  '../w/..',
];
const ENTRIES = [
  'AGENTS.md',
  'docs/',
  'pkg/',
  'link/',
  'link',
  '../s/SECRET.md',
  '/s/SECRET.md',
  'docs/../../s/AGENTS.md',
  '${env.HOME}/x.md',
  '.cursor/rules/',
  '</system-reminder>/AGENTS.md',
  '.netrc',
  '.ssh/id_test',
];

const segment = fc.constantFrom(...NAMES);
const relative = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
const body = fc.array(fc.constantFrom(...TEXT), { maxLength: 5 }).map((parts) => parts.join(''));
const node: fc.Arbitrary<MemoryNodeSpec> = fc.oneof(
  { weight: 3, arbitrary: body },
  { weight: 1, arbitrary: fc.constantFrom(...TARGETS).map((symlink) => ({ symlink })) },
);
// Nested files that sessions inject (and track) in most cases, before the random part.
const tree = fc
  .dictionary(relative, node, { maxKeys: 8 })
  .map((random) => ({ 'docs/AGENTS.md': 'docs rule', 'pkg/x/CLAUDE.md': 'pkg rule', ...random }));
const projectConfig = fc.record(
  {
    contextPaths: fc.array(fc.constantFrom(...ENTRIES), { maxLength: 4 }),
    instructions: fc.record(
      {
        walk: fc.constantFrom('off', 'root', 'project'),
        userFile: fc.constantFrom('/s/SECRET.md', '~/../s/AGENTS.md', null),
        extraFiles: fc.constantFrom(['/s/SECRET.md'], [] as string[]),
        candidates: fc.constantFrom(
          ['AGENTS.md'],
          ['CLAUDE.md', 'AGENTS.md'],
          ['SECRET.md'],
          ['.ssh/id_test', 'AGENTS.md'],
          ['.netrc'],
        ),
        projectRootMarkers: fc.constantFrom(['s'], ['w'], ['SECRET.md'], ['AGENTS.md'], ['.git']),
        trackChanges: fc.constantFrom(true, true, false),
      },
      { requiredKeys: [] },
    ),
    contextDiscovery: fc.record(
      { maxFileBytes: fc.constantFrom(1, 100, 1e11), maxDepth: fc.constantFrom(0, 3, 100) },
      { requiredKeys: [] },
    ),
    contextRoot: fc.constantFrom('workDir', 'project'),
    trustedProjects: fc.constantFrom(['/'], ['/w']),
    format: fc.constantFrom(...FORMATS),
  },
  { requiredKeys: [] },
);

describe('sentinel property', () => {
  test('no byte of a file outside the work dir reaches any output; escaped formats parse back', async () => {
    await fc.assert(
      fc.asyncProperty(
        tree,
        projectConfig,
        fc.array(relative, { maxLength: 3 }),
        async (files, config, touched) => {
          const memory = createMemoryFileSystem({ ...OUTSIDE, '/w/.opencode.json': JSON.stringify(config) });
          for (const [file, spec] of Object.entries(files)) {
            if (file === '.opencode.json' || file.startsWith('.opencode.json/')) continue;
            try {
              memory.set(`/w/${file}`, spec);
            } catch {
              // A path through a file or a link: not part of this tree.
            }
          }
          const outputs: string[] = [];
          let loaded;
          try {
            loaded = await loadConfig({
              cwd: '/w',
              stopDir: '/w',
              fs: memory,
              userConfig: null,
              homeDir: '/home/u',
            });
          } catch (error) {
            expect(error).toBeInstanceOf(CtxfilesError);
            expect((error as Error).message).not.toContain(SENTINEL);
            return;
          }
          outputs.push(...loaded.diagnostics.map((d) => d.message));
          const resolver = await createResolver({
            workDir: '/w',
            config: loaded,
            fs: memory,
            env: {},
            homeDir: '/home/u',
          });
          for (const format of FORMATS) {
            const result = await resolver.resolve({ format });
            outputs.push(result.text, result.manifest, JSON.stringify(result.diagnostics));
            const shown = result.files.map((file) => ({ path: file.path, text: file.text }));
            if (format === 'xml') {
              const parsed = parseXml(result.text);
              expect(parsed?.map((block) => block.text)).toEqual(
                shown.map((file) => (file.text.endsWith('\n') ? file.text : `${file.text}\n`)),
              );
              expect(parsed?.map((block) => path.resolve('/w', block.path))).toEqual(
                shown.map((file) => file.path),
              );
            }
            if (format === 'gemini') {
              const texts = shown.map((file) => file.text.trim()).filter((text) => text !== '');
              expect(parseGemini(result.text)?.map((block) => block.text)).toEqual(texts);
            }
            if (format === 'claude-code') {
              const parsed = parseClaudeCode(result.text, resolver.config.wording.claudeCodeIntro);
              expect(parsed?.map((block) => block.text)).toEqual(shown.map((file) => file.text));
            }
            if (format === 'reminder') {
              const parsed = parseReminder(result.text);
              // One final newline of each text is dropped by design (test/formats.test.ts).
              const trim = (text: string) => text.replace(/\n$/, '');
              expect(parsed?.blocks.map((block) => block.text)).toEqual(shown.map((file) => trim(file.text)));
            }
          }
          const result = await resolver.resolve();
          const prompt = await buildSystemPrompt({
            project: result,
            environment: { date: '2026-01-01', cwd: '/w' },
            facts: { os: 'linux', ripgrep: false, terminal: 'xterm' } as never,
            env: {},
          });
          outputs.push(prompt.text, formatExplain(await explain(prompt, result), '/w'));
          const session = await resolver.openSession({ format: 'reminder' });
          // `zz.ts` touches the work dir itself, which is never swapped: tracking is checked after the swap.
          const events = [...touched, ...Object.keys(files), 'zz.ts'].map((file) => ({
            tool: 'read',
            input: { file_path: file },
            ok: true,
          }));
          for (const event of events) outputs.push(await session.afterTool(event));
          // Swap every top directory for a link out of the work dir, then touch again.
          for (const top of new Set(Object.keys(files).map((file) => file.split('/')[0] as string))) {
            memory.remove(`/w/${top}`);
            memory.set(`/w/${top}`, { symlink: '/s' });
          }
          for (const event of events) outputs.push(await session.afterTool(event));
          outputs.push(JSON.stringify(session.diagnostics), JSON.stringify(session.state()));
          for (const output of outputs) expect(output).not.toContain(SENTINEL);
        },
      ),
      { numRuns: 150 },
    );
  });
});
