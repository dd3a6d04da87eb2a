import path from 'node:path';
import type { NestedFile } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import { renderEvent } from '../render/render-events.js';
import type { FrameFile } from '../render/render-types.js';
import type { Rule } from '../rules/rule.js';
import type { ChangeTracker } from './change-tracking.js';
import type { ImportedBody, Session } from './disclosure-types.js';
import type { ShownItem } from './identity.js';
import { dueNestedFiles, readNested } from './injection.js';
import { dueRules, readRule, ruleNote, type SessionRules } from './rule-injection.js';
import { createFrames, type Frames } from './result-frames.js';
import type { ToolEvent } from './triggers.js';

// The steps of one tool call that show something, for src/session/disclosure.ts: tracked changes,
// the nested files a call makes due (each with the files it imports), due rules, and a rule asked
// for by name. A file or rule injected is recorded once, by path and by identity.

/** Answers a rule request; an explicit request is answered every time (docs/rules.md, "requested"). */
export function answerRuleRequest(
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
export function reportTrackedChanges(session: Session, frames: Frames, diagnostics: Diagnostic[]): void {
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
export function injectNestedFiles(
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
export function injectDueRules(
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

function ruleName(event: ToolEvent): string | null {
  const input = event.input;
  if (typeof input !== 'object' || input === null) return null;
  const name = (input as Record<string, unknown>)['name'];
  return typeof name === 'string' && name !== '' ? name : null;
}
