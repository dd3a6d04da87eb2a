import path from 'node:path';
import type { ParseError } from 'jsonc-parser';
import { formatProblem, type Diagnostic } from '../../errors.js';
import type { HostSettings, HostSettingsFile } from '../../registry/host.js';

/** The context file name Gemini CLI always keeps (packages/core/src/tools/memoryTool.ts). */
export const GEMINI_DEFAULT_NAME = 'GEMINI.md';

/** What a settings reader of Gemini CLI's shape is built from (Qwen Code forks it: `.qwen`, `QWEN.md`). */
export interface GeminiSettingsShape {
  /** The folder of the user's and the project's settings (`.gemini`). */
  readonly dir: string;
  /** The name every list keeps after the configured ones (`GEMINI.md`). */
  readonly defaultName: string;
  /** The tool's name, for the hint of {@link HostSettings.readsNamesWhen} (`Gemini CLI`). */
  readonly title: string;
}

/**
 * Gemini CLI's `settings.json`: `context.fileName` (a name or a list of names) sets the instruction
 * file names. The user's `~/.gemini/settings.json`, then the project's `.gemini/settings.json` in
 * the cwd, which replaces the user's value (Gemini's settings merge has no strategy for the key).
 * The names given come first and `GEMINI.md` is always kept after them (`setGeminiMdFilename`);
 * each is looked for in every directory of the walk and, as `~/.gemini/<name>`, as the user file.
 * Comments are allowed, as Gemini strips them. Sources: google-gemini/gemini-cli
 * `packages/cli/src/config/settings.ts` (`loadSettings`, `mergeSettings`),
 * `packages/core/src/tools/memoryTool.ts` (`setGeminiMdFilename`).
 */
export function geminiSettings(shape: GeminiSettingsShape): HostSettings {
  return {
    files({ cwd, homeDir }): readonly HostSettingsFile[] {
      const user = path.join(homeDir, shape.dir, 'settings.json');
      const project = path.join(cwd, shape.dir, 'settings.json');
      return project === user
        ? [{ path: user, tier: 'user' }]
        : [
            { path: user, tier: 'user' },
            { path: project, tier: 'project' },
          ];
    },
    async read(text, file) {
      const diagnostics: Diagnostic[] = [];
      const warn = (offset: number | undefined, problem: string) => {
        const at = offset === undefined ? undefined : lineAndColumn(text, offset);
        diagnostics.push({
          level: 'warn',
          code: 'host-settings-invalid',
          message: formatProblem({ file: file.shown, line: at?.line, column: at?.column }, problem).message,
          path: file.path,
        });
      };
      const { parse, findNodeAtLocation, parseTree } = await import('jsonc-parser');
      const errors: ParseError[] = [];
      const settings: unknown = parse(text, errors, { allowTrailingComma: true });
      if (errors.length > 0) {
        warn(errors[0]?.offset, "not valid JSON; the preset's values apply");
        return { config: {}, diagnostics };
      }
      const fileName = (settings as { context?: { fileName?: unknown } } | null)?.context?.fileName;
      if (fileName === undefined || fileName === null || fileName === '') return { config: {}, diagnostics };
      const node = findNodeAtLocation(parseTree(text) ?? { type: 'null', offset: 0, length: 0 }, [
        'context',
        'fileName',
      ]);
      const names = contextNames(fileName, shape.defaultName, (problem) => warn(node?.offset, problem));
      if (names === null) return { config: {}, diagnostics };
      return { config: namesConfig(names, shape.dir), diagnostics };
    },
    readsNamesWhen(names) {
      const list = JSON.stringify([...names.filter((name) => name !== shape.defaultName), shape.defaultName]);
      return `${shape.title} reads them when ${shape.dir}/settings.json sets "context": { "fileName": ${list} } (the preset reads that setting too)`;
    },
  };
}

/** Gemini CLI's own settings files. */
export const geminiCliSettings = geminiSettings({
  dir: '.gemini',
  defaultName: GEMINI_DEFAULT_NAME,
  title: 'Gemini CLI',
});

/**
 * The names `context.fileName` gives, then `defaultName`, each once; `null` when the value is not a
 * name or a list of names. A name that is blank, absolute or climbs out with `..` is passed over
 * with a warning: ctxfiles looks for instruction files only inside the directories of its walk.
 */
export function contextNames(
  value: unknown,
  defaultName: string,
  warn: (problem: string) => void,
): string[] | null {
  const given = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(given) || given.some((name) => typeof name !== 'string')) {
    warn("context.fileName: must be a file name or a list of file names; the preset's names apply");
    return null;
  }
  const names: string[] = [];
  for (const raw of given as string[]) {
    const name = path.posix.normalize(raw.trim());
    if (raw.trim() === '') continue;
    if (path.isAbsolute(name) || name === '..' || name.startsWith('../') || name === '.') {
      warn(`context.fileName: ${JSON.stringify(raw)} is passed over: not a name inside a directory`);
      continue;
    }
    if (!names.includes(name)) names.push(name);
  }
  if (!names.includes(defaultName)) names.push(defaultName);
  return names;
}

/**
 * The config keys the names stand for: every name is a candidate of each directory, in plain
 * string order (Gemini CLI sorts the paths it found), and `~/<dir>/<name>` the user files, in the
 * order given.
 */
export function namesConfig(names: readonly string[], dir: string): Record<string, unknown> {
  const candidates = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    instructions: {
      candidates,
      userFile: names.map((name) => `~/${dir}/${name}`),
    },
  };
}

/** 1-based line and column of a UTF-16 offset. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
