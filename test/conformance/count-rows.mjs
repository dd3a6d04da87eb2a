// Rows that count copies (issue #37, DESIGN §13): the host runs with only what `ctxfiles init
// <host>` writes into the case's repository (its user config for Codex), as a user sets it up, and
// each instruction text of the row is counted in the requests that reached the model: exactly one
// copy of each, none missing. A `count` row names its texts: `start`, counted in the first main
// request (after session start), and `end`, counted in the last one (after the row's reads, a
// compaction where the row has one). `CONFORMANCE_REPEAT_HOST_FILES=1` runs the rows with
// `contextDiscovery.repeatHostFiles: true` in the user's ctxfiles config, which turns the
// subtraction of the host's own view off: every row must then differ (a text the host shows
// itself arrives twice).
import fs from 'node:fs';
import path from 'node:path';
import { requestTexts } from './layer-rows.mjs';

/** One text per file, none a substring of another, no path or frame word of any host in it. */
export const TEXT = {
  root: 'Count root: the AGENTS.md at the top, linked as CLAUDE.md.',
  always: 'Count always: a Cursor rule that applies to every file.',
  nested: 'Count nested: the host file of the pkg folder.',
  twin: 'Count twin: the AGENTS.md of the pkg folder, linked as CLAUDE.md.',
  alone: 'Count alone: the AGENTS.md of the lib folder, with no link beside it.',
  rule: 'Count rule: a Claude rule whose paths match the pkg folder.',
  qwenAlways: 'Count qwen always: a Qwen rule without paths.',
  qwenRule: 'Count qwen paths: a Qwen rule whose paths match the pkg folder.',
};

/** The hosts with hooks (`ctxfiles init` writes them): the hook rows run there. */
const HOOK_HOSTS = ['claude-code', 'gemini-cli', 'codex', 'qwen-code', 'cline'];

/** Why a host has no row of the family, read in its shipped code and in init-hosts.ts. */
const NO_HOOKS = {
  opencode: 'no command hooks (init writes only its MCP server): live-count-mcp',
  kilo: 'no command hooks (init writes only its MCP server): live-count-mcp',
  continue: 'no `ctxfiles init continue` (hooks never fire in 1.5.47, docs/hooks.md)',
  copilot: 'no `ctxfiles init copilot`: Copilot CLI has no command hooks ctxfiles uses',
};
const NO_MCP = {
  'qwen-code': 'the lab has no MCP call for Qwen Code (its driver declares none); the hook rows cover it',
  continue: 'no `ctxfiles init continue` writes its MCP server',
  copilot: 'no `ctxfiles init copilot`, and the lab has no MCP call for it',
};
const NO_COMPACT = {
  'gemini-cli':
    'Gemini CLI compresses only at a later prompt of a resumed session: live-count-compact-resumed',
  ...NO_HOOKS,
};

/** The root of every row: an AGENTS.md with a CLAUDE.md link beside it (pydantic/pydantic-ai's shape). */
const ROOT = { 'AGENTS.md': `# Root\n${TEXT.root}\n`, 'CLAUDE.md': { link: 'AGENTS.md' } };
const ALWAYS = { '.cursor/rules/always.mdc': `---\nalwaysApply: true\n---\n${TEXT.always}\n` };
const RULE = { '.claude/rules/pkg.md': `---\npaths: ["pkg/**"]\n---\n${TEXT.rule}\n` };
const FILES = {
  'pkg/a.js': 'export const a = 1;\n',
  'pkg/b.js': 'export const b = 2;\n',
  'pkg/c.js': 'export const c = 3;\n',
  'lib/d.js': 'export const d = 4;\n',
};

/**
 * Gemini CLI as issue #37 found it: `context.fileName` names AGENTS.md beside GEMINI.md in the
 * user's settings, so it loads AGENTS.md files itself (at start, and just in time in a folder a tool
 * touches), which the hook then must not repeat; with the default (GEMINI.md only) no file of these
 * rows is both one Gemini CLI shows and one ctxfiles wants by default.
 */
const GEMINI_AGENTS = { 'gemini-cli': { settings: { context: { fileName: ['AGENTS.md', 'GEMINI.md'] } } } };

const ROWS = [
  {
    id: 'live-count-start',
    about:
      'counted after session start, with only what init writes: the root AGENTS.md (a CLAUDE.md links to it) and a Cursor always rule, once each',
    hosts: HOOK_HOSTS,
    skips: NO_HOOKS,
    count: { start: [TEXT.root, TEXT.always], end: [TEXT.root, TEXT.always] },
    repo: { ...ROOT, ...ALWAYS, ...FILES },
  },
  {
    id: 'live-count-nested',
    about:
      "counted after two reads in a folder with the host's own nested file: the root's and the nested text once each",
    hosts: HOOK_HOSTS,
    skips: NO_HOOKS,
    count: { start: [TEXT.root], end: [TEXT.root, TEXT.nested] },
    repo: { ...ROOT, 'pkg/{DOC}': `# Pkg\n${TEXT.nested}\n`, ...FILES },
    reads: ['pkg/a.js', 'pkg/b.js'],
  },
  {
    id: 'live-count-twin',
    about:
      'counted after reads in a folder with a CLAUDE.md -> AGENTS.md twin and one with an AGENTS.md alone: each text once',
    hosts: HOOK_HOSTS,
    skips: NO_HOOKS,
    count: { start: [TEXT.root], end: [TEXT.root, TEXT.twin, TEXT.alone] },
    repo: {
      ...ROOT,
      'pkg/AGENTS.md': `# Pkg\n${TEXT.twin}\n`,
      'pkg/CLAUDE.md': { link: 'AGENTS.md' },
      'lib/AGENTS.md': `# Lib\n${TEXT.alone}\n`,
      ...FILES,
    },
    reads: ['pkg/a.js', 'lib/d.js', 'pkg/b.js'],
  },
  {
    id: 'live-count-rule',
    about: 'counted after two reads a .claude/rules rule with paths: matches: its text once',
    hosts: HOOK_HOSTS,
    skips: NO_HOOKS,
    count: { start: [TEXT.root], end: [TEXT.root, TEXT.rule] },
    repo: { ...ROOT, ...RULE, ...FILES },
    reads: ['pkg/a.js', 'pkg/b.js'],
  },
  {
    // Cline CLI ignores what its TaskStart hook answers (docs/hooks.md, "Cline CLI"): the start's
    // text (here the Cursor always rule) comes with the first tool call, once.
    id: 'live-count-first-tool',
    about:
      'counted after two reads in the pkg folder, for a host whose start answer is ignored: the root, the always rule (with the first tool call) and the nested file once each',
    hosts: ['cline'],
    count: { start: [TEXT.root], end: [TEXT.root, TEXT.always, TEXT.nested] },
    repo: { ...ROOT, ...ALWAYS, 'pkg/{DOC}': `# Pkg\n${TEXT.nested}\n`, ...FILES },
    reads: ['pkg/a.js', 'pkg/b.js'],
  },
  {
    id: 'live-count-qwen-rules',
    about:
      "counted after two reads a .qwen/rules rule with paths: matches, beside one without: each once (Qwen Code's own rules, which the hook must not repeat)",
    hosts: ['qwen-code'],
    count: { start: [TEXT.root, TEXT.qwenAlways], end: [TEXT.root, TEXT.qwenAlways, TEXT.qwenRule] },
    repo: {
      ...ROOT,
      '.qwen/rules/always.md': `${TEXT.qwenAlways}\n`,
      '.qwen/rules/pkg.md': `---\npaths: ["pkg/**"]\n---\n${TEXT.qwenRule}\n`,
      ...FILES,
    },
    reads: ['pkg/a.js', 'pkg/b.js'],
  },
  {
    id: 'live-count-compact',
    about:
      'counted after the host compacts between reads in the pkg folder: the root, the always rule, the nested file and the path rule once each',
    hosts: ['claude-code', 'codex', 'qwen-code'],
    skips: NO_COMPACT,
    compact: { after: 2 },
    count: {
      start: [TEXT.root, TEXT.always],
      end: [TEXT.root, TEXT.always, TEXT.nested, TEXT.rule],
    },
    repo: { ...ROOT, ...ALWAYS, ...RULE, 'pkg/{DOC}': `# Pkg\n${TEXT.nested}\n`, ...FILES },
    reads: ['pkg/a.js', 'pkg/b.js', 'pkg/c.js'],
  },
  {
    id: 'live-count-compact-resumed',
    about: 'Gemini CLI compresses a resumed session between reads in the pkg folder: each text once after it',
    hosts: ['gemini-cli'],
    compact: { after: 1, run: 1 },
    count: {
      start: [TEXT.root, TEXT.always],
      end: [TEXT.root, TEXT.always, TEXT.nested, TEXT.rule],
    },
    repo: { ...ROOT, ...ALWAYS, ...RULE, 'pkg/{DOC}': `# Pkg\n${TEXT.nested}\n`, ...FILES },
    reads: ['pkg/a.js'],
    resume: { reads: ['pkg/b.js', 'pkg/c.js'] },
  },
  {
    id: 'live-count-mcp',
    about:
      "init's MCP server (mcp --host) answers instructions_for_path for pkg/a.js, then the model reads it: each text once",
    hosts: ['claude-code', 'codex', 'gemini-cli', 'opencode', 'kilo'],
    skips: NO_MCP,
    mcp: { path: 'pkg/a.js' },
    count: { start: [TEXT.root], end: [TEXT.root, TEXT.always, TEXT.nested, TEXT.rule] },
    repo: { ...ROOT, ...ALWAYS, ...RULE, 'pkg/{DOC}': `# Pkg\n${TEXT.nested}\n`, ...FILES },
    reads: ['pkg/a.js'],
  },
];

export const COUNT_ROWS = ROWS.map((row) => ({ ...row, hostConfig: GEMINI_AGENTS }));

/**
 * Runs `ctxfiles init <host>` as a user would, into the case's repository (`--project`) or, for a
 * driver with `initScope: 'user'`, into the user's config; then the driver's `afterInit` (the
 * answers a user gives the host's own prompts about what init wrote).
 */
export async function initInto(host, dirs, setup, { bin, run, env }) {
  const scope = host.initScope ?? 'project';
  const result = await run(process.execPath, [bin, 'init', host.id, `--${scope}`, '--cwd', dirs.repo], {
    cwd: dirs.repo,
    env: { ...env, ...(setup.env ?? {}) },
    timeoutMs: 20_000,
  });
  host.afterInit?.(setup, dirs);
  if (process.env.CONFORMANCE_REPEAT_HOST_FILES === '1') {
    // The user's ctxfiles config, which the hook and the server read wherever they start.
    const dir = path.join(dirs.home, '.config', 'ctxfiles');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'config.json'),
      JSON.stringify({ contextDiscovery: { repeatHostFiles: true } }),
    );
  }
  return `init ${host.id} --${scope}: exit ${result.code}\n${result.stdout}${result.stderr}`;
}

/** How many times `needle` occurs in `text`. */
export const occurrences = (text, needle) => text.split(needle).length - 1;

/**
 * The judgement of a `count` row: one line per text and request, `<request>: <count> × "<text>"`;
 * expected is 1 everywhere. The last main request of a row with reads must carry all of its tool
 * results (the reads, and the MCP call first), and a `compact` row must have compacted.
 */
export function judgeCount(host, row, attempt) {
  const main = attempt.requests.filter(
    (record) => host.isMain(record) && !attempt.compactions.includes(record) && !host.isSideRequest?.(record),
  );
  const first = main[0];
  const last = main.at(-1);
  const lines = (countIn) => [
    ...row.count.start.map((text) => `start: ${countIn(first, text)} × ${JSON.stringify(text)}`),
    ...row.count.end.map((text) => `end: ${countIn(last, text)} × ${JSON.stringify(text)}`),
  ];
  const expected = lines(() => 1);
  const actual = lines((record, text) => (record ? occurrences(requestTexts(record.body), text) : 0));
  if (row.compact) {
    expected.push('compacted: yes');
    actual.push(`compacted: ${attempt.compactions.length > 0 ? 'yes' : 'no'}`);
  }
  const calls = (row.reads?.length ?? 0) + (row.resume?.reads.length ?? 0) + (row.mcp ? 1 : 0);
  if (calls > 0 && !row.compact) {
    expected.push(`tool results in the last request: ${calls}`);
    actual.push(`tool results in the last request: ${last ? host.toolResultCount(last.body) : 0}`);
  }
  return {
    part: 'live',
    status: expected.join('\n') === actual.join('\n') ? 'match' : 'differ',
    expected: expected.join('\n'),
    actual: actual.join('\n'),
  };
}
