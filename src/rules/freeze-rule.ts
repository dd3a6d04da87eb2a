import { defineSha256, digestOf, type readInstruction } from '../fs/read-instruction.js';
import { rememberCompiledGlobs, type CompiledGlob } from './compile-rule-globs.js';
import type { Rule } from './rule.js';

// A rule object is made in one place, whether discovery found its file or a session reads a named
// rule again (src/api/create-resolver.ts), so that the two cannot differ in shape or key order.

/** What a rule is apart from its file's content. */
export type RuleAbout = Omit<Rule, 'text' | 'bytes' | 'sha256' | 'mtimeMs' | 'hidden'>;

/**
 * The one way a rule object is made, at discovery and when a named rule is read again: `about`,
 * the body `text`, and the size, digest (lazy), time and hidden characters of the file `read`.
 * `compiled` are its globs, remembered for the rule set so they are never compiled twice.
 */
export function freezeRule(
  about: RuleAbout,
  text: string,
  read: Extract<ReturnType<typeof readInstruction>, { ok: true }>,
  compiled: readonly CompiledGlob[],
): Rule {
  const { path, realPath, relativePath, ownerDir, name, source, kind, globs, description, agents, regex } =
    about;
  // One object literal, in key order: building it with a spread cost a cold resolve over 500 rules
  // ~30M instructions more (callgrind).
  const head = {
    path,
    realPath,
    relativePath,
    ownerDir,
    name,
    source,
    kind,
    globs,
    description,
    agents,
    regex,
    text,
    bytes: read.bytes,
  };
  const tail = { mtimeMs: read.mtimeMs, hidden: Object.freeze([...read.hidden]) };
  const rule: Rule = Object.freeze(defineSha256(head, digestOf(read), tail));
  rememberCompiledGlobs(rule, compiled);
  return rule;
}
