// `node bench/hook.mjs [small|medium|large…]` (after `npm run build`): the cost of one whole
// `ctxfiles hook claude-code` process when nothing is due, against `node -e 0`, on the generated
// trees of bench/generate.mjs (target ≤ 1.5×), and the hook command exactly as `ctxfiles init
// claude-code` writes it, in a small project with rules on by default (target ≤ 1.3×; also a row of
// `npm run bench`, through {@link measureInitHook}). A benchmark, not a test. Runs each pair
// BENCH_RUNS times (default 15), interleaved after one warm-up round, and prints medians. The
// measured processes keep their compile cache in bench/.work/cache (bench/measure.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generate, SIZES } from './generate.mjs';
import { cacheEnv, runCommand, timeCommands } from './measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = process.env.BENCH_BIN ?? path.join(here, '..', 'dist/bin/ctxfiles.cjs');
const work = path.join(here, '.work');

/**
 * A small project: a CLAUDE.md, two AGENTS.md, a Cursor always rule and a glob rule, no config (rules
 * on by default). Claude Code loads the AGENTS.md files itself where a project has no CLAUDE.md, and
 * the hook then adds none of them.
 */
const SMALL_PROJECT = {
  'CLAUDE.md': '# Project\n\nSee AGENTS.md.\n',
  'AGENTS.md': '# Project\n\nRun the tests before a commit.\n',
  'packages/app/AGENTS.md': '# App\n\nKeep components small.\n',
  'packages/app/src/index.ts': 'export const answer = 42;\n',
  'packages/app/src/view.ts': 'export const view = 1;\n',
  '.cursor/rules/style.mdc': '---\nalwaysApply: true\n---\nAlways use tabs.\n',
  '.cursor/rules/typescript.mdc': '---\nglobs: "**/*.ts"\nalwaysApply: false\n---\nStrict TypeScript.\n',
  'README.md': '# Project\n',
};

/**
 * The PostToolUse hook command `ctxfiles init claude-code` writes into a small project's
 * `.claude/settings.json` (absolute node and bin), run through `/bin/sh -c` as Claude Code runs it,
 * for a `Read` with nothing due (the file's nested AGENTS.md and glob rule were added by the read
 * before), against `node -e 0` started the same way. Returns the medians and the command. With
 * `count` (bench/instructions.mjs's countInstructions), also the instructions of one such hook
 * process and of `node -e 0`, both run directly (not through the shell), with the same input and
 * environment: `instructions: { node, hook }`.
 */
export function measureInitHook(runs, count) {
  const root = path.join(work, 'init-hook');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(path.join(root, '.git'), { recursive: true });
  for (const [name, text] of Object.entries(SMALL_PROJECT)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-init-hook-bench-'));
  try {
    runCommand([process.execPath, [bin, 'init', 'claude-code', '--cwd', root], { env: cacheEnv }]);
    const settings = JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8'));
    const command = settings.hooks.PostToolUse[0].hooks[0].command;
    if (!command.startsWith(`${process.execPath} `) || !command.endsWith(' hook claude-code'))
      throw new Error(`unexpected hook command: ${command}`);
    // Claude Code runs the command through a shell, in the project, with CLAUDE_PROJECT_DIR set.
    const env = { ...cacheEnv, CTXFILES_STATE_DIR: stateDir, CLAUDE_PROJECT_DIR: root };
    const shell = (line, input) => ['/bin/sh', ['-c', line], { cwd: root, env, input }];
    const event = (extra) =>
      JSON.stringify({ session_id: 'bench-init', transcript_path: '/dev/null', cwd: root, ...extra });
    const read = event({
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: path.join(root, 'packages/app/src/index.ts') },
      tool_response: { type: 'text' },
    });
    const start = runCommand(shell(command, event({ hook_event_name: 'SessionStart', source: 'startup' })));
    if (!start.stdout.includes('Always use tabs.'))
      throw new Error(`no always rule at session start: ${start.stdout}`);
    const first = runCommand(shell(command, read)).stdout;
    if (!first.includes('Keep components small.') || !first.includes('Strict TypeScript.'))
      throw new Error(`the first read did not add the nested file and the glob rule: ${first}`);
    const nodeLine = `${process.execPath} -e 0`;
    const [node, hook] = timeCommands([shell(nodeLine, read), shell(command, read)], runs, {
      check: (result, index) => {
        if (index === 1 && (result.stdout !== '' || result.stderr !== ''))
          throw new Error(`the hook answered: ${result.stdout}${result.stderr}`);
      },
    });
    let instructions;
    if (count !== undefined) {
      // The command is `<node> <bin> hook claude-code` (checked above): run without the shell.
      const args = command.slice(process.execPath.length + 1).split(' ');
      // A compile cache of its own, written by the first counted run (these Node options), so that
      // no cache another run wrote for another event is what V8 takes.
      const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-count-cache-'));
      try {
        const direct = { cwd: root, env: { ...env, XDG_CACHE_HOME: cache }, input: read };
        count(args, direct);
        instructions = { node: count(['-e', '0'], direct), hook: count(args, direct) };
      } finally {
        fs.rmSync(cache, { recursive: true, force: true });
      }
    }
    return { node, hook, command, instructions };
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

const main = import.meta.url === pathToFileURL(process.argv[1] ?? '').href;
const runs = Number(process.env.BENCH_RUNS ?? 15);
const sizes = main ? process.argv.slice(2).filter((arg) => arg in SIZES) : [];

if (main) {
  const { node, hook } = measureInitHook(runs);
  const ratio = hook / node;
  console.log(
    `${'hook as `init claude-code` writes it, nothing due (small)'.padEnd(60)} ` +
      `${hook.toFixed(1)} ms vs node -e 0 ${node.toFixed(1)} ms = ${ratio.toFixed(2)}×, target ≤ 1.3×: ${ratio <= 1.3 ? 'ok' : 'MISSED'}`,
  );
}
for (const size of !main ? [] : sizes.length > 0 ? sizes : ['small', 'large']) {
  const tree = generate(path.join(work, size), size);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-hook-bench-'));
  const env = { ...cacheEnv, CTXFILES_STATE_DIR: stateDir };
  const event = (extra) =>
    JSON.stringify({ session_id: 'bench', transcript_path: '/dev/null', cwd: tree.root, ...extra });
  const nested = tree.expected[0];
  const touched = path.join(tree.root, path.dirname(nested), 'f0.ts');
  const read = event({
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: touched },
  });
  // `ctxfiles hook claude-code` reading `input`, as a command of bench/measure.mjs.
  const hookOn = (input) => [process.execPath, [bin, 'hook', 'claude-code'], { input, env }];
  // Session start, then the first read injects the file's owners; every later read has nothing due.
  runCommand(hookOn(event({ hook_event_name: 'SessionStart', source: 'startup' })));
  const first = runCommand(hookOn(read));
  if (!first.stdout.includes('additionalContext')) throw new Error(`nothing injected for ${touched}`);
  const [node, hook] = timeCommands(
    [[process.execPath, ['-e', '0'], { input: read, env }], hookOn(read)],
    runs,
    {
      check: (result, index) => {
        if (index === 1 && (result.stdout !== '' || result.stderr !== ''))
          throw new Error(`the hook answered: ${result.stdout}${result.stderr}`);
      },
    },
  );
  const ratio = hook / node;
  console.log(
    `${`hook, nothing due (${size}: ${tree.files} files, ${tree.expected.length} nested)`.padEnd(60)} ` +
      `${hook.toFixed(1)} ms vs node -e 0 ${node.toFixed(1)} ms = ${ratio.toFixed(2)}×, target ≤ 1.5×: ${ratio <= 1.5 ? 'ok' : 'MISSED'}`,
  );
  // Codex as `ctxfiles init codex` writes it: its shell tool, read for paths (--shell-paths).
  const bash = event({
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: `ls -la ${path.dirname(touched)} | head -20` },
  });
  const codexOn = (input) => [process.execPath, [bin, 'hook', 'codex', '--shell-paths'], { input, env }];
  runCommand(codexOn(event({ hook_event_name: 'SessionStart', source: 'startup' })));
  if (!runCommand(codexOn(bash)).stdout.includes('additionalContext'))
    throw new Error('nothing injected for codex');
  const [node2, codex] = timeCommands(
    [[process.execPath, ['-e', '0'], { input: bash, env }], codexOn(bash)],
    runs,
    {
      check: (result, index) => {
        if (index === 1 && result.stdout !== '') throw new Error(`the codex hook answered: ${result.stdout}`);
      },
    },
  );
  console.log(
    `${`codex hook --shell-paths, nothing due (${size})`.padEnd(60)} ${codex.toFixed(1)} ms vs node -e 0 ${node2.toFixed(1)} ms = ${(codex / node2).toFixed(2)}×`,
  );
  fs.rmSync(stateDir, { recursive: true, force: true });
}
