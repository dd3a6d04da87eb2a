import type { Format, WordingConfig } from '../config/types.js';

/** A file as a format needs it. */
export interface RenderFile {
  /** Absolute path. */
  readonly path: string;
  readonly text: string;
  /** Where the file came from (`user`, `chain`, `global`, …); host formats use it for labels. */
  readonly layer?: string | undefined;
  /**
   * The text holds import frames ctxfiles wrote (the host profile's `importStyle`), and its file text is escaped
   * already: a host format whose frame tags the style escapes leaves it as it is.
   */
  readonly escaped?: true | undefined;
}

/** What every format needs besides the files. */
export interface RenderContext {
  readonly workDir: string;
  readonly homeDir: string;
  readonly wording: WordingConfig;
  /** The file names the chain looks for (`instructions.candidates`), for formats that list them. */
  readonly names?: readonly string[] | undefined;
  /** The host formats (`codex`, `claude-code`, …), handed down from the host registry. */
  readonly formats: FormatLookup;
}

/**
 * The host format of a name, or `undefined` for the engine's own formats (`opencode`, `xml`,
 * `reminder`, `magi`). The composition root builds it from the host registry (src/registry).
 */
export type FormatLookup = (name: string) => HostFormat | undefined;

/** A nested file as a session frame needs it. */
export interface FrameFile {
  /** Absolute path. */
  readonly path: string;
  /** The directory whose subtree the file governs. */
  readonly dir: string;
  readonly text: string;
  /**
   * A rule's note (`Rule "ts" (claude) applies: …`) that opens `text`, followed by a blank line:
   * a host that sends a rule's body alone drops it (`frameBody`).
   */
  readonly note?: string | undefined;
}

/** A frame file's text without its rule note, for hosts that send only a rule's body. */
export function frameBody(file: FrameFile): string {
  const lead = file.note === undefined ? '' : `${file.note}\n\n`;
  return lead !== '' && file.text.startsWith(lead) ? file.text.slice(lead.length) : file.text;
}

/** An output format of a host (docs/formats.md): the block, and the frame for nested files. */
export interface HostFormat {
  /** The name `format` takes (a host module defines it; the config vocabulary is generated from it). */
  readonly name: string;
  /**
   * Renders files as the host frames them. `notice`, when set, is a visible line (the budget's).
   * No files and no notice → the empty string.
   */
  render(files: readonly RenderFile[], context: RenderContext, notice?: string): string;
  /**
   * The frame the host's own session uses for files it discovers while working; several files
   * are joined as the host joins them; `context` gives the work dir for a frame that names files
   * relative to it (Copilot CLI). Absent: the engine's `Additional instructions from:` frame.
   */
  sessionFrame?(files: readonly FrameFile[], context?: Pick<RenderContext, 'workDir' | 'homeDir'>): string;
  /**
   * What in a file's text the host would read as its own frame (Codex: `<INSTRUCTIONS>` tags),
   * which ctxfiles escapes and the host does not: a phrase for the `frame-escaped` warning, or
   * `null` when the text holds none. Absent: never.
   */
  frameBreaks?(text: string): string | null;
  /**
   * The tag names `frameBreaks` looks for (`INSTRUCTIONS`), which `doctor` names and points at.
   * Absent with `frameBreaks`: `INSTRUCTIONS`.
   */
  readonly frameTags?: readonly string[];
}
