import { statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseSourceText, type SourceText } from '../config/source-text.js';
import { readSourceFile, relativeDisplay } from '../config/read-source.js';
import { toProblems } from '../config/zod-issues.js';
import { CtxfilesError, describeJsonError, formatProblem } from '../errors.js';
import { errorCode, isAbsent } from '../fs/file-system.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import type { McpServerInfo } from '../prompt/mcp.js';

/**
 * The inputs of `prompt` and `explain` that come from the user's files (`--input`, `--mcp`,
 * `--base`, `--fragments`): checked here, reported like config errors (file, line:col, key path;
 * exit 1), never passed on malformed (docs/prompt.md, "Inputs").
 */

const toolSchema = z.union([
  z.string(),
  z.strictObject({ name: z.string(), guidance: z.string().optional() }),
]);

/** One MCP server as `--mcp` and `mcpServers` give it; other keys pass through. */
const mcpServerSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  status: z.string(),
  toolCount: z.number().int().min(0),
  access: z.enum(['codemode', 'direct']).optional(),
  instructions: z.string().optional(),
});

const mcpServersSchema = z.array(mcpServerSchema);

/** The JSON of `--input`: everything a runner in another language knows. */
const promptInputSchema = z.strictObject({
  base: z.string().optional(),
  tools: z.array(toolSchema).optional(),
  subagents: z.array(z.strictObject({ name: z.string(), description: z.string().optional() })).optional(),
  skillsRoots: z.array(z.string()).optional(),
  skillLoaders: z.array(z.string()).optional(),
  mcpServers: mcpServersSchema.optional(),
  environment: z.strictObject({ date: z.string().optional(), cwd: z.string().optional() }).optional(),
  fragmentsDir: z.string().optional(),
  conflictNotes: z.boolean().optional(),
});

/** A checked `--input`. */
export type PromptInput = z.infer<typeof promptInputSchema>;

const INPUT_KEYS = Object.keys(promptInputSchema.shape);
const MCP_KEYS = Object.keys(mcpServerSchema.shape);
const TOOL_KEYS = ['name', 'guidance'];

/**
 * Reads `--input`: a JSON file, or inline JSON when the value starts with `{`.
 * @throws CtxfilesError `prompt-invalid` naming the file (or `--input`), line:col and key path.
 */
export function readPromptInput(value: string, cwd: string): PromptInput {
  const source = readJsonArgument(value, cwd, '--input');
  return check(promptInputSchema, source, INPUT_KEYS);
}

/**
 * Reads `--mcp`: a JSON file, or inline JSON when the value starts with `[`, holding an array of servers.
 * @throws CtxfilesError `prompt-invalid` as {@link readPromptInput}.
 */
export function readMcpServers(value: string, cwd: string): McpServerInfo[] {
  const source = readJsonArgument(value, cwd, '--mcp');
  return check(mcpServersSchema, source, MCP_KEYS) as McpServerInfo[];
}

/**
 * Reads the text of a file named by a flag (`--base`).
 * @throws CtxfilesError `prompt-invalid` when it is missing, a directory, not a regular file or unreadable.
 */
export function readTextArgument(file: string, cwd: string, flag: string): string {
  const absolute = path.resolve(cwd, file);
  return readSourceFile(
    createNodeFileSystem(),
    absolute,
    `${flag} ${shown(absolute, cwd)}`,
    'prompt-invalid',
  );
}

/**
 * Checks that a flag names an existing directory (`--fragments`, `--skills-root`, `fragmentsDir`).
 * @throws CtxfilesError `prompt-invalid` otherwise.
 */
export function checkDirectoryArgument(dir: string, cwd: string, flag: string): string {
  const absolute = path.resolve(cwd, dir);
  let isDirectory = false;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch (error) {
    const why = isAbsent(error) ? 'does not exist' : `cannot be read (${errorCode(error)})`;
    throw new CtxfilesError('prompt-invalid', [
      formatProblem({ file: `${flag} ${shown(absolute, cwd)}` }, why),
    ]);
  }
  if (!isDirectory)
    throw new CtxfilesError('prompt-invalid', [
      formatProblem({ file: `${flag} ${shown(absolute, cwd)}` }, 'not a directory'),
    ]);
  return absolute;
}

function readJsonArgument(value: string, cwd: string, flag: string): SourceText {
  if (/^\s*[[{]/.test(value)) return parseJson(value, flag);
  return parseJson(readTextArgument(value, cwd, flag), `${flag} ${shown(path.resolve(cwd, value), cwd)}`);
}

function parseJson(text: string, name: string): SourceText {
  const source = parseSourceText(text, name, 'prompt-invalid');
  // JSON only: YAML would read a bare word as a string and accept what a runner did not mean.
  try {
    JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw new CtxfilesError('prompt-invalid', [
      formatProblem({ file: name }, describeJsonError(error, text)),
    ]);
  }
  return source;
}

function check<T>(schema: z.ZodType<T>, source: SourceText, keys: readonly string[]): T {
  const parsed = schema.safeParse(source.value, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw new CtxfilesError(
    'prompt-invalid',
    toProblems(parsed.error.issues, source, [], (keyPath) =>
      keyPath.length === 0 ? keys : keyPath.includes('tools') ? TOOL_KEYS : MCP_KEYS,
    ),
  );
}

/** A flag's path as messages show it: relative to the cwd, the full path for the cwd itself. */
function shown(file: string, cwd: string): string {
  return file === cwd ? file : relativeDisplay(cwd)(file);
}
