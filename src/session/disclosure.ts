import path from 'node:path';
import type { Format, WordingConfig } from '../config/types.js';
import { isInside } from '../fs/contain.js';
import type { NestedFile, NestedIndex } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import type { Rule } from '../rules/rule.js';
import { renderEvent } from '../render/render-events.js';
import { renderSessionFrame } from '../render/render-session-frame.js';
import {
  createChangeTracker,
  isTrackable,
  trackingContainment,
  type TrackedRecord,
} from './change-tracking.js';
import { dueNestedFiles, readNested } from './injection.js';
import {
  dueRules,
  nestedRulesByOwner,
  readRule,
  ruleBodyOf,
  ruleNote,
  type SessionRules,
} from './rule-injection.js';
import { BUILT_IN_TOOLS, type ToolTable } from './tool-table.js';
import { touchedPaths, type ToolEvent } from './triggers.js';

export type { TrackedRecord } from './change-tracking.js';

/** One injected nested file in the session state. */
export interface InjectedRecord {
  /** Path relative to the work dir. */
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** What a session has shown: plain JSON, so a runner can store it and resume. */
export interface DisclosureState {
  readonly version: 1;
  /** Nested files injected, in order. */
  readonly injected: readonly InjectedRecord[];
  /** Nested files that will not be injected (too large, unreadable, binary), relative paths. */
  readonly skipped: readonly string[];
  /** Bytes of injected text so far. */
  readonly bytes: number;
  /** True once `maxSessionBytes` stopped injection. */
  readonly exhausted: boolean;
  /** Files under change tracking (empty when tracking is off). */
  readonly tracked: readonly TrackedRecord[];
}

/** Everything a disclosure engine needs. */
export interface DisclosureOptions {
  readonly fs: FileSystem;
  readonly workDir: string;
  readonly homeDir: string;
  /** Nested files, or `null` when disclosure is off. */
  readonly index: NestedIndex | null;
  readonly maxFileBytes: number;
  readonly maxSessionBytes: number;
  readonly format: Format;
  readonly wording: WordingConfig;
  /** Change tracking: off, or on with the chain's candidate names (for switches). */
  readonly tracking: { readonly enabled: boolean; readonly candidates: readonly string[] };
  /** Files shown in the system prompt; tracked when the state brings no `tracked` list. */
  readonly baseline: readonly TrackedRecord[];
  /** Tool names and what they touch; default the built-in table (docs/disclosure.md#tool-names). */
  readonly tools?: ToolTable | undefined;
  /** Scoped rules to inject (docs/rules.md); absent when rules are off. */
  readonly rules?: SessionRules | undefined;
  /**
   * The work dir as the caller spelled it, when it differs from the canonical `workDir` (a
   * symlinked cwd): tool paths under it are read as paths under `workDir`, and injected paths are
   * shown under it.
   */
  readonly spelledWorkDir?: string | undefined;
  /**
   * Expands the `@path` imports of an injected body (docs/imports.md); absent: imports are off.
   * Returns the text to inject (inline mode) and the imported files to inject after it (entries).
   */
  readonly expandBody?:
    | ((
        file: NestedFile,
        body: { readonly text: string; readonly sha256: string },
        diagnostics: Diagnostic[],
      ) => { readonly text: string; readonly imported: readonly ImportedBody[] })
    | undefined;
}

/** A file an injected nested file imports, injected right after it. */
export interface ImportedBody {
  readonly path: string;
  readonly text: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** The disclosure engine of one session. */
export interface Disclosure {
  /** The text to append to this tool result (empty when nothing is due) and what happened. */
  afterTool(event: ToolEvent): { text: string; diagnostics: Diagnostic[] };
  state(): DisclosureState;
  /** What opening noticed: records of a resumed state that were dropped. */
  readonly opened: readonly Diagnostic[];
}

/** A fresh state. */
export function emptyDisclosureState(): DisclosureState {
  return { version: 1, injected: [], skipped: [], bytes: 0, exhausted: false, tracked: [] };
}

/**
 * Creates the disclosure engine. On each successful file-tool call it (1) checks tracked files
 * for updates, candidate switches and removals, when tracking is on, and (2) injects every nested
 * file owning a touched directory that this session has not shown, outermost first. Each event is
 * reported once; everything counts against `maxSessionBytes`. Faults in single files are
 * diagnostics, and the tool result is then returned unchanged.
 */
export function createDisclosure(options: DisclosureOptions, resumed: DisclosureState | null): Disclosure {
  const { fs, workDir } = options;
  const tools = options.tools ?? BUILT_IN_TOOLS;
  const initial = resumed ?? emptyDisclosureState();
  const injected = [...initial.injected];
  const skipped = new Set(initial.skipped);
  const done = new Set<string>([...injected.map((record) => record.path), ...skipped]);
  const opened: Diagnostic[] = [];
  // A resumed state is input (docs/security.md, "A crafted --state"): it may only name files this
  // session could track itself.
  const resumedTracked = (resumed?.tracked ?? []).filter((record) => {
    if (isTrackable(record, workDir, options.baseline)) return true;
    opened.push({
      level: 'warn',
      code: 'state-record-dropped',
      message: `the resumed state tracks ${record.path}, outside the work dir and not shown at the start; it is dropped`,
    });
    return false;
  });
  const rules = options.rules;
  const rulesByPath = new Map((rules?.set.rules ?? []).map((rule) => [rule.path, rule]));
  const tracker = createChangeTracker(
    fs,
    options.tracking,
    resumed === null ? options.baseline : resumedTracked,
    trackingContainment(fs, workDir, options.baseline),
    // An updated rule shows its body, as when it was first shown (docs/rules.md, "In a session").
    (file, text, diagnostics) => {
      const rule = rulesByPath.get(file);
      return rule === undefined ? text : ruleBodyOf(rule, text, diagnostics);
    },
  );
  const budget = { bytes: initial.bytes, exhausted: initial.exhausted };
  const nestedRules = rules === undefined ? new Map() : nestedRulesByOwner(rules.set);
  // Under a symlinked cwd, injected paths are shown as the caller spelled them.
  const shown = displayUnder(options.spelledWorkDir, workDir);
  const frameOptions =
    options.spelledWorkDir === undefined ? options : { ...options, workDir: options.spelledWorkDir };
  // The rule file is read when it is injected: an edit since the session started shows, a deleted
  // file is a warning and is not injected.
  const frameRule = (rule: Rule, note: string, diagnostics: Diagnostic[]) => {
    const body = readRule(fs, rule, options.maxFileBytes, diagnostics);
    if (body === null) return null;
    const frame = renderSessionFrame(
      options.format,
      { path: shown(rule.path), dir: shown(rule.ownerDir), text: `${note}\n\n${body.text}` },
      frameOptions,
    );
    return { frame, read: body.read };
  };

  return {
    opened,
    afterTool(event) {
      const diagnostics: Diagnostic[] = [];
      if (budget.exhausted) return { text: '', diagnostics };
      if (rules !== undefined && isRuleEvent(event)) {
        // An explicit request is answered every time it is made (docs/rules.md, "requested").
        const frames = createFrames(budget, options.maxSessionBytes, diagnostics);
        const name = ruleName(event);
        const named = name === null ? [] : rules.set.byName(name);
        if (named.length === 0)
          diagnostics.push({
            level: 'warn',
            code: 'unknown-rule',
            message: `no rule is named ${JSON.stringify(name ?? '')}`,
          });
        for (const rule of named) {
          const shown = frameRule(rule, ruleNote(rule, 'it was asked for by name'), diagnostics);
          if (shown === null) continue;
          if (!frames.add(shown.frame, rule.relativePath)) break;
          if (!done.has(rule.relativePath)) {
            done.add(rule.relativePath);
            injected.push({ path: rule.relativePath, sha256: shown.read.sha256, bytes: shown.read.bytes });
            tracker.add(rule, shown.read);
          }
        }
        return frames.done();
      }
      const touched = touchedPaths(event, workDir, tools);
      diagnostics.push(...touched.diagnostics);
      const toCanonical = canonicalUnder(options.spelledWorkDir, workDir);
      const dirs = touched.directories.map(toCanonical);
      if (dirs.length === 0) return { text: '', diagnostics };
      // Reading an instruction file shows its text already: it is not injected again (sst/opencode
      // does the same, packages/opencode/src/session/instruction.ts).
      const readFiles = new Set(
        typeof event.tool === 'string' && tools[event.tool.toLowerCase()]?.as === 'read'
          ? touched.files.map(toCanonical)
          : [],
      );
      const frames = createFrames(budget, options.maxSessionBytes, diagnostics);
      if (!tracker.empty) {
        for (const change of tracker.check(diagnostics)) {
          if (!frames.add(renderEvent(change.event, options), change.event.path)) return frames.done();
          tracker.accept(change);
        }
      }
      for (const file of dueNestedFiles(options.index, workDir, dirs, done)) {
        if (readFiles.has(file.path)) {
          skipped.add(file.relativePath);
          done.add(file.relativePath);
          continue;
        }
        const body = readNested(fs, file, options.maxFileBytes, diagnostics);
        if (body === null) {
          skipped.add(file.relativePath);
          done.add(file.relativePath);
          continue;
        }
        const expanded = options.expandBody?.(file, body, diagnostics);
        const frame = renderSessionFrame(
          options.format,
          { path: shown(file.path), dir: shown(file.ownerDir), text: expanded?.text ?? body.text },
          frameOptions,
        );
        if (frame !== '' && !frames.add(frame, file.relativePath)) break;
        done.add(file.relativePath);
        injected.push({ path: file.relativePath, sha256: body.sha256, bytes: body.bytes });
        tracker.add(file, body);
        for (const imported of expanded?.imported ?? []) {
          const relative = path.relative(workDir, imported.path);
          if (done.has(relative)) continue;
          const importedFrame = renderSessionFrame(
            options.format,
            { path: shown(imported.path), dir: shown(file.ownerDir), text: imported.text },
            frameOptions,
          );
          if (importedFrame !== '' && !frames.add(importedFrame, relative)) return frames.done();
          done.add(relative);
          injected.push({ path: relative, sha256: imported.sha256, bytes: imported.bytes });
          tracker.add({ path: imported.path, ownerDir: file.ownerDir }, { ...body, ...imported });
        }
      }
      if (rules !== undefined && !budget.exhausted)
        for (const { rule, note } of dueRules(
          rules,
          nestedRules,
          workDir,
          touched.files.map(toCanonical),
          dirs,
          done,
        )) {
          const shown = frameRule(rule, note, diagnostics);
          if (shown === null) {
            skipped.add(rule.relativePath);
            done.add(rule.relativePath);
            continue;
          }
          if (!frames.add(shown.frame, rule.relativePath)) break;
          done.add(rule.relativePath);
          injected.push({ path: rule.relativePath, sha256: shown.read.sha256, bytes: shown.read.bytes });
          tracker.add(rule, shown.read);
        }
      return frames.done();
    },
    state() {
      const { bytes, exhausted } = budget;
      return {
        version: 1,
        injected: [...injected],
        skipped: [...skipped],
        bytes,
        exhausted,
        tracked: tracker.records(),
      };
    },
  };
}

/** Maps a path under the spelled work dir to the same path under the canonical one. */
function canonicalUnder(spelled: string | undefined, workDir: string): (file: string) => string {
  if (spelled === undefined || spelled === workDir) return (file) => file;
  return (file) =>
    file === spelled
      ? workDir
      : isInside(spelled, file)
        ? path.join(workDir, path.relative(spelled, file))
        : file;
}

/** Maps a path under the canonical work dir to the spelling the caller used. */
function displayUnder(spelled: string | undefined, workDir: string): (file: string) => string {
  if (spelled === undefined || spelled === workDir) return (file) => file;
  return (file) =>
    file === workDir
      ? spelled
      : isInside(workDir, file)
        ? path.join(spelled, path.relative(workDir, file))
        : file;
}

/**
 * The session event that fetches a rule by name: `{"tool":"rule","input":{"name":"…"}}`. It is a
 * request, not a finished tool call, so `ok` does not matter.
 */
function isRuleEvent(event: ToolEvent): boolean {
  return typeof event.tool === 'string' && event.tool.toLowerCase() === 'rule';
}

function ruleName(event: ToolEvent): string | null {
  const input = event.input;
  if (typeof input !== 'object' || input === null) return null;
  const name = (input as Record<string, unknown>)['name'];
  return typeof name === 'string' && name !== '' ? name : null;
}

/**
 * The frames of one tool result, within the session budget: a frame that would pass
 * `maxSessionBytes` exhausts the session (reported once) and nothing more is injected.
 */
function createFrames(
  budget: { bytes: number; exhausted: boolean },
  maxSessionBytes: number,
  diagnostics: Diagnostic[],
) {
  const frames: string[] = [];
  return {
    add(frame: string, what: string): boolean {
      const size = Buffer.byteLength(frame, 'utf8') + (frames.length > 0 ? 1 : 0);
      if (budget.bytes + size > maxSessionBytes) {
        budget.exhausted = true;
        diagnostics.push({
          level: 'info',
          code: 'session-budget-exhausted',
          message: `the session has injected ${budget.bytes} bytes; ${what} would pass maxSessionBytes (${maxSessionBytes}), so nothing more is injected`,
        });
        return false;
      }
      budget.bytes += size;
      frames.push(frame);
      return true;
    },
    done: () => ({ text: frames.join('\n'), diagnostics }),
  };
}
