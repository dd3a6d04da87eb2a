import type { WordingConfig } from '../config/types.js';

/** A file as a format needs it. */
export interface RenderFile {
  /** Absolute path. */
  readonly path: string;
  readonly text: string;
  /** Where the file came from (`user`, `chain`, `global`, …); host formats use it for labels. */
  readonly layer?: string | undefined;
}

/** What every format needs besides the files. */
export interface RenderContext {
  readonly workDir: string;
  readonly homeDir: string;
  readonly wording: WordingConfig;
}

/** A nested file as a session frame needs it. */
export interface FrameFile {
  /** Absolute path. */
  readonly path: string;
  /** The directory whose subtree the file governs. */
  readonly dir: string;
  readonly text: string;
}
