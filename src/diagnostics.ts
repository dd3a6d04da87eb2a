/**
 * The closed set of diagnostic codes. One row per code: adding a code is adding one row here
 * (docs/diagnostics.md is checked against this table by test/diagnostics.test.ts).
 * `level` is the level the code is usually reported at; `missing` is `debug` for a layer entry
 * and `warn` where a file was expected.
 */
export interface DiagnosticInfo {
  readonly code: string;
  /** `error` only for findings of `ctxfiles doctor`, which fail its run by default (docs/doctor.md). */
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  /** What happened, in one sentence. */
  readonly meaning: string;
  /** What the user can do about it. */
  readonly action: string;
}

// One row per line on purpose (prettier would break them): adding a code is one line, and codes
// added on different branches merge without conflicts.
// prettier-ignore
export const DIAGNOSTICS = [
  { code: 'config-shadowed', level: 'info', meaning: 'Another config file in the same directory comes later in the search order and is ignored.', action: 'Delete or merge the ignored file.' },
  { code: 'unknown-key', level: 'warn', meaning: 'The config has a top-level key ctxfiles does not know; it is ignored.', action: 'Fix the spelling (the message suggests the closest key) or remove it.' },
  { code: 'glob-entry', level: 'warn', meaning: 'A context entry looks like a glob (*, ? or {a,b}); entries are matched literally, so it names nothing.', action: 'List the files, or name their directory with a trailing "/".' },
  { code: 'flows-unmatched', level: 'warn', meaning: 'The configured flow globs match no file (ctxfiles validate).', action: 'Fix the globs (relative to the config file) or remove the flows key.' },
  { code: 'unknown-mode', level: 'warn', meaning: 'A layer names a mode other than replace or append; it acts as append.', action: 'Use "replace" or "append".' },
  { code: 'unknown-subagent', level: 'warn', meaning: 'A subagents entry maps a host subagent to an agent the config does not know; the subagent gets no agent layer.', action: 'Fix the agent id, or declare the agent under agents (docs/subagents.md).' },
  { code: 'unknown-mode-step', level: 'warn', meaning: 'A modes entry maps a host mode to a flow or step that does not exist; the mode selects no step.', action: 'Fix the flow or step id (docs/subagents.md).' },
  { code: 'unknown-token', level: 'warn', meaning: 'An entry uses a ${...} token that does not exist; the entry is skipped (debug at resolution, warn from lint).', action: 'See docs/tokens-and-containment.md for the tokens.' },
  { code: 'empty-token', level: 'debug', meaning: 'A token in an entry expanded to nothing (an unset variable); the entry is skipped.', action: 'Set the variable, or accept that the entry applies only when it is set.' },
  { code: 'invalid-entry', level: 'warn', meaning: 'An entry is refused before any file access (absolute, climbs out, reserved name).', action: 'Write entries relative to the work dir; see docs/tokens-and-containment.md.' },
  { code: 'outside-workdir', level: 'warn', meaning: 'An entry resolves outside the work dir and is skipped.', action: 'Keep entries inside the work dir.' },
  { code: 'symlink-outside-workdir', level: 'warn', meaning: 'A symlink leads outside the work dir (or skills root) and is not followed.', action: 'Replace the symlink with a file inside the work dir.' },
  { code: 'symlink-rejected', level: 'warn', meaning: 'A discovered instruction file is a symlink, or became one; it is not read.', action: 'Replace the symlink with a regular file.' },
  { code: 'missing', level: 'debug', meaning: 'An entry or a file names nothing that exists.', action: 'Create the file or remove the entry; optional files may stay missing.' },
  { code: 'vanished', level: 'warn', meaning: 'A file existed when it was listed but was gone when read.', action: 'None if the file was deleted on purpose.' },
  { code: 'unreadable', level: 'warn', meaning: 'A file or directory exists but cannot be read; the message carries the error code (EACCES, EIO, ...).', action: 'Fix the permissions or the disk.' },
  { code: 'temporarily-unavailable', level: 'debug', meaning: 'A tracked file cannot be checked or read now; it is kept as it was and checked again later.', action: 'None; it is retried after the next tool call.' },
  { code: 'not-regular', level: 'warn', meaning: 'An entry names a FIFO, socket or device; it is never read.', action: 'Point the entry at a regular file.' },
  { code: 'is-directory', level: 'debug', meaning: 'An entry names a directory without a trailing /; nothing is inlined.', action: 'Add a trailing / to inline the files below it.' },
  { code: 'not-a-directory', level: 'debug', meaning: 'An entry ending in / names something that is not a directory.', action: 'Drop the trailing slash or fix the path.' },
  { code: 'too-large', level: 'warn', meaning: 'A file is larger than the size cap and is not read (an instruction file past 1 MiB: ctxfiles does not show it, though a host with no size cap, such as Gemini CLI, sends it whole).', action: 'Shorten the file or raise the cap (maxFileBytes for nested files).' },
  { code: 'binary', level: 'warn', meaning: 'A file looks binary (it holds NUL bytes) and is not read.', action: 'Remove the file from the entries.' },
  { code: 'invalid-utf8', level: 'warn', meaning: 'A file is not valid UTF-8; invalid bytes are shown as U+FFFD.', action: 'Save the file as UTF-8.' },
  { code: 'hidden-unicode', level: 'warn', meaning: 'A file holds invisible or direction-changing characters (the message lists them).', action: 'Check the file for hidden instructions; see docs/security.md.' },
  { code: 'unsafe-name', level: 'warn', meaning: 'A directory entry has control characters in its name and is skipped.', action: 'Rename the file.' },
  { code: 'directory-truncated', level: 'warn', meaning: 'A directory entry expands to more files or directories than the cap; the rest is skipped.', action: 'Name a narrower directory.' },
  { code: 'walk-truncated', level: 'warn', meaning: 'The nested-file walk stopped at its cap; the manifest is incomplete.', action: 'Lower the depth or exclude directories; see docs/disclosure.md.' },
  { code: 'blank-file', level: 'info', meaning: 'A chain file holds only whitespace and is skipped (the next candidate is not tried); an empty user file in a list lets the next one win.', action: 'None, or write the instructions into the file.' },
  { code: 'no-project-root', level: 'info', meaning: 'contextRoot is "project" but no ancestor of the work dir holds a project root marker; contextPaths resolve against the work dir.', action: 'Add a marker (such as .git) at the project root, or set instructions.projectRootMarkers.' },
  { code: 'candidate-shadowed', level: 'info', meaning: 'A directory holds several chain candidates; only the first is used.', action: 'Remove or merge the shadowed file.' },
  { code: 'layer-replaced', level: 'info', meaning: 'A layer in replace mode dropped the entries of the layers before it.', action: 'None if intended; see docs/precedence.md.' },
  { code: 'deduped', level: 'debug', meaning: 'A file reached by several entries is shown once, at its first place.', action: 'None.' },
  { code: 'budget-truncated', level: 'warn', meaning: 'The last file that fits the budget was cut.', action: 'Raise budget.maxBytes or maxTokens, or shorten the files.' },
  { code: 'frame-escaped', level: 'warn', meaning: 'A file holds text its host reads as the host\'s own frame (Codex: an <INSTRUCTIONS> tag); ctxfiles shows it escaped, the host sends it as written, so the file breaks the host\'s frame there.', action: 'Reword the line so it no longer reads as the frame; see docs/presets.md for the host.' },
  { code: 'budget-dropped', level: 'warn', meaning: 'Files past the budget were left out.', action: 'Raise the budget or reorder the entries; see docs/formats.md.' },
  { code: 'session-budget-exhausted', level: 'info', meaning: 'The session reached maxSessionBytes; nothing more is injected.', action: 'Raise contextDiscovery.maxSessionBytes.' },
  { code: 'rule-frontmatter', level: 'warn', meaning: 'A rule file has frontmatter that cannot be read or a key of the wrong type; the rule is skipped (debug when it was read line by line, as vendors allow).', action: 'Fix the frontmatter; see docs/rules.md for each vendor\'s keys.' },
  { code: 'rule-glob', level: 'warn', meaning: 'A rule has an empty, absolute or unsupported glob; the rule is skipped.', action: 'Write globs relative to the folder that holds the vendor folder; see docs/rules.md.' },
  { code: 'rule-limit', level: 'warn', meaning: 'More rule files were found than the cap, or a rules folder nests deeper than the depth cap; the rest are skipped.', action: 'Remove unused rules or narrow rules.sources.' },
  { code: 'rule-regex', level: 'warn', meaning: 'A rule\'s content pattern (Continue `regex`) is not one the linear-time engine accepts (a back-reference or a look-around); the rule is skipped.', action: 'Rewrite the pattern without back-references or look-arounds; see docs/rules.md.' },
  { code: 'rule-budget', level: 'warn', meaning: 'A rule has more globs and content patterns than one rule may, or compiling it would pass what one resolution compiles from rule files; the rule is skipped.', action: 'Split the rule or use fewer, simpler patterns; see docs/rules.md, "Bounds".' },
  { code: 'rule-truncated', level: 'info', meaning: 'A rule file is longer than its tool reads; its text was cut there, as the tool cuts it.', action: 'Shorten the rule or split it; see docs/rules.md.' },
  { code: 'rule-source', level: 'warn', meaning: 'rules.sources names a vendor ctxfiles does not know.', action: 'Use a source docs/rules.md lists (ctxfiles validate names them).' },
  { code: 'rule-folder-entry', level: 'info', meaning: 'A contextPaths entry names the rule folder of an enabled rules source; the rules engine reads it, so its files are not inlined raw.', action: 'None; remove the entry to silence it.' },
  { code: 'rules-off', level: 'warn', meaning: 'Paths or rule names were given (--paths, --rule, request.paths, request.rules) while rules.sources is empty; they change nothing.', action: 'Remove rules.sources: [] from the config (rules are on by default), or drop the flags.' },
  { code: 'unknown-rule', level: 'warn', meaning: 'A rule named with --rule, request.rules or a rule session event does not exist.', action: 'Run ctxfiles explain to list the rules found, by name.' },
  { code: 'import-cycle', level: 'warn', meaning: 'An @import leads back to a file already on the import chain; the chain is named and the import is not followed.', action: 'Remove one of the imports in the cycle.' },
  { code: 'import-depth', level: 'warn', meaning: 'Imports nest deeper than imports.maxDepth; the deepest import is not followed.', action: 'Flatten the imports or raise imports.maxDepth.' },
  { code: 'import-outside', level: 'warn', meaning: 'An @import names a file outside the containment root of its importer; it is not read.', action: 'Keep imported files inside the project, or trust the project in the user config; see docs/imports.md.' },
  { code: 'import-symlink', level: 'warn', meaning: 'An @import reaches a symlink the symlink policy refuses; it is not read.', action: 'Replace the link with a file, or change instructions.symlinks.' },
  { code: 'import-unreadable', level: 'warn', meaning: 'An imported file exists but cannot be read (the message has the reason).', action: 'Fix the permissions, size or encoding of the file.' },
  { code: 'import-missing', level: 'debug', meaning: 'An @reference names no existing file; the text is left as written.', action: 'None if the @ was prose; otherwise fix the path.' },
  { code: 'import-duplicate', level: 'debug', meaning: 'A file is imported again after it was already placed; it appears once, at its first place.', action: 'None.' },
  { code: 'import-invalid', level: 'debug', meaning: 'An @reference is not a usable path (empty, NUL, a URL); it is left as written.', action: 'None if the @ was prose.' },
  { code: 'gitignore-unreadable', level: 'warn', meaning: 'A .gitignore or .git/info/exclude file cannot be read; its rules are not applied.', action: 'Fix the permissions of the file.' },
  { code: 'malformed-patch', level: 'warn', meaning: 'A patch tool call names no file in its patch text; nothing is injected for it.', action: 'None; the runner or model sent a patch without file headers.' },
  { code: 'unknown-tool', level: 'info', meaning: 'A session was told about a call of a tool that is not in its tool table (built-in names, session.tools, openSession tools); reported once per tool name.', action: 'Map the name to a kind with openSession({ tools }) or session.tools; ignore it for tools that touch no files.' },
  { code: 'tool-ok-missing', level: 'info', meaning: 'A tool call was reported without ok; only calls with ok: true disclose anything. Reported once per tool name.', action: 'Set ok from whether the tool threw (the framework adapters do).' },
  { code: 'tool-input-unread', level: 'info', meaning: 'A call of a file or list tool gave no path under any of its path keys (or text that is not a JSON object); reported once per tool name.', action: 'Name the path key of the tool with pathKeys in its mapping.' },
  { code: 'read-cap', level: 'warn', meaning: 'One resolution read as many bytes of instruction files as it may (8 MiB); the files after that are not read.', action: 'Narrow the entries or rule sources; see docs/security.md, "Caps".' },
  { code: 'read-cap-skipped', level: 'debug', meaning: 'This file was not read because the resolution had reached its total read cap.', action: 'See read-cap.' },
  { code: 'render-cap', level: 'warn', meaning: 'The rendered block would pass 16 MiB, the most ctxfiles renders; files are left out or cut as for a budget.', action: 'Set a budget or narrow the entries.' },
  { code: 'untrusted-key', level: 'warn', meaning: 'A config found in the project sets a key that reads outside the project (or raises a size cap); it is ignored.', action: 'Set the key in the user config, or list the project in the user config\'s trustedProjects; see docs/security.md, "Trust tiers".' },
  { code: 'config-not-file', level: 'warn', meaning: 'A config search place exists but is a directory or not a regular file; it is skipped and the search goes on.', action: 'Rename or remove it, or name the real config with --config.' },
  { code: 'code-config-refused', level: 'warn', meaning: 'The config search found a code config (ctxfiles.config.js, .mjs, .cjs or .ts) in an untrusted project; it is not loaded and the search goes on.', action: 'Name the file with --config, or list the project in the user config\'s trustedProjects; see docs/security.md, "Trust tiers".' },
  { code: 'cap-clamped', level: 'warn', meaning: 'A configured cap is above the most it may be and is lowered to that maximum.', action: 'Use a value within the maxima of docs/security.md, "Caps".' },
  { code: 'host-settings-invalid', level: 'warn', meaning: 'A host settings file of the preset in use (Codex config.toml, ...) cannot be read or parsed, or one of its values is not what the host accepts; the preset values stand for what it could not give.', action: 'Fix the file at the line and column named; see docs/presets.md, "Host settings".' },
  { code: 'state-record-dropped', level: 'warn', meaning: 'A resumed session state tracks a file this session would not read (outside the work dir and not shown at its start); the record is dropped.', action: 'None; resume only states this runner saved, stored where the repository cannot write.' },
  { code: 'walk-cache', level: 'info', meaning: 'The walk index in the cache dir (contextDiscovery.cache) cannot be used or saved, or was corrupt and is rebuilt; the walk lists every directory, as without it.', action: 'Fix the cache dir\'s owner or mode (chmod 700), or delete it; see docs/disclosure.md, "The walk index".' },
  { code: 'unmatched-glob', level: 'warn', meaning: 'ctxfiles doctor: the globs, applyTo or paths match no file in the repository, so the rule never loads.', action: 'Fix the pattern (relative to the folder that holds the vendor folder) or delete the rule.' },
  { code: 'misread-frontmatter', level: 'warn', meaning: 'ctxfiles doctor: rule frontmatter that its host is known to misread (alwaysApply as a string, quoted or listed Claude paths, a key of another vendor in a Claude rule).', action: 'Write the key the way the message says; see docs/doctor.md, "Findings".' },
  { code: 'broken-import', level: 'error', meaning: 'ctxfiles doctor: an @import in a file a host imports from names no file, or a file outside the project.', action: 'Fix the path, or move the imported file into the project.' },
  { code: 'dangling-path', level: 'warn', meaning: 'ctxfiles doctor: instruction text names a path (in code or a link) that does not exist.', action: 'Fix or remove the path.' },
  { code: 'missing-script', level: 'warn', meaning: 'ctxfiles doctor: instruction text says npm run a script that the nearest package.json does not define.', action: 'Name a script that exists, or add it to package.json.' },
  { code: 'duplicate-paragraph', level: 'warn', meaning: 'ctxfiles doctor: the same paragraph is in two files that one host loads both of; it is sent twice.', action: 'Keep it in one file (the shared parent), or import it.' },
  { code: 'stale-copy', level: 'warn', meaning: 'ctxfiles doctor: AGENTS.md and CLAUDE.md in one directory are mostly the same text but differ: one is a stale copy of the other.', action: 'Bring the older file up to date, or replace CLAUDE.md with the line @AGENTS.md.' },
  { code: 'over-cap', level: 'error', meaning: 'ctxfiles doctor: a host cuts or leaves out a file at its byte cap (Codex: project_doc_max_bytes, 32 KiB), silently.', action: 'Shorten the files the host loads, or move text into files it loads only where needed.' },
  { code: 'loaded-twice', level: 'warn', meaning: 'ctxfiles doctor: a host loads the same instructions twice at one place (a file and a link to it, a file and its import, a rule that repeats a file); the tokens are spent twice.', action: 'Keep one: remove the link or the copy, or let one file import the other for the hosts that expand imports.' },
  { code: 'catalog-truncated', level: 'warn', meaning: 'The catalog of rules on request is larger than contextDiscovery.maxManifestBytes; its descriptions are left out, then the list is cut.', action: 'Shorten rule descriptions, remove unused requested rules, or raise maxManifestBytes in the user config.' },
  { code: 'diagnostics-capped', level: 'info', meaning: 'A resolution or session kept its most diagnostics (1,000, one per code, file and target); this one counts the rest, which were left out.', action: 'Fix the first ones; see docs/security.md, "Bounds".' },
  { code: 'internal', level: 'warn', meaning: 'A bug in ctxfiles was caught so that it does not fail a tool call.', action: 'Report it with the message.' },
] as const satisfies readonly DiagnosticInfo[];

/** Every code a {@link Diagnostic} can carry: the `code` column of {@link DIAGNOSTICS}. */
export type DiagnosticCode = (typeof DIAGNOSTICS)[number]['code'];

/** Severity of a {@link Diagnostic}. */
export type DiagnosticLevel = 'debug' | 'info' | 'warn';

/** A run-time fault or decision about one file or entry. Never thrown. */
export interface Diagnostic {
  readonly level: DiagnosticLevel;
  /** One of {@link DiagnosticCode}; docs/diagnostics.md says what each means. */
  readonly code: DiagnosticCode;
  readonly message: string;
  readonly layer?: string;
  readonly entry?: string;
  readonly path?: string;
}

/** Most diagnostics one resolution (or one session) keeps; past it a single `info` counts the rest. */
export const MAX_DIAGNOSTICS = 1000;

interface Omitted {
  count: number;
}

// The closing note of a capped list, and the count it stands for (read when lists are merged).
const omittedBy = new WeakMap<object, Omitted>();

/**
 * A diagnostics list for a resolution, a session or any step that may report per file or per
 * reference: its `push` keeps one diagnostic per (code, file, target) (`code`, `path`, `entry`;
 * the message stands in when neither `path` nor `entry` is set) and at most `limit` of them. The
 * first one past the limit adds a closing `info` `diagnostics-capped` whose message counts every
 * one left out so far. So no input can make a list grow with the number of references to one file
 * (docs/security.md, "Bounds"). Everything else about the array is ordinary.
 */
export function createDiagnostics(limit: number = MAX_DIAGNOSTICS): Diagnostic[] {
  const list: Diagnostic[] = [];
  const seen = new Set<string>();
  const omitted: Omitted = { count: 0 };
  const append = Array.prototype.push;
  Object.defineProperty(list, 'push', {
    value(...items: Diagnostic[]): number {
      for (const item of items) {
        const carried = omittedBy.get(item);
        if (carried !== undefined) {
          // A closing note of a list merged into this one: its count joins this list's.
          if (omitted.count === 0) append.call(list, closingNote(omitted));
          omitted.count += carried.count;
          continue;
        }
        const key = diagnosticKey(item);
        if (seen.has(key)) continue;
        if (seen.size >= limit) {
          if (omitted.count === 0) append.call(list, closingNote(omitted));
          omitted.count += 1;
          continue;
        }
        seen.add(key);
        append.call(list, item);
      }
      return list.length;
    },
  });
  return list;
}

/**
 * The diagnostics of several steps as one bounded list ({@link createDiagnostics}), in order; the
 * counts of lists that were already capped are carried into the one closing note.
 */
export function capDiagnostics(...lists: ReadonlyArray<readonly Diagnostic[]>): Diagnostic[] {
  const merged = createDiagnostics();
  for (const list of lists) for (const item of list) merged.push(item);
  // The closing note goes last, whatever came after the first item left out.
  const index = merged.findIndex((item) => omittedBy.has(item));
  if (index !== -1 && index !== merged.length - 1)
    Array.prototype.push.call(merged, ...merged.splice(index, 1));
  return merged;
}

function diagnosticKey(item: Diagnostic): string {
  const target = item.entry ?? (item.path === undefined ? item.message : '');
  return `${item.code}\u0000${item.path ?? ''}\u0000${target}`;
}

function closingNote(omitted: Omitted): Diagnostic {
  const note = {
    level: 'info' as const,
    code: 'diagnostics-capped' as const,
    get message(): string {
      const count = omitted.count;
      return `${count} more diagnostic${count === 1 ? ' was' : 's were'} left out: at most ${String(MAX_DIAGNOSTICS).replace(/\B(?=(\d{3})+$)/g, ',')} are kept, one per code, file and target`;
    },
  };
  omittedBy.set(note, omitted);
  return note;
}
