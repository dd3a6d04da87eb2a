import type { WordingConfig } from '../config/types.js';

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
}

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
