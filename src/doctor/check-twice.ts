import { createHash } from 'node:crypto';
import type { Corpus } from './corpus.js';
import { finding, type Finding } from './finding.js';
import type { DoctorSite, LoadedFile } from './matrix.js';

/** One instruction text a host loads a second time, with what it costs. */
interface Twice {
  readonly file: string;
  readonly first: string;
  readonly tokens: number;
  readonly why: string;
  readonly hosts: Set<string>;
  readonly sites: Set<string>;
}

/**
 * `loaded-twice`: at one site, a host loads one file twice (a link and its target), or two files
 * of the same text (a rule that repeats a file, a copy). Reported once per pair at the second file,
 * with the hosts and places where it happens and the tokens each load spends again.
 */
export function checkTwice(
  corpus: Corpus,
  sites: readonly DoctorSite[],
  realPath: (shown: string) => string,
): Finding[] {
  // A digest of each body, not the body: the keys hold 64 characters per file, not a copy of it.
  const textOf = new Map<string, string>();
  for (const file of corpus.files.values()) textOf.set(file.shown, bodyKey(file.text));
  const pairs = new Map<string, Twice>();
  for (const site of sites)
    for (const column of site.hosts) {
      const seen = new Map<string, LoadedFile>();
      for (const file of column.files) {
        const text = textOf.get(file.path);
        const keys = [
          `real\0${realPath(file.path)}`,
          ...(text === undefined || text === '' ? [] : [`text\0${text}`]),
        ];
        const sameFile = seen.get(keys[0] as string);
        const earlier = sameFile ?? (keys[1] === undefined ? undefined : seen.get(keys[1]));
        for (const key of keys) if (!seen.has(key)) seen.set(key, file);
        if (earlier === undefined) continue;
        const why =
          earlier.path === file.path
            ? 'once more, imported and on its own'
            : sameFile !== undefined
              ? 'a link to the same file'
              : 'the same text';
        const key = `${file.path}\0${earlier.path}`;
        const pair = pairs.get(key) ?? {
          file: file.path,
          first: earlier.path,
          tokens: file.tokens,
          why,
          hosts: new Set<string>(),
          sites: new Set<string>(),
        };
        pair.hosts.add(column.host);
        pair.sites.add(site.path);
        pairs.set(key, pair);
      }
    }
  return [...pairs.values()].map((pair) =>
    finding(
      'loaded-twice',
      { file: pair.file, line: 1, column: 1 },
      `${[...pair.hosts].join(', ')} ${pair.hosts.size === 1 ? 'loads' : 'load'} ${pair.first === pair.file ? 'this file twice' : `this file and ${pair.first}`} (${pair.why}) at ${listSites(pair.sites)}: ${pair.tokens} tokens sent twice`,
      pair.first === pair.file
        ? 'import it or load it, not both'
        : `keep one of ${pair.first} and ${pair.file} for these hosts`,
    ),
  );
}

/**
 * The SHA-256 of a file's text without frontmatter, whitespace folded (`body.replace(/\s+/g, ' ')
 * .trim()`; empty for an empty body): two files equal by it say the same thing. The folded text is
 * hashed a piece at a time, never built whole: folding a file of a million characters in one
 * `replace` costs tens of MB of heap (bench/adversarial.mjs, the doctor rows).
 */
function bodyKey(text: string): string {
  const words = /\S+/g;
  words.lastIndex = /^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/.exec(text)?.[0].length ?? 0;
  const hash = createHash('sha256');
  let piece = '';
  let empty = true;
  for (let word = words.exec(text); word !== null; word = words.exec(text)) {
    piece += empty ? word[0] : ` ${word[0]}`;
    empty = false;
    // Cut between words only: a surrogate pair is never split across two updates.
    if (piece.length >= 16_384) {
      hash.update(piece);
      piece = '';
    }
  }
  return empty ? '' : hash.update(piece).digest('hex');
}

function listSites(sites: ReadonlySet<string>): string {
  const list = [...sites];
  const shown = list.slice(0, 3).join(', ');
  return list.length > 3 ? `${shown} and ${list.length - 3} more places` : shown;
}
