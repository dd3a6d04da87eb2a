import path from 'node:path';
import type { Corpus, CorpusFile } from './corpus.js';
import { eachLine } from '../shared/each-line.js';
import { finding, type Finding } from './finding.js';

/** Paragraphs shorter than this (after folding whitespace) are too common to call duplicates. */
const MIN_PARAGRAPH = 60;

/** Two files sharing at least this share of their distinct lines are copies of one another. */
const COPY_SIMILARITY = 0.5;

/**
 * Text sent twice: the same paragraph in two files one host loads together (`duplicate-paragraph`),
 * and an AGENTS.md / CLAUDE.md pair of one directory where one is an outdated copy (`stale-copy`).
 */
export function checkCopies(corpus: Corpus): Finding[] {
  return [...duplicateParagraphs(corpus), ...staleCopies(corpus)];
}

function duplicateParagraphs(corpus: Corpus): Finding[] {
  const findings: Finding[] = [];
  const paragraphsOf = new Map<string, readonly Paragraph[]>();
  for (const load of corpus.loads) {
    const first = new Map<string, { file: CorpusFile; line: number }>();
    for (const absolute of load.files) {
      const file = corpus.files.get(absolute);
      if (file === undefined) continue;
      let paragraphs = paragraphsOf.get(absolute);
      if (paragraphs === undefined) {
        paragraphs = paragraphsIn(file.text);
        paragraphsOf.set(absolute, paragraphs);
      }
      for (const paragraph of paragraphs) {
        const earlier = first.get(paragraph.key);
        if (earlier === undefined) first.set(paragraph.key, { file, line: paragraph.line });
        else if (earlier.file !== file)
          findings.push(
            finding(
              'duplicate-paragraph',
              { file: file.shown, line: paragraph.line, column: 1 },
              `this paragraph is also in ${earlier.file.shown}:${earlier.line}; ${load.host} loads both, so it is sent twice`,
              `keep it in ${earlier.file.shown} only`,
            ),
          );
      }
    }
  }
  return findings;
}

interface Paragraph {
  /** The text with whitespace folded. */
  readonly key: string;
  readonly line: number;
}

/** The paragraphs of a file's body (blank-line separated), long enough to count, with their lines. */
function paragraphsIn(text: string): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  const first = frontmatterEnd(text);
  let start = first;
  let block: string[] = [];
  const flush = (line: number) => {
    const key = block.join(' ').replace(/\s+/g, ' ').trim();
    if (key.length >= MIN_PARAGRAPH && !key.startsWith('#')) paragraphs.push({ key, line });
    block = [];
  };
  eachLine(text, { crlf: true }, (line, index) => {
    if (index < first) return;
    if (line.trim() === '') {
      if (block.length > 0) flush(start + 1);
      start = index + 1;
    } else block.push(line);
  });
  if (block.length > 0) flush(start + 1);
  return paragraphs;
}

/** The index of the first line after a frontmatter block, or 0. */
function frontmatterEnd(text: string): number {
  let end = 0;
  eachLine(text, { crlf: true }, (line, index) => {
    if (index === 0) return line.replace(/^\uFEFF/, '').trimEnd() === '---';
    if (line.trimEnd() !== '---') return true;
    end = index + 1;
    return false;
  });
  return end;
}

function staleCopies(corpus: Corpus): Finding[] {
  const findings: Finding[] = [];
  for (const file of corpus.files.values()) {
    if (path.basename(file.path) !== 'CLAUDE.md') continue;
    const agents = corpus.files.get(path.join(path.dirname(file.path), 'AGENTS.md'));
    if (agents === undefined || agents.text.trim() === file.text.trim()) continue;
    const [ours, theirs] = [lineSet(file.text), lineSet(agents.text)];
    const shared = [...ours].filter((line) => theirs.has(line)).length;
    const similarity = shared / new Set([...ours, ...theirs]).size;
    if (similarity < COPY_SIMILARITY) continue;
    const [stale, fresh] = agents.mtimeMs < file.mtimeMs ? [agents, file] : [file, agents];
    const freshLines = lineSet(fresh.text);
    const lines = stale.text.split(/\r?\n/);
    const differs = lines.findIndex((line) => line.trim() !== '' && !freshLines.has(line.trim()));
    findings.push(
      finding(
        'stale-copy',
        { file: stale.shown, line: differs === -1 ? 1 : differs + 1, column: 1 },
        `${stale.shown} is an older copy of ${fresh.shown}: ${Math.round(similarity * 100)}% of their lines are the same, the rest differ`,
        `bring ${stale.shown} up to date, or make CLAUDE.md the one line @AGENTS.md`,
      ),
    );
  }
  return findings;
}

function lineSet(text: string): Set<string> {
  return new Set(
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  );
}
