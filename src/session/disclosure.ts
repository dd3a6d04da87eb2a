import type { Diagnostic } from '../errors.js';
import {
  createChangeTracker,
  isTrackable,
  trackingContainment,
  type TrackedRecord,
} from './change-tracking.js';
import { emptyDisclosureState, type DisclosureState, type InjectedRecord } from './disclosure-state.js';
import {
  answerRuleRequest,
  injectDueRules,
  injectNestedFiles,
  reportTrackedChanges,
} from './disclosure-steps.js';
import type { DisclosureOptions, Session } from './disclosure-types.js';
import { shownIdentities, type ShownIdentities } from './identity.js';
import { createFrames } from './result-frames.js';
import { nestedRulesByOwner, ruleBodyOf } from './rule-injection.js';
import { BUILT_IN_TOOLS, type SessionToolSpec } from './tool-table.js';
import { createTouchMemo, rebaseUnder } from './touch-memo.js';
import type { ToolEvent } from './triggers.js';

/** The disclosure engine of one session. */
export interface Disclosure {
  /** The text to append to this tool result (empty when nothing is due) and what happened. */
  afterTool(event: ToolEvent): { readonly text: string; readonly diagnostics: readonly Diagnostic[] };
  state(): DisclosureState;
  /** What opening noticed: records of a resumed state that were dropped. */
  readonly opened: readonly Diagnostic[];
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

/** Maps a path under the canonical work dir to the spelling the caller used. */
function displayUnder(spelled: string | undefined, workDir: string): (file: string) => string {
  return spelled === undefined ? (file) => file : rebaseUnder(workDir, spelled);
}
