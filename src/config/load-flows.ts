import path from 'node:path';
import { z } from 'zod';
import { CtxfilesError, formatProblem, suggest, type CtxfilesErrorCode, type Problem } from '../errors.js';
import { isInside } from '../fs/contain.js';
import { errorCode, isAbsent, type DirEntry, type FileSystem } from '../fs/file-system.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { recordStepPlace } from './flow-locations.js';
import { compileGlob, globBase } from './globs.js';
import { deepFreeze } from '../shared/deep-freeze.js';
import { isSourceFile, readSourceFile } from './read-source.js';
import { contextLayerSchema } from './schema.js';
import { parseSourceText, type SourceText } from './source-text.js';
import type { Flow, FlowStep } from './types.js';
import { toProblems } from './zod-issues.js';

const stepFields = {
  agent: z.string().min(1).optional(),
  extends: z.string().min(1).optional(),
  context: contextLayerSchema.optional(),
};
const stepSchema = z.looseObject({ id: z.string().min(1), ...stepFields });
const templateSchema = z.looseObject({ ...stepFields });
const templatesSchema = z.record(z.string(), templateSchema);
const flowFileSchema = z.strictObject({
  id: z.string().min(1).optional(),
  include: z.array(z.string()).optional(),
  templates: templatesSchema.optional(),
  steps: z.array(stepSchema),
});
const includeFileSchema = z.strictObject({
  include: z.array(z.string()).optional(),
  templates: templatesSchema.optional(),
});

/** Directories never entered while expanding flow globs. */
const PRUNED = new Set(['node_modules', '.git']);
/** Entries a flow glob may visit before it is refused as too broad. */
const MAX_GLOB_ENTRIES = 50_000;

/** Options of {@link loadFlows}. */
export interface LoadFlowsOptions {
  /** Directory the globs are relative to. */
  readonly root: string;
  readonly globs: readonly string[];
  /** Formats a path for messages. */
  readonly display: (file: string) => string;
  /** The filesystem port. Default: Node's. */
  readonly fs?: FileSystem;
}

interface Template {
  readonly value: Record<string, unknown>;
  readonly source: SourceText;
  readonly keyPath: readonly PropertyKey[];
}

/**
 * Finds flow files through the globs and loads them: includes, templates, `extends` chains.
 * @throws CtxfilesError with a `flow-*` code; every problem found is listed.
 */
export function loadFlows(options: Readonly<LoadFlowsOptions>): ReadonlyMap<string, Flow> {
  const fs = options.fs ?? createNodeFileSystem();
  return loadFlowFiles(findFlowFiles(fs, options.root, options.globs, options.display), options.display, {
    fs,
    root: options.root,
  });
}

/**
 * Loads the given flow files (absolute paths) into a map by flow id. Includes must stay inside
 * `root` (by real path); without it, inside the directory of the flow file that starts the chain.
 * @throws CtxfilesError with a `flow-*` code; every problem found is listed.
 */
export function loadFlowFiles(
  files: readonly string[],
  display: (file: string) => string,
  options: { readonly fs?: FileSystem; readonly root?: string } = {},
): ReadonlyMap<string, Flow> {
  const fs = options.fs ?? createNodeFileSystem();
  const flows = new Map<string, Flow>();
  const problems: Array<{ code: CtxfilesErrorCode; problem: Problem }> = [];
  for (const file of files) {
    try {
      const flow = loadFlowFile(fs, file, display, options.root ?? path.dirname(file));
      const existing = flows.get(flow.id);
      if (existing !== undefined) {
        const at = flowIdPlaces.get(flow);
        throw new CtxfilesError('flow-duplicate', [
          formatProblem(
            { file: display(file), keyPath: 'id', ...at },
            `flow id "${flow.id}" is already defined in ${display(existing.file)}${lineOf(flowIdPlaces.get(existing))}`,
          ),
        ]);
      }
      flows.set(flow.id, flow);
    } catch (error) {
      if (!(error instanceof CtxfilesError)) throw error;
      for (const problem of error.problems) problems.push({ code: error.code, problem });
    }
  }
  if (problems.length > 0) {
    throw new CtxfilesError(
      (problems[0] as { code: CtxfilesErrorCode }).code,
      problems.map((entry) => entry.problem),
    );
  }
  return flows;
}

/**
 * Absolute paths of the files the globs match, sorted, without duplicates. A directory that is
 * absent is skipped; any other error listing it is a `config-invalid` error naming the glob. Every
 * glob and every file it names must stay inside `root` (the config's directory) by real path: a
 * repository's config cannot load, and so cannot echo, a file from elsewhere.
 * @throws CtxfilesError `config-invalid` for a glob that leads outside `root`.
 */
export function findFlowFiles(
  fs: FileSystem,
  root: string,
  globs: readonly string[],
  display: (file: string) => string,
): string[] {
  const found = new Set<string>();
  const realRoot = realOrSelf(fs, root);
  const outside = (pattern: string, where: string) =>
    new CtxfilesError('config-invalid', [
      formatProblem(
        { keyPath: 'flows' },
        `the flow glob "${pattern}" leads to ${where}, outside the config's directory ${root}`,
      ),
    ]);
  for (const pattern of globs) {
    const { base, isGlob } = globBase(pattern);
    const start = path.resolve(root, isGlob ? base : pattern);
    if (!isInside(path.resolve(root), start)) throw outside(pattern, start);
    const realStart = realOrNull(fs, start);
    if (realStart !== null && !isInside(realRoot, realStart)) throw outside(pattern, realStart);
    if (!isGlob) {
      if (isSourceFile(fs, start, display(start), 'flow-syntax')) found.add(start);
      continue;
    }
    for (const file of walkGlob(fs, root, pattern, start, display)) found.add(file);
  }
  return [...found].sort();
}

/**
 * The files under `start` that the glob `pattern` matches (relative to `root`), in walk order.
 * @throws CtxfilesError `config-invalid` for a directory that cannot be listed or a walk too large.
 */
function walkGlob(
  fs: FileSystem,
  root: string,
  pattern: string,
  start: string,
  display: (file: string) => string,
): string[] {
  const found: string[] = [];
  const matches = compileGlob(pattern);
  if (typeof matches !== 'function')
    throw new CtxfilesError('config-invalid', [
      formatProblem({ keyPath: 'flows' }, `the glob "${pattern}" is refused: ${matches.problem}`),
    ]);
  const pending = [start];
  let visited = 0;
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries: readonly DirEntry[];
    try {
      entries = fs.readdir(dir);
    } catch (error) {
      if (isAbsent(error)) continue;
      throw new CtxfilesError(
        'config-invalid',
        [
          formatProblem(
            { keyPath: 'flows' },
            `the glob "${pattern}" cannot list ${display(dir)} (${errorCode(error)})`,
          ),
        ],
        { cause: error },
      );
    }
    for (const entry of entries) {
      visited += 1;
      if (visited > MAX_GLOB_ENTRIES) {
        throw new CtxfilesError('config-invalid', [
          formatProblem(
            { keyPath: 'flows' },
            `the glob "${pattern}" visits more than ${MAX_GLOB_ENTRIES} entries; narrow it`,
          ),
        ]);
      }
      const full = path.join(dir, entry.name);
      if (entry.kind === 'directory') {
        if (!PRUNED.has(entry.name)) pending.push(full);
      } else if (entry.kind === 'file' && matches(path.relative(root, full).split(path.sep).join('/'))) {
        found.push(full);
      }
    }
  }
  return found;
}

/** The real path of `file`, or `null` when it cannot be resolved (absent, unreadable). */
function realOrNull(fs: FileSystem, file: string): string | null {
  try {
    return fs.realpath(file);
  } catch {
    // Absent or unreadable: the lexical check above already holds, and the read that follows
    // reports the fault.
    return null;
  }
}

function realOrSelf(fs: FileSystem, dir: string): string {
  return realOrNull(fs, dir) ?? path.resolve(dir);
}

function loadFlowFile(fs: FileSystem, file: string, display: (file: string) => string, root: string): Flow {
  const shown = display(file);
  const source = parseSourceText(readSourceFile(fs, file, shown, 'flow-syntax'), shown, 'flow-syntax');
  const parsed = flowFileSchema.safeParse(source.value ?? {}, { reportInput: true });
  if (!parsed.success)
    throw new CtxfilesError('flow-invalid', toProblems(parsed.error.issues, source, [], knownFlowKeys));
  const misspelled = misspelledStepKeys(parsed.data, source);
  if (misspelled.length > 0) throw new CtxfilesError('flow-invalid', misspelled);
  const templates = new Map<string, Template>();
  collectIncludes(fs, file, source, parsed.data.include ?? [], templates, [file], display, root);
  addTemplates(templates, parsed.data.templates ?? {}, source);

  const resolved = new Map<string, Record<string, unknown>>();
  const steps: FlowStep[] = [];
  const seen = new Map<string, number>();
  parsed.data.steps.forEach((step, index) => {
    const previous = seen.get(step.id);
    if (previous !== undefined) {
      throw new CtxfilesError('flow-duplicate', [
        source.problem(['steps', index, 'id'], `step id "${step.id}" is already used by steps[${previous}]`),
      ]);
    }
    seen.set(step.id, index);
    let merged: Record<string, unknown> = step;
    if (step.extends !== undefined) {
      const base = resolveTemplate(step.extends, templates, resolved, [], source, [
        'steps',
        index,
        'extends',
      ]);
      merged = { ...base, ...step };
    }
    const { extends: _extends, ...rest } = merged;
    const frozenStep = deepFreeze({ ...rest, id: step.id }) as FlowStep;
    const keyPath = step.agent === undefined ? ['steps', index] : ['steps', index, 'agent'];
    const where = source.locate(keyPath);
    recordStepPlace(frozenStep, {
      file: shown,
      line: where?.line,
      column: where?.column,
      keyPath: `steps[${index}]${step.agent === undefined ? '' : '.agent'}`,
    });
    steps.push(frozenStep);
  });
  const id = parsed.data.id ?? path.basename(file).replace(/\.(ya?ml)$/i, '');
  const flow: Flow = Object.freeze({ id, file, steps: Object.freeze(steps) });
  // Where the id is written (the file's first line when it comes from the file name).
  const where = parsed.data.id === undefined ? undefined : source.locate(['id']);
  flowIdPlaces.set(flow, { line: where?.line ?? 1, column: where?.column ?? 1 });
  return flow;
}

function collectIncludes(
  fs: FileSystem,
  file: string,
  source: SourceText,
  includes: readonly string[],
  templates: Map<string, Template>,
  chain: readonly string[],
  display: (file: string) => string,
  root: string,
): void {
  includes.forEach((include, index) => {
    const target = path.resolve(path.dirname(file), include);
    const real = realOrNull(fs, target);
    if (!isInside(path.resolve(root), target) || (real !== null && !isInside(realOrSelf(fs, root), real))) {
      throw new CtxfilesError('flow-invalid', [
        source.problem(
          ['include', index],
          `the include "${include}" leads outside the config's directory ${root}; it is not read`,
        ),
      ]);
    }
    if (chain.includes(target)) {
      const cycle = [...chain.slice(chain.indexOf(target)), target].map(display).join(' -> ');
      throw new CtxfilesError('flow-cycle', [source.problem(['include', index], `include cycle: ${cycle}`)]);
    }
    const shown = display(target);
    if (!isSourceFile(fs, target, shown, 'flow-syntax'))
      throw new CtxfilesError('flow-invalid', [
        source.problem(['include', index], `the include "${include}" names ${shown}, which does not exist`),
      ]);
    const included = parseSourceText(readSourceFile(fs, target, shown, 'flow-syntax'), shown, 'flow-syntax');
    const parsed = includeFileSchema.safeParse(included.value ?? {}, { reportInput: true });
    if (!parsed.success)
      throw new CtxfilesError(
        'flow-invalid',
        toProblems(parsed.error.issues, included, [], knownIncludeKeys),
      );
    const misspelled = misspelledStepKeys({ steps: [], templates: parsed.data.templates }, included);
    if (misspelled.length > 0) throw new CtxfilesError('flow-invalid', misspelled);
    collectIncludes(
      fs,
      target,
      included,
      parsed.data.include ?? [],
      templates,
      [...chain, target],
      display,
      root,
    );
    addTemplates(templates, parsed.data.templates ?? {}, included);
  });
}

function addTemplates(
  templates: Map<string, Template>,
  values: Record<string, Record<string, unknown>>,
  source: SourceText,
): void {
  for (const [id, value] of Object.entries(values)) {
    const existing = templates.get(id);
    if (existing !== undefined) {
      const where = existing.source.locate(existing.keyPath);
      const at = `${existing.source.file}${where ? `:${where.line}:${where.column}` : ''}`;
      throw new CtxfilesError('flow-duplicate', [
        source.problem(['templates', id], `template "${id}" is already defined at ${at}`),
      ]);
    }
    templates.set(id, { value, source, keyPath: ['templates', id] });
  }
}

function resolveTemplate(
  id: string,
  templates: ReadonlyMap<string, Template>,
  resolved: Map<string, Record<string, unknown>>,
  chain: readonly string[],
  source: SourceText,
  keyPath: readonly PropertyKey[],
): Record<string, unknown> {
  const done = resolved.get(id);
  if (done !== undefined) return done;
  if (chain.includes(id)) {
    const cycle = [...chain.slice(chain.indexOf(id)), id].join(' -> ');
    throw new CtxfilesError('flow-cycle', [source.problem(keyPath, `template cycle: ${cycle}`)]);
  }
  const template = templates.get(id);
  if (template === undefined) {
    const known = [...templates.keys()].sort();
    throw new CtxfilesError('flow-unknown-template', [
      source.problem(
        keyPath,
        `unknown template "${id}". ${known.length > 0 ? `Known templates: ${known.join(', ')}.` : 'No templates are defined.'}`,
      ),
    ]);
  }
  let value = template.value;
  const parent = value['extends'];
  if (typeof parent === 'string') {
    const base = resolveTemplate(parent, templates, resolved, [...chain, id], template.source, [
      ...template.keyPath,
      'extends',
    ]);
    value = { ...base, ...value };
  }
  const { extends: _extends, ...rest } = value;
  resolved.set(id, rest);
  return rest;
}

/** Where each loaded flow's id is written, for the duplicate-id message. */
const flowIdPlaces = new WeakMap<Flow, { line: number; column: number }>();

function lineOf(place: { line: number; column: number } | undefined): string {
  return place === undefined ? '' : `:${place.line}:${place.column}`;
}

/** The keys of a step (a template has all but `id`) that ctxfiles reads; any other passes through. */
const STEP_KEYS = ['id', 'agent', 'extends', 'context'] as const;

/**
 * Keys of steps and templates that are not ctxfiles' but within a typo of one (`agnet`, `contxt`):
 * errors with a "Did you mean" hint. Other unknown keys pass through to the embedder (docs/flows).
 */
function misspelledStepKeys(
  data: {
    steps: readonly Record<string, unknown>[];
    templates?: Record<string, Record<string, unknown>> | undefined;
  },
  source: SourceText,
): Problem[] {
  const problems: Problem[] = [];
  const check = (
    value: Record<string, unknown>,
    keyPath: readonly PropertyKey[],
    known: readonly string[],
  ) => {
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const hint = suggest(key, known);
      if (hint !== undefined)
        problems.push(
          source.problem(
            [...keyPath, key],
            `unknown key "${key}". Did you mean "${hint}"? (Keys ctxfiles does not read pass through, but this one is a typo of one it does.)`,
            'key',
          ),
        );
    }
  };
  data.steps.forEach((step, index) => check(step, ['steps', index], STEP_KEYS));
  for (const [id, template] of Object.entries(data.templates ?? {}))
    check(template, ['templates', id], STEP_KEYS.slice(1));
  return problems;
}

function knownFlowKeys(keyPath: readonly PropertyKey[]): readonly string[] {
  if (keyPath.length === 0) return ['id', 'include', 'templates', 'steps'];
  if (keyPath[keyPath.length - 1] === 'context') return ['paths', 'mode', 'nested'];
  return [];
}

function knownIncludeKeys(keyPath: readonly PropertyKey[]): readonly string[] {
  if (keyPath.length === 0) return ['include', 'templates'];
  return knownFlowKeys(keyPath);
}
