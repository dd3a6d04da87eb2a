import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ResolveRequest } from '../api/select-request.js';
import type { Resolver } from '../api/create-resolver.js';
import { CtxfilesError } from '../errors.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { buildSystemPrompt, type BuildPromptOptions } from '../prompt/build-system-prompt.js';
import { explain, formatExplain } from '../prompt/explain.js';
import { loadFragments } from '../prompt/fragments.js';
import type { McpServerInfo } from '../prompt/mcp.js';
import { discoverSkills } from '../prompt/skills.js';
import type { CliIo } from './io.js';

/** Flags of `prompt` and `explain`. */
export interface PromptFlags {
  readonly input?: string | undefined;
  readonly tools?: string | undefined;
  readonly skillsRoot?: readonly string[] | undefined;
  readonly mcp?: string | undefined;
  readonly base?: string | undefined;
  readonly fragments?: string | undefined;
  readonly date?: string | undefined;
  readonly json?: boolean | undefined;
}

/** The JSON file of `--input`: everything a runner in another language knows. */
interface PromptInput {
  base?: string;
  tools?: Array<string | { name: string; guidance?: string }>;
  subagents?: Array<{ name: string; description?: string }>;
  skillsRoots?: string[];
  skillLoaders?: string[];
  mcpServers?: McpServerInfo[];
  environment?: { date?: string; cwd?: string };
  fragmentsDir?: string;
  conflictNotes?: boolean;
}

/** Builds the prompt for `ctxfiles prompt` and `ctxfiles explain`; flags win over `--input`. */
async function assemble(flags: PromptFlags, resolver: Resolver, request: ResolveRequest, io: CliIo) {
  const input: PromptInput =
    flags.input === undefined ? {} : (readJson(path.resolve(io.cwd, flags.input), '--input') as PromptInput);
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new CtxfilesError('prompt-invalid', '--input: expected a JSON object');
  const fs = createNodeFileSystem();
  const result = await resolver.resolve(request);
  const roots = [...(input.skillsRoots ?? []), ...(flags.skillsRoot ?? [])].map((root) =>
    path.resolve(io.cwd, root),
  );
  const catalog = roots.length > 0 ? discoverSkills(fs, roots) : undefined;
  const fragmentsDir = flags.fragments ?? input.fragmentsDir;
  const options: BuildPromptOptions = {
    base: flags.base !== undefined ? readFileSync(path.resolve(io.cwd, flags.base), 'utf8') : input.base,
    tools:
      flags.tools !== undefined
        ? flags.tools
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name !== '')
        : input.tools,
    subagents: input.subagents,
    skills: catalog?.skills,
    skillLoaders: input.skillLoaders,
    mcpServers:
      flags.mcp !== undefined
        ? (readJson(path.resolve(io.cwd, flags.mcp), '--mcp') as McpServerInfo[])
        : input.mcpServers,
    project: result,
    conflictNotes: input.conflictNotes,
    environment: {
      date: flags.date ?? input.environment?.date,
      cwd: input.environment?.cwd ?? resolver.workDir,
    },
    env: io.env,
    fragments: fragmentsDir === undefined ? undefined : loadFragments(fs, path.resolve(io.cwd, fragmentsDir)),
  };
  const prompt = await buildSystemPrompt(options);
  return { prompt, result, skillDiagnostics: catalog?.diagnostics ?? [] };
}

/** `ctxfiles prompt`: prints the assembled system prompt (or `{ text, sections }` with `--json`). */
export async function promptCommand(
  flags: PromptFlags,
  resolver: Resolver,
  request: ResolveRequest,
  io: CliIo,
): Promise<number> {
  const { prompt } = await assemble(flags, resolver, request, io);
  io.stdout.write(flags.json ? `${JSON.stringify(prompt, null, 2)}\n` : prompt.text);
  return 0;
}

/** `ctxfiles explain`: sections with sizes and shares, files with outcomes, diagnostics. */
export async function explainCommand(
  flags: PromptFlags,
  resolver: Resolver,
  request: ResolveRequest,
  io: CliIo,
): Promise<number> {
  const { prompt, result, skillDiagnostics } = await assemble(flags, resolver, request, io);
  const report = await explain(prompt, {
    ...result,
    diagnostics: [...result.diagnostics, ...skillDiagnostics],
  });
  io.stdout.write(
    flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatExplain(report, resolver.workDir),
  );
  return 0;
}

function readJson(file: string, flag: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (error) {
    throw new CtxfilesError('prompt-invalid', `${flag} ${file}: ${(error as Error).message}`);
  }
}
