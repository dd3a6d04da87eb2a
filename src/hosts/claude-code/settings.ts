import path from 'node:path';
import type { ParseError } from 'jsonc-parser';
import { formatProblem, type Diagnostic } from '../../errors.js';
import type { HostSettings } from '../../registry/host.js';

/**
 * Claude Code's `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when that is set): a project
 * approves imports from outside its directory with `hasClaudeMdExternalIncludesApproved: true` in
 * its entry of `projects`, and only then does Claude Code follow a project file's `@../…`, `@~/…`
 * or absolute import to a file outside the cwd (2.1.332: the memory loader reads the flag of the
 * current project; a user file's imports are never limited). The entry is the one of the cwd or of
 * its nearest ancestor that has one, since Claude Code keys a project by its git root. The file is
 * the user's own (user tier).
 */
export const claudeCodeSettings: HostSettings = {
  files({ env, homeDir, cwd }) {
    const configDir = env['CLAUDE_CONFIG_DIR'];
    const dir = configDir !== undefined && configDir !== '' ? path.resolve(cwd, configDir) : homeDir;
    return [{ path: path.join(dir, '.claude.json'), tier: 'user', project: cwd }];
  },
  async read(text, file) {
    const diagnostics: Diagnostic[] = [];
    // Loaded on first use: every run reads the preset's host settings module, few read this file.
    const { parse, printParseErrorCode } = await import('jsonc-parser');
    const errors: ParseError[] = [];
    const value: unknown = parse(text, errors, { allowTrailingComma: true });
    const [first] = errors;
    if (first !== undefined || typeof value !== 'object' || value === null) {
      const at = first === undefined ? undefined : lineColumn(text, first.offset);
      const reason = first === undefined ? 'not an object' : printParseErrorCode(first.error);
      diagnostics.push({
        level: 'warn',
        code: 'host-settings-invalid',
        message: formatProblem(
          { file: file.shown, line: at?.line, column: at?.column },
          `not valid JSON (${reason}); the preset's values apply`,
        ).message,
        path: file.path,
      });
      return { config: {}, diagnostics };
    }
    const { projects } = value as { projects?: unknown };
    const entry = file.project === undefined ? undefined : projectEntry(projects, file.project);
    const approved =
      typeof entry === 'object' &&
      entry !== null &&
      (entry as Record<string, unknown>)['hasClaudeMdExternalIncludesApproved'] === true;
    return { config: approved ? { imports: { external: true } } : {}, diagnostics };
  },
};

/** The entry of `projects` for `cwd` or its nearest ancestor that has one. */
function projectEntry(projects: unknown, cwd: string): unknown {
  if (typeof projects !== 'object' || projects === null) return undefined;
  const table = projects as Record<string, unknown>;
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const key = dir.normalize('NFC');
    if (Object.hasOwn(table, key)) return table[key];
    if (path.dirname(dir) === dir) return undefined;
  }
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
