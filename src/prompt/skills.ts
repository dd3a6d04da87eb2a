import path from 'node:path';
import { parseFrontmatter } from '../discover/frontmatter.js';
import type { Diagnostic } from '../errors.js';
import { isInside, resolveInside } from '../fs/contain.js';
import { decodeText } from '../fs/decode-text.js';
import { errorCode, isAbsent, type FileSystem } from '../fs/file-system.js';
import { escapeControl, escapeXmlText } from '../render/escape.js';

/** Largest `SKILL.md` or skill file read. */
export const MAX_SKILL_BYTES = 262_144;

/** A skill found in a root. */
export interface Skill {
  /** Frontmatter `name`, else the directory name. */
  readonly name: string;
  /** Frontmatter `description`; empty when absent. */
  readonly description: string;
  /** Canonical directory of the skill. */
  readonly dir: string;
  /** The root it came from. */
  readonly root: string;
}

/** The skills of every root, later roots overriding earlier ones by name. */
export interface SkillCatalog {
  readonly skills: readonly Skill[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Finds skills in `roots`, in order: `<root>/<skill>/SKILL.md` and one level of grouping,
 * `<root>/<group>/<skill>/SKILL.md`. A skill in a later root replaces an earlier one of the same
 * name. Skill files must lie inside their root once symlinks are resolved. Missing roots are
 * skipped; faults are diagnostics. Skills are sorted by name.
 */
export function discoverSkills(fs: FileSystem, roots: readonly string[]): SkillCatalog {
  const diagnostics: Diagnostic[] = [];
  const byName = new Map<string, Skill>();
  for (const root of roots) {
    let realRoot: string;
    try {
      realRoot = fs.realpath(root);
    } catch (error) {
      if (!isAbsent(error))
        diagnostics.push({
          level: 'warn',
          code: 'unreadable',
          message: `skills root ${root} cannot be used (${errorCode(error)})`,
          path: root,
        });
      continue;
    }
    for (const dir of skillDirectories(fs, realRoot, diagnostics)) {
      const skill = readSkillFile(fs, realRoot, dir, diagnostics);
      if (skill !== null) byName.set(skill.name, skill);
    }
  }
  return {
    skills: [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    diagnostics,
  };
}

function skillDirectories(fs: FileSystem, root: string, diagnostics: Diagnostic[]): string[] {
  const found: string[] = [];
  const list = (dir: string) => {
    try {
      return fs
        .readdir(dir)
        .filter(
          (entry) => (entry.kind === 'directory' || entry.kind === 'symlink') && !entry.name.startsWith('.'),
        );
    } catch (error) {
      if (!isAbsent(error))
        diagnostics.push({
          level: 'warn',
          code: 'unreadable',
          message: `${dir} cannot be listed (${errorCode(error)})`,
          path: dir,
        });
      return [];
    }
  };
  for (const entry of list(root)) {
    const dir = path.join(root, entry.name);
    if (fs.probe(path.join(dir, 'SKILL.md')) !== null) {
      found.push(dir);
      continue;
    }
    for (const inner of list(dir)) {
      const nested = path.join(dir, inner.name);
      if (fs.probe(path.join(nested, 'SKILL.md')) !== null) found.push(nested);
    }
  }
  return found;
}

function readSkillFile(fs: FileSystem, root: string, dir: string, diagnostics: Diagnostic[]): Skill | null {
  const file = path.join(dir, 'SKILL.md');
  const text = readInside(fs, root, file, diagnostics);
  if (text === null) return null;
  const { data } = parseFrontmatter(text);
  const name = clean(
    typeof data['name'] === 'string' && data['name'].trim() !== '' ? data['name'] : path.basename(dir),
  );
  const description = typeof data['description'] === 'string' ? clean(data['description']) : '';
  let realDir: string;
  try {
    realDir = fs.realpath(dir);
  } catch {
    return null;
  }
  return { name, description, dir: realDir, root };
}

/** Reads a file whose real path must lie inside `root`; `null` with a diagnostic otherwise. */
function readInside(fs: FileSystem, root: string, file: string, diagnostics: Diagnostic[]): string | null {
  try {
    const real = fs.realpath(file);
    if (!isInside(root, real)) {
      diagnostics.push({
        level: 'warn',
        code: 'symlink-outside-workdir',
        message: `${file} leads to ${real}, outside its skills root, and is skipped`,
        path: file,
      });
      return null;
    }
    const info = fs.stat(real);
    if (info.kind !== 'file') {
      diagnostics.push({
        level: 'warn',
        code: 'not-regular',
        message: `${file} is not a regular file`,
        path: file,
      });
      return null;
    }
    const result = fs.readFile(real, { maxBytes: MAX_SKILL_BYTES, expect: info });
    if (result.truncated) {
      diagnostics.push({
        level: 'warn',
        code: 'too-large',
        message: `${file} is larger than ${MAX_SKILL_BYTES} bytes and is skipped`,
        path: file,
      });
      return null;
    }
    const decoded = decodeText(result.bytes);
    if (!decoded.ok) {
      diagnostics.push({
        level: 'warn',
        code: 'binary',
        message: `${file} looks binary and is skipped`,
        path: file,
      });
      return null;
    }
    return decoded.text;
  } catch (error) {
    diagnostics.push({
      level: isAbsent(error) ? 'debug' : 'warn',
      code: isAbsent(error) ? 'missing' : 'unreadable',
      message: `${file} cannot be read (${errorCode(error)})`,
      path: file,
    });
    return null;
  }
}

/** The outcome of {@link readSkill}. */
export type SkillRead =
  | { readonly ok: true; readonly path: string; readonly text: string }
  | { readonly ok: false; readonly error: string };

/**
 * Reads `skill://<name>/<relativePath>` (default `SKILL.md`): the path must be a plain relative
 * path that stays inside the skill's directory, symlinks resolved. Never throws.
 */
export function readSkill(
  fs: FileSystem,
  catalog: SkillCatalog,
  name: string,
  relativePath = 'SKILL.md',
): SkillRead {
  const skill = catalog.skills.find((entry) => entry.name === name);
  if (skill === undefined) return { ok: false, error: `unknown skill "${name}"` };
  const uri = `skill://${name}/${relativePath}`;
  const located = resolveInside(fs, skill.dir, relativePath, { label: uri, rootName: 'the skill directory' });
  if (!located.ok) return { ok: false, error: located.message };
  const diagnostics: Diagnostic[] = [];
  const file = located.path;
  const text = readInside(fs, skill.dir, file, diagnostics);
  if (text === null)
    return { ok: false, error: diagnostics[0]?.message ?? `skill://${name}/${relativePath} cannot be read` };
  return { ok: true, path: file, text };
}

/** Splits `skill://name/rest` into name and relative path; `null` for other strings. */
export function parseSkillUri(uri: string): { name: string; relativePath: string | undefined } | null {
  const match = /^skill:\/\/([^/]+)(?:\/(.*))?$/.exec(uri);
  if (match === null) return null;
  return {
    name: match[1] as string,
    relativePath: match[2] === undefined || match[2] === '' ? undefined : match[2],
  };
}

/**
 * `<skills>`: the usage rules, then one `- name: description` line per skill (names and
 * descriptions only). An empty catalog says that no skills are available.
 */
export function renderSkillsSection(rules: string, skills: readonly Skill[]): string {
  const lines =
    skills.length === 0
      ? ['No skills are available in this session.']
      : skills.map((skill) =>
          skill.description === ''
            ? `- ${escapeControl(skill.name)}`
            : `- ${escapeControl(skill.name)}: ${skill.description}`,
        );
  return `<skills>\n${escapeXmlText([rules, '', ...lines].join('\n'))}\n</skills>`;
}

function clean(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
