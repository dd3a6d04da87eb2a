// `npm run bench:adversarial`: renders large hostile inputs through every format, the escaping,
// the label reader and the token counter, and fails (exit 1) when one takes longer than a
// generous bound. Every pattern applied to file text must be linear: a quadratic one takes
// minutes here, not seconds. Correctness on the same shapes is checked by
// test/adversarial.test.ts and test/count-tokens.test.ts; timing only lives here.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { renderFormat } = await import(path.join(repo, 'dist/render/render-formats.js'));
const { renderInjection } = await import(path.join(repo, 'dist/render/render-injection.js'));
const { labelOf } = await import(path.join(repo, 'dist/discover/label.js'));
const { escapeTags } = await import(path.join(repo, 'dist/render/escape.js'));
const { DEFAULT_CONFIG } = await import(path.join(repo, 'dist/config/defaults.js'));
const { loadTokenCounter } = await import(path.join(repo, 'dist/render/count-tokens.js'));
const countTokens = await loadTokenCounter();

const MIB = 1024 * 1024;
const BOUND_MS = Number(process.env.ADVERSARIAL_BOUND_MS ?? 5000);
const inputs = {
  '`<` + 1 MiB of spaces': `<${' '.repeat(MIB)}`,
  '`<` + spaces + `/` + spaces': `<${' '.repeat(MIB / 2)}/${' '.repeat(MIB / 2)}`,
  '`&amp;` chain + spaces': `&${'amp;'.repeat(MIB / 8)}lt;${' '.repeat(MIB / 2)}`,
  'header lines of backslashes': `${'\\'.repeat(1024)}\n`.repeat(MIB / 1025),
  'a heading with 1 MiB of blanks': `# a${' \t'.repeat(MIB / 2)}b`,
  '1 MiB of `&`': '&'.repeat(MIB),
  '`<` + 600k spaces (tokens)': `<${' '.repeat(600_000)}`,
  '1 MiB of one CJK letter (tokens)': '中'.repeat(MIB / 2),
};
const context = { workDir: '/w', homeDir: '/home/u', wording: DEFAULT_CONFIG.wording };
let failed = false;
for (const [name, text] of Object.entries(inputs)) {
  const started = performance.now();
  for (const format of ['opencode', 'xml', 'reminder', 'magi'])
    renderFormat(format, [{ path: '/w/AGENTS.md', text }], context);
  renderInjection([{ path: '/w/AGENTS.md', text }]);
  labelOf(text.slice(0, 16 * 1024));
  escapeTags(text, ['project_files', 'environment', 'tools']);
  // budget.maxTokens, `prompt` and `explain` count tokens of file text.
  countTokens(text);
  const elapsed = performance.now() - started;
  const ok = elapsed <= BOUND_MS;
  failed ||= !ok;
  console.log(
    `${name.padEnd(40)} ${elapsed.toFixed(1).padStart(9)} ms  ${ok ? 'ok' : `OVER ${BOUND_MS} ms`}`,
  );
}

// The edges of the built bin (Linux: peak memory from /proc): a 700 MB hook stdin, a 700 MB
// `session` line, an MCP client that never reads, `--state` on a FIFO, a lock dated in the future.
// Each prints its time and the process's peak RSS; a case over its bound fails the run.
if (process.platform === 'linux') {
  const { spawn, spawnSync } = await import('node:child_process');
  const fs = await import('node:fs');
  const os = await import('node:os');
  const BIN = path.join(repo, 'dist/bin/ctxfiles.cjs');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-bench-'));
  fs.writeFileSync(path.join(tmp, 'AGENTS.md'), 'root');
  // Claude Code loads AGENTS.md files itself unless a CLAUDE.md is there: then its hook delivers them.
  fs.writeFileSync(path.join(tmp, 'CLAUDE.md'), 'claude root');
  fs.mkdirSync(path.join(tmp, 'svc'));
  fs.writeFileSync(path.join(tmp, 'svc/AGENTS.md'), 'svc rules');
  fs.mkdirSync(path.join(tmp, 'api'));
  fs.writeFileSync(path.join(tmp, 'api/AGENTS.md'), 'api rules');
  const env = { PATH: process.env.PATH, HOME: tmp, CTXFILES_STATE_DIR: path.join(tmp, 'state') };
  const peakOf = (pid) => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {
      return 0;
    }
  };
  /** Runs the bin; `feed(stdin)` writes its input. Peak RSS is sampled until it exits or `timeoutMs`. */
  const runBin = (args, feed, timeoutMs = 60_000) =>
    new Promise((resolve) => {
      const started = performance.now();
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: tmp,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let peak = 0;
      let out = '';
      let err = '';
      const sampler = setInterval(() => (peak = Math.max(peak, peakOf(child.pid))), 20);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.stdout.on('data', (chunk) => (out += chunk).length > 4096 && (out = out.slice(-4096)));
      child.stderr.on('data', (chunk) => (err += chunk).length > 4096 && (err = err.slice(-4096)));
      child.stdin.on('error', () => {});
      child.on('exit', (code, signal) => {
        clearInterval(sampler);
        clearTimeout(timer);
        resolve({ code, signal, ms: performance.now() - started, peak, out, err });
      });
      feed(child.stdin, child);
    });
  const pump = async (stdin, parts) => {
    for (const part of parts) if (!stdin.write(part)) await new Promise((r) => stdin.once('drain', r));
  };
  const big = (mb) => {
    const chunk = Buffer.alloc(1 << 20, 'x');
    return Array.from({ length: mb }, () => chunk);
  };
  const report = (name, result, ok) => {
    failed ||= !ok;
    const status = result.signal ? `killed (${result.signal})` : `exit ${result.code}`;
    console.log(
      `${name.padEnd(40)} ${result.ms.toFixed(0).padStart(7)} ms ${result.peak.toFixed(0).padStart(6)} MB peak  ${status}  ${ok ? 'ok' : 'FAILED'}`,
    );
  };
  const event = JSON.stringify({
    session_id: 's',
    cwd: tmp,
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: `${tmp}/svc/x.ts` },
  });

  const hook = await runBin(['hook', 'claude-code'], async (stdin) => {
    await pump(stdin, [`${event.slice(0, -1)},"tool_response":"`, ...big(700), '"}']);
    stdin.end();
  });
  report(
    'hook: 700 MB on stdin',
    hook,
    hook.code === 0 && /over the \d+ read/.test(hook.err) && hook.peak < 300,
  );

  const session = await runBin(['session'], async (stdin) => {
    await pump(stdin, [...big(700), '\n{"tool":"read","input":{"file_path":"svc/x.ts"},"ok":true}\n']);
    stdin.end();
  });
  report(
    'session: one 700 MB line, then a call',
    session,
    session.code === 0 && session.out.includes('svc rules') && session.peak < 300,
  );

  const mcp = await runBin(['mcp'], async (stdin, child) => {
    child.stdout.pause();
    const request = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`;
    // 100k requests, or until the pipe stays full for 2 s (the server stopped reading).
    for (let sent = 0; sent < 100_000; sent += 1) {
      if (stdin.write(request)) continue;
      const drained = await new Promise((r) => {
        const t = setTimeout(() => r(false), 2_000);
        stdin.once('drain', () => (clearTimeout(t), r(true)));
      });
      if (!drained) break;
    }
    child.kill('SIGKILL');
  });
  report('mcp: 100k requests, answers never read', mcp, mcp.peak < 300);

  spawnSync('mkfifo', [path.join(tmp, 'fifo')]);
  const fifo = await runBin(['session', '--state', 'fifo'], (stdin) => stdin.end(), 10_000);
  report('session --state on a FIFO', fifo, fifo.code === 1 && fifo.ms < 5_000);

  const dead = spawnSync(process.execPath, [
    '-e',
    'process.stdout.write(String(process.pid))',
  ]).stdout.toString();
  const stateDir = env.CTXFILES_STATE_DIR;
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const first = await runBin(['hook', 'claude-code'], (stdin) => stdin.end(event));
  const stateName = fs.readdirSync(stateDir).find((name) => name.endsWith('.json'));
  const lock = path.join(stateDir, `${stateName}.lock`);
  fs.writeFileSync(lock, `${dead} x`);
  const future = new Date(Date.now() + 3_600_000);
  fs.utimesSync(lock, future, future);
  const touch = JSON.stringify({ ...JSON.parse(event), tool_input: { file_path: `${tmp}/api/y.ts` } });
  const locked = await runBin(['hook', 'claude-code'], (stdin) => stdin.end(touch), 20_000);
  report(
    'hook: lock dated in the future, owner dead',
    locked,
    first.code === 0 && locked.ms < 2_000 && locked.out.includes('api rules'),
  );
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

// Hostile repositories on disk, each run through the built CLI in a child process with a time and
// a heap limit: a case that hangs or runs out of memory is reported, not waited for. Each prints
// its time, the child's peak RSS and how it ended (docs/security.md, "Bounds").
const { spawnSync } = await import('node:child_process');
const fs = await import('node:fs');
const os = await import('node:os');
const CASE_TIMEOUT_MS = Number(process.env.ADVERSARIAL_CASE_TIMEOUT_MS ?? 30_000);
const bin = path.join(repo, 'dist/bin/ctxfiles.cjs');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-adversarial-'));

/** Writes `files` (relative path → text) under a new directory of the temp home. */
function tree(name, files) {
  const root = path.join(home, name);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** Runs the CLI with `args` in `cwd`; time, peak RSS (from the child) and the outcome. */
function runCli(cwd, args) {
  const probe = `process.on('exit',()=>{const u=process.resourceUsage();require('fs').writeSync(2,'\\nmaxrss '+u.maxRSS+' cpu '+Math.round((u.userCPUTime+u.systemCPUTime)/1000)+'\\n')});process.argv=[process.argv[0],${JSON.stringify(bin)},...${JSON.stringify(args)}];require(${JSON.stringify(bin)})`;
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--max-old-space-size=2048', '-e', probe], {
    cwd,
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
    },
    timeout: CASE_TIMEOUT_MS,
    maxBuffer: 512 * MIB,
    encoding: 'utf8',
  });
  const elapsed = performance.now() - started;
  const [, rss, cpu] = /maxrss (\d+) cpu (\d+)/.exec(child.stderr ?? '') ?? [];
  const stderr = (child.stderr ?? '').replace(/\nmaxrss \d+ cpu \d+\n/, '');
  const outcome =
    child.signal !== null
      ? `killed (${child.signal}) after ${(elapsed / 1000).toFixed(1)} s`
      : `exit ${child.status}, ${stderr.length} B stderr, ${(child.stdout ?? '').length} B stdout`;
  return {
    elapsed,
    cpu: cpu === undefined ? undefined : Number(cpu),
    rss: rss === undefined ? undefined : Number(rss) / 1024,
    outcome,
    stderr,
  };
}

const longDir = Array.from(
  { length: 14 },
  (_, index) => `${String(index).padStart(2, '0')}${'d'.repeat(200)}`,
).join('/');
const chain = {
  'AGENTS.md': '@a.md\n',
  'a.md': '@b.md\n',
  'b.md': '@c.md\n',
  'c.md': '@d.md\n',
  'd.md': `${'@a.md '.repeat(149_000)}\n`,
};
const nestedChain = { 'AGENTS.md': '@i0.md\n' };
// i31 is at depth 32 (the most the config allows), so each of its references is one too deep.
for (let depth = 0; depth < 31; depth += 1) nestedChain[`i${depth}.md`] = `@i${depth + 1}.md\n`;
nestedChain['i31.md'] = Array.from({ length: 5000 }, (_, index) => `@z${index}.md`).join(' ');
for (let index = 0; index < 5000; index += 1) nestedChain[`z${index}.md`] = 'z\n';
const deep = (count) => Array.from({ length: count }, () => 'd').join('/');
// Rule patterns from repository files (#35.3): 50 Continue rules with 22 long content patterns each
// (1.25 MB), and 600 Cursor rules with 30 brace-heavy globs each (13 MB). Each pattern is distinct,
// so no cache helps.
const continueRules = { 'ctxfiles.config.json': '{"rules":{"sources":["continue"]}}' };
for (let file = 0; file < 50; file += 1) {
  const patterns = Array.from(
    { length: 22 },
    (_, index) => `    - "r${file}p${index}${'(?:\\\\w{1,100}\\\\s){1,9}'.repeat(48)}"`,
  );
  continueRules[`.continue/rules/r${file}.md`] = `---\nregex:\n${patterns.join('\n')}\n---\nRule ${file}.\n`;
}
const cursorRules = { 'ctxfiles.config.json': '{"rules":{"sources":["cursor"]}}' };
const braces = `{${Array.from({ length: 150 }, (_, index) => `d${index}`).join(',')}}`;
for (let file = 0; file < 600; file += 1) {
  const globs = Array.from(
    { length: 30 },
    (_, index) => `  - "g${file}x${index}/{1..1500}/${braces}/**/*.ts"`,
  );
  cursorRules[`.cursor/rules/r${file}.mdc`] = `---\nglobs:\n${globs.join('\n')}\n---\nRule ${file}.\n`;
}
const cases = [
  {
    name: 'imports: 149k references back into a chain (#26.3)',
    cwd:
      tree(
        'imports-cycle',
        Object.fromEntries(
          Object.entries({ ...chain, 'ctxfiles.config.json': '{"imports":{"enabled":true}}' }).map(
            ([file, text]) => [`${longDir}/${file}`, text],
          ),
        ),
      ) + `/${longDir}`,
    args: ['resolve'],
  },
  {
    name: 'imports: 5,000 references past depth (#26.3)',
    cwd: tree('imports-depth', {
      ...nestedChain,
      'ctxfiles.config.json': '{"imports":{"enabled":true,"maxDepth":32}}',
    }),
    args: ['resolve'],
  },
  {
    name: 'rule glob *a*…*x, a name of 30 (#26.4)',
    cwd: tree('rule-glob', {
      'ctxfiles.config.json': '{"rules":{"sources":["cursor"]}}',
      '.cursor/rules/r.mdc': `---\nglobs: "${'*a'.repeat(14)}*x"\n---\nrule\n`,
      [`x${'a'.repeat(29)}`]: 'x\n',
    }),
    args: ['resolve', '--paths', `x${'a'.repeat(29)}`],
  },
  {
    name: '50 Continue rules, 22 long regex each (#35.3)',
    cwd: tree('continue-regex', continueRules),
    args: ['resolve'],
  },
  {
    name: '600 Cursor rules, 30 brace-heavy globs (#35.3)',
    cwd: tree('cursor-braces', cursorRules),
    args: ['resolve', '--paths', 'g0x0/7/d5/a.ts'],
  },
  {
    name: '.opencode.json of 5,000 nested arrays (#26.5)',
    cwd: tree('nested-json', { '.opencode.json': `${'['.repeat(5000)}${']'.repeat(5000)}` }),
    args: ['resolve'],
  },
  {
    name: 'cwd 500 directories deep (#26.17)',
    cwd: tree('deep-500', { [`${deep(500)}/AGENTS.md`]: 'a\n' }) + `/${deep(500)}`,
    args: ['resolve'],
  },
  {
    name: 'cwd 2,000 directories deep (#26.17)',
    cwd: tree('deep-2000', { [`${deep(2000)}/AGENTS.md`]: 'a\n' }) + `/${deep(2000)}`,
    args: ['resolve'],
  },
];
/**
 * `doctor` on what a repository can hold (#35.6): every row bounded by BOUND_MS and 200 MB of peak
 * memory; findings capped at 1,000, the text view without recursion or spread.
 */
function doctorCases() {
  const spans = Array.from({ length: 120_000 }, (_, index) => `\`d/${index}.md\``).join(' ');
  const rule = (index) =>
    `---\nalwaysApply: true\n---\n${`Rule ${index}: see \`src/${index}.ts\` and run npm run x${index}.\n\n`.repeat(20_000)}`.slice(
      0,
      1_000_000,
    );
  return [
    {
      name: 'doctor: 1 MiB AGENTS.md of code spans (#35.6)',
      cwd: tree('doctor-spans', { '.git/HEAD': 'ref: refs/heads/main\n', 'AGENTS.md': spans.slice(0, MIB) }),
      args: ['doctor'],
      bounded: true,
    },
    {
      name: 'doctor --format sarif, the same file (#35.6)',
      cwd: path.join(home, 'doctor-spans'),
      args: ['doctor', '--format', 'sarif'],
      bounded: true,
    },
    {
      name: 'doctor: 40 Cursor rules of 1 MB each (#35.6)',
      cwd: tree('doctor-rules', {
        '.git/HEAD': 'ref: refs/heads/main\n',
        'package.json': '{"scripts":{}}',
        ...Object.fromEntries(
          Array.from({ length: 40 }, (_, index) => [`.cursor/rules/r${index}.mdc`, rule(index)]),
        ),
      }),
      args: ['doctor'],
      bounded: true,
    },
  ];
}

for (const { name, cwd, args, bounded } of [...cases, ...doctorCases()]) {
  const { elapsed, cpu, rss, outcome } = runCli(cwd, args);
  const ok =
    elapsed <= CASE_TIMEOUT_MS - 1 &&
    !outcome.startsWith('killed') &&
    // CPU time, not wall time: on a shared machine the wall clock measures the neighbours.
    (bounded !== true || ((cpu ?? elapsed) <= BOUND_MS && (rss ?? 0) <= 200));
  failed ||= !ok;
  console.log(
    `${name.padEnd(52)} ${elapsed.toFixed(0).padStart(7)} ms ${cpu === undefined ? '      ?' : String(cpu).padStart(7)} ms cpu ${rss === undefined ? '     ?' : rss.toFixed(0).padStart(6)} MB  ${outcome}`,
  );
}
// rm(1): fs.rmSync fails on paths longer than PATH_MAX, which the deep cases make.
spawnSync('rm', ['-rf', home]);
process.exitCode = failed ? 1 : 0;
