import path from 'node:path';
import { formatProblem, type Diagnostic } from '../../errors.js';
import type { HostSettings } from '../../registry/host.js';

/**
 * Codex's `config.toml` in `$CODEX_HOME` (default `~/.codex`): the two keys that change what it
 * loads. `project_doc_fallback_filenames` adds candidate names after `AGENTS.override.md` and
 * `AGENTS.md` (empty entries and repeats passed over, an entry that is not a plain file name
 * ignored with a warning, as Codex 0.171 does); `project_doc_max_bytes` is the byte cap of the
 * project files (0: Codex reads none). Sources: openai/codex `codex-rs/core/src/agents_md.rs`
 * (`candidate_filenames`, `read_agents_md`) and the strings of the 0.171.0 binary.
 */
export const codexSettings: HostSettings = {
  // With CODEX_HOME set, Codex reads its user files there only, never in `~/.codex`
  // (`find_codex_home` in openai/codex codex-rs/utils/home-dir; lab case `codex-home-without-agents`).
  environment({ env }) {
    const codexHome = env['CODEX_HOME'];
    if (codexHome === undefined || codexHome === '') return null;
    const userFile = ['${env.CODEX_HOME}/AGENTS.override.md', '${env.CODEX_HOME}/AGENTS.md'];
    return { name: 'the environment (CODEX_HOME)', config: { instructions: { userFile } } };
  },
  files({ env, homeDir, cwd }) {
    const codexHome = env['CODEX_HOME'];
    const dir =
      codexHome !== undefined && codexHome !== ''
        ? path.resolve(cwd, codexHome)
        : path.join(homeDir, '.codex');
    return [{ path: path.join(dir, 'config.toml'), tier: 'user' }];
  },
  async read(text, file, preset) {
    const diagnostics: Diagnostic[] = [];
    const warn = (line: number | undefined, column: number | undefined, problem: string) =>
      diagnostics.push({
        level: 'warn',
        code: 'host-settings-invalid',
        message: formatProblem({ file: file.shown, line, column }, problem).message,
        path: file.path,
      });
    let toml: Record<string, unknown>;
    try {
      const { parse } = await import('smol-toml');
      toml = parse(text) as Record<string, unknown>;
    } catch (error) {
      const found = error as { line?: number; column?: number; message?: string };
      const reason = (found.message ?? 'cannot parse')
        .split('\n')[0]
        ?.replace(/^Invalid TOML document: /, '');
      warn(found.line, found.column, `not valid TOML (${reason}); the preset's values apply`);
      return { config: {}, diagnostics };
    }
    const keyWarn = (key: string, problem: string) => {
      const at = keyPosition(text, key);
      warn(at?.line, at?.column, `${key}: ${problem}`);
    };
    const config: Record<string, unknown> = {};
    const candidates = fallbackCandidates(toml, presetCandidates(preset), keyWarn);
    if (candidates !== undefined) config['instructions'] = { candidates };
    const maxBytes = maxBytesOf(toml, keyWarn);
    if (maxBytes !== undefined) config['budget'] = { maxBytes };
    return { config, diagnostics };
  },
};

type KeyWarn = (key: string, problem: string) => void;

/** The preset's candidate names, the list the fallback names follow. */
function presetCandidates(preset: Readonly<Record<string, unknown>>): readonly string[] {
  const instructions = preset['instructions'] as { candidates?: unknown } | undefined;
  const list = instructions?.candidates;
  return Array.isArray(list) ? list.filter((name): name is string => typeof name === 'string') : [];
}

/** `project_doc_fallback_filenames` as the whole candidate list, or `undefined` when unset or wrong. */
function fallbackCandidates(
  toml: Record<string, unknown>,
  base: readonly string[],
  warn: KeyWarn,
): string[] | undefined {
  const key = 'project_doc_fallback_filenames';
  if (!Object.hasOwn(toml, key)) return undefined;
  const value = toml[key];
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) {
    warn(key, "must be a list of file names; the preset's candidates apply");
    return undefined;
  }
  const names = [...base];
  for (const name of value as string[]) {
    if (name === '' || names.includes(name)) continue;
    if (!isPlainFileName(name)) {
      warn(key, `${JSON.stringify(name)} is ignored: not a file name (Codex ignores it too)`);
      continue;
    }
    names.push(name);
  }
  return names;
}

/** A name Codex takes as a file in the directory: one path component, not `.` or `..`. */
function isPlainFileName(name: string): boolean {
  return !/[/\\]/.test(name) && name !== '.' && name !== '..';
}

/** `project_doc_max_bytes`, or `undefined` when unset or not a whole number of bytes. */
function maxBytesOf(toml: Record<string, unknown>, warn: KeyWarn): number | undefined {
  const key = 'project_doc_max_bytes';
  if (!Object.hasOwn(toml, key)) return undefined;
  const value = toml[key];
  // smol-toml reads integers as numbers, and as bigints past 2^53.
  const bytes = typeof value === 'bigint' ? Number(value) : value;
  if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 0) {
    warn(key, "must be a whole number of bytes, 0 or more; the preset's cap applies");
    return undefined;
  }
  return bytes;
}

/** Line and column of a top-level key (before the first table header), for warnings. */
function keyPosition(text: string, key: string): { line: number; column: number } | undefined {
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    if (/^\s*\[/.test(line)) return undefined;
    const match = new RegExp(`^(\\s*)["']?${key}["']?\\s*=`).exec(line);
    if (match !== null) return { line: index + 1, column: (match[1]?.length ?? 0) + 1 };
  }
  return undefined;
}
