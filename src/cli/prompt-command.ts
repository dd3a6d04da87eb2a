import path from 'node:path';
import type { ResolveRequest } from '../api/select-request.js';
import type { Resolver } from '../api/create-resolver.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { buildSystemPrompt, type BuildPromptOptions } from '../prompt/build-system-prompt.js';
import { explain, formatExplain } from '../prompt/explain.js';
import { loadFragments } from '../prompt/fragments.js';
import { discoverSkills } from '../prompt/skills.js';
import { writeDiagnostics, type CliIo } from './io.js';
import type { PromptInput } from './prompt-input.js';

/** Flags of `prompt` and `explain`. */
export interface PromptFlags {
  readonly input?: string | undefined;
  /** `--tools`: names, repeated, space- or comma-separated (split by the CLI's list parser). */
  readonly tools?: readonly string[] | undefined;
  readonly skillsRoot?: readonly string[] | undefined;
  readonly mcp?: string | undefined;
  readonly base?: string | undefined;
  readonly fragments?: string | undefined;
  readonly date?: string | undefined;
  readonly json?: boolean | undefined;
}

/** Stand-ins for the argument readers when no file argument is given: never called then. */
const NO_ARGUMENTS = {
  checkDirectoryArgument: (dir: string): string => dir,
  readMcpServers: (): never[] => [],
  readPromptInput: (): PromptInput => ({}),
  readTextArgument: (text: string): string => text,
};

/** Builds the prompt for `ctxfiles prompt` and `ctxfiles explain`; flags win over `--input`. */
async function assemble(flags: PromptFlags, resolver: Resolver, request: ResolveRequest, io: CliIo) {
  // The readers of --input and the other file arguments validate with zod: loaded only when one is
  // given (zod cost `explain` more than its own work).
  const given = [flags.input, flags.mcp, flags.base, flags.fragments].some((flag) => flag !== undefined);
  const { checkDirectoryArgument, readMcpServers, readPromptInput, readTextArgument } = given
    ? await import('./prompt-input.js')
    : NO_ARGUMENTS;
  const input: PromptInput = flags.input === undefined ? {} : readPromptInput(flags.input, io.cwd);
  const base = flags.base !== undefined ? readTextArgument(flags.base, io.cwd, '--base') : input.base;
  const mcpServers = flags.mcp !== undefined ? readMcpServers(flags.mcp, io.cwd) : input.mcpServers;
  const fragmentsDir =
    flags.fragments !== undefined
      ? checkDirectoryArgument(flags.fragments, io.cwd, '--fragments')
      : input.fragmentsDir !== undefined
        ? checkDirectoryArgument(input.fragmentsDir, io.cwd, 'fragmentsDir')
        : undefined;
  const fs = createNodeFileSystem();
  const result = await resolver.resolve(request);
  const roots = [...(input.skillsRoots ?? []), ...(flags.skillsRoot ?? [])].map((root) =>
    path.resolve(io.cwd, root),
  );
  const catalog = roots.length > 0 ? discoverSkills(fs, roots) : undefined;
  const options: BuildPromptOptions = {
    base,
    tools: flags.tools !== undefined ? [...flags.tools] : input.tools,
    subagents: input.subagents,
    skills: catalog?.skills,
    skillLoaders: input.skillLoaders,
    mcpServers,
    project: result,
    conflictNotes: input.conflictNotes,
    environment: {
      date: flags.date ?? input.environment?.date,
      cwd: input.environment?.cwd ?? resolver.workDir,
    },
    env: io.env,
    fragments: fragmentsDir === undefined ? undefined : loadFragments(fs, fragmentsDir),
  };
  const prompt = await buildSystemPrompt(options);
  return { prompt, result, diagnostics: [...result.diagnostics, ...(catalog?.diagnostics ?? [])] };
}

/** `ctxfiles prompt`: prints the assembled system prompt (or `{ text, sections }` with `--json`). */
export async function promptCommand(
  flags: PromptFlags,
  resolver: Resolver,
  request: ResolveRequest,
  io: CliIo,
): Promise<number> {
  const { prompt, diagnostics } = await assemble(flags, resolver, request, io);
  // The diagnostics of what was resolved, as `resolve` reports them (docs/cli.md).
  if (flags.json) io.stdout.write(`${JSON.stringify({ ...prompt, diagnostics }, null, 2)}\n`);
  else {
    io.stdout.write(prompt.text);
    writeDiagnostics(diagnostics, io);
  }
  return 0;
}

/** `ctxfiles explain`: sections with sizes and shares, files with outcomes, diagnostics. */
export async function explainCommand(
  flags: PromptFlags,
  resolver: Resolver,
  request: ResolveRequest,
  io: CliIo,
): Promise<number> {
  const { prompt, result, diagnostics } = await assemble(flags, resolver, request, io);
  const report = await explain(prompt, { ...result, diagnostics });
  io.stdout.write(
    flags.json
      ? `${JSON.stringify(report, null, 2)}\n`
      : formatExplain(report, resolver.workDir, { ascii: !isUtf8Locale(io.env) }),
  );
  return 0;
}

/**
 * True when the locale says UTF-8: the first set of LC_ALL, LC_CTYPE, LANG (POSIX precedence)
 * names UTF-8. Otherwise `explain` draws its bars in ASCII.
 */
export function isUtf8Locale(env: Readonly<Record<string, string | undefined>>): boolean {
  const locale = [env['LC_ALL'], env['LC_CTYPE'], env['LANG']].find(
    (value) => value !== undefined && value !== '',
  );
  return locale !== undefined && /utf-?8/i.test(locale);
}
