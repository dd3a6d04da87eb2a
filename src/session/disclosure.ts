import path from 'node:path';
import type { Format, WordingConfig } from '../config/types.js';
import type { NestedFile, NestedIndex } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import type { Rule } from '../rules/rule.js';
import { renderEvent } from '../render/render-events.js';
import { renderSessionFrame, renderSessionFrames } from '../render/render-session-frame.js';
import type { FormatLookup, FrameFile } from '../render/render-types.js';
import {
  createChangeTracker,
  isTrackable,
  trackingContainment,
  type ChangeTracker,
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
import { BUILT_IN_TOOLS, type SessionToolSpec, type ToolTable } from './tool-table.js';
import { shownIdentities, type InViewTest, type ShownIdentities, type ShownItem } from './identity.js';
import { createTouchMemo, rebaseUnder, type TouchMemo } from './touch-memo.js';
import type { ToolEvent } from './triggers.js';

export type { TrackedRecord } from './change-tracking.js';
export type { InViewTest, ShownItem } from './identity.js';

/** One injected nested file in the session state. */
export interface InjectedRecord {
  /** Path relative to the work dir. */
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/**
 * What a session has shown: plain JSON, so a runner can store it and resume. A file the host shows
 * by itself, or one with the identity of a file shown already (a link twin), is `skipped`.
 */
export interface DisclosureState {
  readonly version: 1;
  /** Nested files injected, in order. */
  readonly injected: readonly InjectedRecord[];
  /**
   * Nested files and rules that will not be injected (too large, unreadable, binary, shown by the
   * host itself, or the same file as one shown already), relative paths.
   */
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
  /** The host formats (their session frames), handed down from the host registry. */
  readonly formats: FormatLookup;
  readonly wording: WordingConfig;
  /** Change tracking: off, or on with the chain's candidate names (for switches). */
  readonly tracking: { readonly enabled: boolean; readonly candidates: readonly string[] };
  /** Files shown in the system prompt; tracked when the state brings no `tracked` list. */
  readonly baseline: readonly TrackedRecord[];
  /**
   * True when the resumed state comes from an earlier session of the same history and this one
   * starts from a new system prompt (the next step of a flow): the files of this prompt are tracked
   * as they are now, the state's other tracked files carry on.
   */
  readonly newPrompt?: boolean | undefined;
  /** Tool names and what they touch; default the built-in table (docs/disclosure.md#tool-names). */
  readonly tools?: ToolTable | undefined;
  /** Scoped rules to inject (docs/rules.md); absent when rules are off. */
  readonly rules?: SessionRules | undefined;
  /**
   * The host profile's `order`: the nested files one tool call discloses, from the work dir down
   * (`root-first`, default) or from the touched directory up (`closest-first`).
   */
  readonly order?: 'root-first' | 'closest-first' | 'path' | undefined;
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
  /**
   * What the host shows by itself (DESIGN §13, "A host's own view"): a nested file or rule it
   * holds is never injected. Absent: the host shows nothing by itself.
   */
  readonly inView?: InViewTest | undefined;
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
  afterTool(event: ToolEvent): { readonly text: string; readonly diagnostics: readonly Diagnostic[] };
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
  const initial = resumed ?? emptyDisclosureState();
  const injected = [...initial.injected];
  const skipped = new Set(initial.skipped);
  const opened: Diagnostic[] = [];
  const resumedTracked = (resumed?.tracked ?? []).filter((record) => keepResumed(record, options, opened));
  const rules = options.rules;
  const rulesByPath = new Map((rules?.set.rules ?? []).map((rule) => [rule.path, rule]));
  const tracker = createChangeTracker(
    fs,
    options.tracking,
    trackedAtOpen(options, resumed === null ? null : resumedTracked),
    trackingContainment(fs, workDir, options.baseline),
    // An updated rule shows its body, as when it was first shown (docs/rules.md, "In a session").
    (file, text, diagnostics) => {
      const rule = rulesByPath.get(file);
      return rule === undefined ? text : ruleBodyOf(rule, text, diagnostics);
    },
  );
  const frameOptions =
    options.spelledWorkDir === undefined ? options : { ...options, workDir: options.spelledWorkDir };
  const session: Session = {
    options,
    memo: createTouchMemo({
      workDir,
      spelledWorkDir: options.spelledWorkDir,
      tools: options.tools ?? BUILT_IN_TOOLS,
      rules: rules !== undefined,
    }),
    injected,
    skipped,
    noticed: new Set<string>(),
    done: new Set<string>([...injected.map((record) => record.path), ...skipped]),
    identities: resumedIdentities(options, injected),
    tracker,
    budget: { bytes: initial.bytes, exhausted: initial.exhausted },
    nestedRules: rules === undefined ? new Map() : nestedRulesByOwner(rules.set),
    // Under a symlinked cwd, injected paths are shown as the caller spelled them.
    shown: displayUnder(options.spelledWorkDir, workDir),
    frameOptions,
  };

  return {
    opened,
    afterTool: (event) => afterTool(session, event),
    state() {
      const { bytes, exhausted } = session.budget;
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

/** The identities of the files a resumed state injected (DESIGN §13, "Identity"). */
function resumedIdentities(options: DisclosureOptions, injected: readonly InjectedRecord[]): ShownIdentities {
  const paths = injected.map((record) => record.path);
  return shownIdentities(options.fs, options.workDir, paths, options.index, options.rules?.set.rules ?? []);
}

/** The state one disclosure engine shares between its tool calls. */
interface Session {
  readonly options: DisclosureOptions;
  /** Tool names and touched paths, remembered by the strings the calls use. */
  readonly memo: TouchMemo;
  readonly injected: InjectedRecord[];
  readonly skipped: Set<string>;
  /** Tool names already reported by a `notice`, with its code. */
  readonly noticed: Set<string>;
  /** Relative paths injected or skipped: never injected again by a tool call. */
  readonly done: Set<string>;
  /** The files shown, by identity: another route to one of them is never injected. */
  readonly identities: ShownIdentities;
  readonly tracker: ChangeTracker;
  readonly budget: { bytes: number; exhausted: boolean };
  readonly nestedRules: ReturnType<typeof nestedRulesByOwner>;
  /** Shows a canonical path as the caller spelled the work dir. */
  readonly shown: (file: string) => string;
  readonly frameOptions: DisclosureOptions;
}

/**
 * Whether a record of a resumed state may be tracked. A resumed state is input (docs/security.md,
 * "A crafted --state"): it may only name files this session could track itself.
 */
function keepResumed(record: TrackedRecord, options: DisclosureOptions, opened: Diagnostic[]): boolean {
  if (isTrackable(record, options.workDir, options.baseline)) return true;
  opened.push({
    level: 'warn',
    code: 'state-record-dropped',
    message: `the resumed state tracks ${record.path}, outside the work dir and not shown at the start; it is dropped`,
  });
  return false;
}

/**
 * The files a session tracks when it opens: those of its system prompt when it starts afresh; a
 * resumed state's records; or, for a new prompt in the same history (`newPrompt`), the prompt's
 * files, then the state's records for the files the prompt does not show.
 */
function trackedAtOpen(
  options: DisclosureOptions,
  resumed: readonly TrackedRecord[] | null,
): readonly TrackedRecord[] {
  if (resumed === null) return options.baseline;
  if (options.newPrompt !== true) return resumed;
  const shown = new Set(options.baseline.map((record) => record.path));
  return [...options.baseline, ...resumed.filter((record) => !shown.has(record.path))];
}

/** What a call with nothing to show returns. */
const NOTHING = Object.freeze({ text: '', diagnostics: Object.freeze([]) as readonly Diagnostic[] });

const NO_FILES: ReadonlySet<string> = new Set();

/**
 * One tool call: a rule request, or tracked changes, nested files and due rules, in that order. A
 * call whose paths found nothing due once (a settled {@link Touch}) only checks tracked files.
 */
function afterTool(
  session: Session,
  event: ToolEvent,
): { readonly text: string; readonly diagnostics: readonly Diagnostic[] } {
  const { options } = session;
  if (session.budget.exhausted || typeof event.tool !== 'string') return NOTHING;
  const spec = session.memo.tool(event.tool);
  if (spec === 'rule' && options.rules !== undefined)
    return answerRuleRequest(session, options.rules, event, []);
  if (spec === null) return notice(session, 'unknown-tool', event.tool, unknownToolMessage);
  if (spec === 'rule' || spec.as === 'shell') return NOTHING;
  if (event.ok !== true)
    return event.ok === undefined
      ? notice(session, 'tool-ok-missing', event.tool, okMissingMessage)
      : NOTHING;
  const touch = session.memo.touch(event, spec);
  if (touch.dirs.length === 0) {
    if (touch.diagnostics.length > 0) return { text: '', diagnostics: [...touch.diagnostics] };
    return spec.as === 'search' || spec.patchKeys !== undefined
      ? NOTHING
      : notice(session, 'tool-input-unread', event.tool, (tool) => inputUnreadMessage(tool, event, spec));
  }
  if (touch.settled && session.tracker.empty) return NOTHING;
  const diagnostics: Diagnostic[] = [...touch.diagnostics];
  const frames = createFrames(session, diagnostics);
  // Each step stops the call when it exhausts the session budget.
  reportTrackedChanges(session, frames, diagnostics);
  if (session.budget.exhausted || touch.settled) return frames.done();
  // Reading an instruction file shows its text already: it is not injected again (sst/opencode
  // does the same, packages/opencode/src/session/instruction.ts).
  const readFiles = spec.as === 'read' ? new Set(touch.files) : NO_FILES;
  const nestedDue = injectNestedFiles(session, frames, touch.dirs, readFiles, diagnostics);
  if (session.budget.exhausted) return frames.done();
  const rulesDue =
    options.rules !== undefined &&
    injectDueRules(session, options.rules, frames, touch.files, touch.dirs, diagnostics);
  // Nothing due now, nothing due ever for these paths: what is due depends only on the nested files
  // and rules of the session, fixed when it opens, and on what it has shown or skipped, which only grows.
  if (!nestedDue && !rulesDue) touch.settled = true;
  return frames.done();
}

type Frames = ReturnType<typeof createFrames>;

/** Names a session has already reported a tool event of, by code: each is reported once. */
const NOTICED_SIZE = 1_024;

/**
 * An `info` diagnostic about how a tool event reads, once per tool name and code for the session
 * (the set starts over at {@link NOTICED_SIZE} names, so a long session stays bounded).
 */
function notice(
  session: Session,
  code: 'unknown-tool' | 'tool-ok-missing' | 'tool-input-unread',
  tool: string,
  message: (tool: string) => string,
): { readonly text: string; readonly diagnostics: readonly Diagnostic[] } {
  const key = `${code}\0${tool}`;
  if (session.noticed.has(key)) return NOTHING;
  if (session.noticed.size >= NOTICED_SIZE) session.noticed.clear();
  session.noticed.add(key);
  return { text: '', diagnostics: [{ level: 'info', code, message: message(tool) }] };
}

const unknownToolMessage = (tool: string): string =>
  `the tool ${JSON.stringify(tool)} is not in the session's tool table, so its calls disclose nothing; map it with openSession({ tools: { ${JSON.stringify(tool)}: { as: 'read' } } }) or session.tools in the config (docs/disclosure.md#tool-names)`;

const okMissingMessage = (tool: string): string =>
  `a call of ${JSON.stringify(tool)} was reported without "ok"; only calls with ok: true disclose anything, so set ok from whether the tool threw`;

/** What the input of a file or list tool held, when no key gave a path. */
function inputUnreadMessage(tool: string, event: ToolEvent, spec: SessionToolSpec): string {
  const raw = event.input;
  const given =
    typeof raw === 'string'
      ? 'text that is not a JSON object'
      : typeof raw === 'object' && raw !== null
        ? `the keys ${JSON.stringify(Object.keys(raw).slice(0, 8))}`
        : String(raw);
  const keys = [...(spec.pathKeys ?? []), ...(spec.patternKeys ?? [])];
  return `a call of ${JSON.stringify(tool)} gave ${given} and no usable path under ${JSON.stringify(keys)}, so it disclosed nothing; name its path key with pathKeys in the tool's mapping`;
}

/** Answers a rule request; an explicit request is answered every time (docs/rules.md, "requested"). */
function answerRuleRequest(
  session: Session,
  rules: SessionRules,
  event: ToolEvent,
  diagnostics: Diagnostic[],
): { text: string; diagnostics: Diagnostic[] } {
  const frames = createFrames(session, diagnostics);
  const name = ruleName(event);
  const named = name === null ? [] : rules.set.byName(name);
  if (named.length === 0)
    diagnostics.push({
      level: 'warn',
      code: 'unknown-rule',
      message: `no rule is named ${JSON.stringify(name ?? '')}`,
    });
  for (const rule of named) {
    const shown = frameRule(session, rule, ruleNote(rule, 'it was asked for by name'), diagnostics);
    if (shown === null) continue;
    if (!frames.addFile(shown.frame, rule.relativePath)) break;
    if (!session.done.has(rule.relativePath)) record(session, rule.relativePath, rule, shown.read, rule);
  }
  return frames.done();
}

/** Reports the changes of tracked files, until the session budget runs out. */
function reportTrackedChanges(session: Session, frames: Frames, diagnostics: Diagnostic[]): void {
  if (session.tracker.empty) return;
  for (const change of session.tracker.check(diagnostics)) {
    if (!frames.add(renderEvent(change.event, session.options), change.event.path)) return;
    session.tracker.accept(change);
  }
}

/**
 * Injects the nested files owning `dirs` not shown yet, each followed by the files it imports.
 * True when any was due.
 */
function injectNestedFiles(
  session: Session,
  frames: Frames,
  dirs: readonly string[],
  readFiles: ReadonlySet<string>,
  diagnostics: Diagnostic[],
): boolean {
  const { options, done, shown } = session;
  const due = dueNestedFiles(options.index, options.workDir, dirs, done, options.order === 'closest-first');
  for (const file of due) {
    if (alreadyInView(session, file, file.relativePath)) continue;
    const body = readFiles.has(file.path)
      ? null
      : readNested(options.fs, file, options.maxFileBytes, diagnostics);
    if (body === null) {
      session.skipped.add(file.relativePath);
      done.add(file.relativePath);
      continue;
    }
    const expanded = options.expandBody?.(file, body, diagnostics);
    const framed = { path: shown(file.path), dir: shown(file.ownerDir), text: expanded?.text ?? body.text };
    if (!frames.addFile(framed, file.relativePath)) break;
    record(session, file.relativePath, file, body, file);
    if (!injectImports(session, frames, file, body, expanded?.imported ?? [])) break;
  }
  return due.length > 0;
}

/** Injects the files a nested file imports; false when the session budget ran out. */
function injectImports(
  session: Session,
  frames: Frames,
  file: NestedFile,
  body: Parameters<ChangeTracker['add']>[1],
  imported: readonly ImportedBody[],
): boolean {
  for (const entry of imported) {
    const relative = path.relative(session.options.workDir, entry.path);
    if (session.done.has(relative)) continue;
    const item = { path: entry.path, ownerDir: path.dirname(entry.path) };
    if (alreadyInView(session, item, relative)) continue;
    const framed = { path: session.shown(entry.path), dir: session.shown(file.ownerDir), text: entry.text };
    if (!frames.addFile(framed, relative)) return false;
    record(session, relative, { path: entry.path, ownerDir: file.ownerDir }, { ...body, ...entry }, item);
  }
  return true;
}

/**
 * Injects the rules the touched files and directories make due, until the budget runs out. True
 * when any was due, or when a rule with content patterns may come due for a touched file later.
 */
function injectDueRules(
  session: Session,
  rules: SessionRules,
  frames: Frames,
  files: readonly string[],
  dirs: readonly string[],
  diagnostics: Diagnostic[],
): boolean {
  const { done } = session;
  const due = dueRules(rules, session.nestedRules, session.options.workDir, files, dirs, done);
  for (const { rule, note } of due) {
    if (alreadyInView(session, rule, rule.relativePath)) continue;
    const shown = frameRule(session, rule, note, diagnostics);
    if (shown === null) {
      session.skipped.add(rule.relativePath);
      done.add(rule.relativePath);
      continue;
    }
    if (!frames.addFile(shown.frame, rule.relativePath)) break;
    record(session, rule.relativePath, rule, shown.read, rule);
  }
  // A rule whose content patterns decide may come due when the file changes: never "settled".
  return due.length > 0 || (files.length > 0 && rules.set.awaitsContent(files, done));
}

/**
 * True, and the item is skipped for good, when the host shows it by itself or the session showed
 * its file already by another route (DESIGN §13): it is never injected.
 */
function alreadyInView(session: Session, item: ShownItem, relative: string): boolean {
  if (!session.identities.has(item) && session.options.inView?.(item) !== true) return false;
  session.skipped.add(relative);
  session.done.add(relative);
  return true;
}

/** Records an injected file: done, in the state, tracked, and its identity shown. */
function record(
  session: Session,
  relative: string,
  file: Parameters<ChangeTracker['add']>[0],
  read: Parameters<ChangeTracker['add']>[1],
  item: ShownItem,
): void {
  session.identities.add(item);
  session.done.add(relative);
  session.injected.push({ path: relative, sha256: read.sha256, bytes: read.bytes });
  session.tracker.add(file, read);
}

/**
 * The frame of a rule. The rule file is read when it is injected: an edit since the session
 * started shows, a deleted file is a warning and is not injected.
 */
function frameRule(session: Session, rule: Rule, note: string, diagnostics: Diagnostic[]) {
  const { options, shown } = session;
  const body = readRule(options.fs, rule, options.maxFileBytes, diagnostics);
  if (body === null) return null;
  const frame: FrameFile = {
    path: shown(rule.path),
    dir: shown(rule.ownerDir),
    text: `${note}\n\n${body.text}`,
    note,
  };
  return { frame, read: body.read };
}

/** Maps a path under the canonical work dir to the spelling the caller used. */
function displayUnder(spelled: string | undefined, workDir: string): (file: string) => string {
  return spelled === undefined ? (file) => file : rebaseUnder(workDir, spelled);
}

function ruleName(event: ToolEvent): string | null {
  const input = event.input;
  if (typeof input !== 'object' || input === null) return null;
  const name = (input as Record<string, unknown>)['name'];
  return typeof name === 'string' && name !== '' ? name : null;
}

/**
 * The frames of one tool result, within the session budget: a frame that would pass
 * `maxSessionBytes` exhausts the session (reported once) and nothing more is injected. Files that
 * follow each other are framed together at the end ({@link renderSessionFrames}: a host joins them
 * as it does); each is counted as its own frame when it is added, which is never less than its
 * share of the group, and the budget holds the exact size of the result once it is done.
 */
function createFrames(session: Session, diagnostics: Diagnostic[]) {
  const { budget, options, frameOptions } = session;
  const start = budget.bytes;
  const parts: (string | FrameFile[])[] = [];
  const fits = (frame: string, what: string): boolean => {
    const size = Buffer.byteLength(frame, 'utf8') + (parts.length > 0 ? 1 : 0);
    if (budget.bytes + size > options.maxSessionBytes) {
      budget.exhausted = true;
      diagnostics.push({
        level: 'info',
        code: 'session-budget-exhausted',
        message: `the session has injected ${budget.bytes} bytes; ${what} would pass maxSessionBytes (${options.maxSessionBytes}), so nothing more is injected`,
      });
      return false;
    }
    budget.bytes += size;
    return true;
  };
  return {
    /** A frame rendered already (a change event). False when the budget ran out. */
    add(frame: string, what: string): boolean {
      if (!fits(frame, what)) return false;
      parts.push(frame);
      return true;
    },
    /** A file to frame with the files around it. True when it fits or shows nothing. */
    addFile(file: FrameFile, what: string): boolean {
      const alone = renderSessionFrame(options.format, file, frameOptions);
      if (alone === '') return true;
      if (!fits(alone, what)) return false;
      const last = parts[parts.length - 1];
      if (Array.isArray(last)) last.push(file);
      else parts.push([file]);
      return true;
    },
    done() {
      const text = parts
        .map((part) =>
          typeof part === 'string' ? part : renderSessionFrames(options.format, part, frameOptions),
        )
        .join('\n');
      budget.bytes = start + Buffer.byteLength(text, 'utf8');
      return { text, diagnostics };
    },
  };
}
