#!/usr/bin/env node
import path from 'node:path';
import { loadBundle } from './compile-cache.js';

// The bin is a small CommonJS loader (dist/bin/ctxfiles.cjs). It picks one of two CommonJS
// bundles — the hook alone, or every other command — and loads it through the compile cache
// (src/cli/compile-cache.ts): CommonJS spares Node's ES module loader at start-up, and the cache
// spares compiling the bundle again (docs/performance.md, "Start-up").

/** Digests of the bundles' text, set by scripts/bundle-cli.mjs when it builds this file. */
declare const CTXFILES_BUNDLE_DIGESTS: Readonly<Record<string, string>>;

/**
 * Loads another bundle of `dist/bin` by name (`hook-run`) through the compile cache, and returns its
 * exports: a bundle's `main` gets it for the parts it loads only when they are needed.
 */
export type LoadBundle = (name: string) => unknown;

/** The commands whose run walks the nested files of the work dir. */
const WALKING_COMMANDS = new Set(['manifest', 'session', 'explain', 'prompt', 'mcp']);

const argv = process.argv.slice(2);
// Commands that walk the tree allocate a short-lived listing per directory; left alone, V8 doubles
// its young generation again and again while a large tree is walked, and the process ends ~5 MB
// larger for it. Growth factor 1 keeps it at its first size at no measurable cost in time
// (docs/performance.md, "Memory"). Only this process's V8 is tuned, never an embedder's.
// node:v8 loads only then: it costs a run that needs no tuning about as much as reading its files.
if (WALKING_COMMANDS.has(argv[0] ?? ''))
  (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--semi-space-growth-factor=1');
// An agent runs `ctxfiles hook` on every tool call: its bundle holds nothing else.
// `hook --help` is printed by the CLI bundle, in the style of every command's help.
const helpFlag = (arg: string) => arg === '--help' || arg === '-h';
// `resolve`, which a runner starts for every agent, and `manifest` have a bundle of their own
// without commander; it hands any command line but a plain one to the CLI bundle.
const name =
  argv[0] === 'hook' && !argv.slice(0, argv.includes('--') ? argv.indexOf('--') : undefined).some(helpFlag)
    ? 'hook'
    : argv[0] === 'resolve' || argv[0] === 'manifest'
      ? 'resolve'
      : 'cli';
// The first bundle's code is cached only by a run that did not hand its work to another bundle:
// the hook's quick check keeps the code of a tool call with nothing due, not of a session start.
let handedOn = false;
const load: LoadBundle = (bundle) => {
  // A host's bundle, or every host's (src/cli/lazy-hosts.ts), is a part of this run's work, not the
  // work handed on.
  if (bundle !== name && bundle !== 'hosts' && !bundle.startsWith('host-')) handedOn = true;
  return loadBundle(
    {
      file: path.join(__dirname, `${bundle}.cjs`),
      digest: CTXFILES_BUNDLE_DIGESTS[bundle] ?? '',
      command: argv[0] ?? '',
      require,
      ...(bundle === name ? { keep: () => !handedOn } : {}),
    },
    process.env,
  );
};
const bundle = load(name) as { main(argv: readonly string[], load: LoadBundle): Promise<number> };
void bundle.main(argv, load).then((code) => {
  process.exitCode = code;
});
