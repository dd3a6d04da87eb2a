import type { ResolveResult } from '../api/create-resolver.js';
import { finding, type Finding } from './finding.js';
import { positionOf } from './position-of.js';

/** A file a host sends that ctxfiles shows otherwise, and where in it (for `frame-escaped`). */
export interface HostNotice {
  readonly code: Noted;
  /** Absolute, as the resolution spelled it. */
  readonly path: string;
  /** The frame tags of the host (`frame-escaped`), or none. */
  readonly tags: readonly string[];
  /** Where the first frame tag is in the file as the host loads it; line 1, column 1 when not found. */
  readonly line: number;
  readonly column: number;
}

/**
 * The notices of one host's resolution, from its diagnostics: `frame-escaped` (a file holds the
 * host's own frame tags, which the host sends as written: its frame breaks there) and `too-large`
 * (a file past the 1 MiB ctxfiles reads of one file, which a host with no cap sends whole). Taken
 * when the resolution is done, so that doctor need not keep its text (docs/doctor.md, "Bounds").
 */
export function hostNotices(frameTags: readonly string[], result: ResolveResult): HostNotice[] {
  const notices: HostNotice[] = [];
  for (const { code, path } of result.diagnostics) {
    if (path === undefined || (code !== 'frame-escaped' && code !== 'too-large')) continue;
    const tags = code === 'frame-escaped' ? frameTags : [];
    let at = { line: 1, column: 1 };
    if (code === 'frame-escaped') {
      const text = result.files.find((file) => file.path === path)?.text ?? '';
      const offset = text.search(new RegExp(`<\\s*\\/?\\s*(?:${tags.join('|')})`, 'i'));
      if (offset >= 0) at = positionOf(text, offset);
    }
    notices.push({ code, path, tags, ...at });
  }
  return notices;
}

/**
 * Findings for what a host sends but ctxfiles cannot show as the host does, from each host's
 * {@link hostNotices} at each site. One finding per code and file (and frame tags), at the place
 * the first host that noted it found; paths as doctor shows them (`~/` for the user's files).
 */
export function checkHostNotices(
  sites: readonly {
    readonly hosts: readonly { readonly host: string; readonly notices: readonly HostNotice[] }[];
  }[],
  show: (absolute: string) => string,
): Finding[] {
  // Per code and file: the hosts that load it, and the place as the first one read it.
  const noted = new Map<string, { notice: HostNotice; hosts: Set<string> }>();
  for (const { hosts } of sites)
    for (const { host, notices } of hosts)
      for (const notice of notices) {
        const key = `${notice.code}\0${notice.path}\0${notice.tags.join(' ')}`;
        const entry = noted.get(key) ?? { notice, hosts: new Set<string>() };
        entry.hosts.add(host);
        noted.set(key, entry);
      }
  return [...noted.values()].map(({ notice, hosts }) => {
    const { code, path, tags, line, column } = notice;
    const file = show(path);
    const who = [...hosts].join(', ');
    if (code === 'too-large')
      return finding(
        'too-large',
        { file, line: 1, column: 1 },
        `loaded by ${who}, but over 1 MiB: ctxfiles neither shows nor checks it, and a host with no size cap sends all of it on every request`,
        'split the file, or move detail into files loaded only where needed',
      );
    const named = tags.map((tag) => `<${tag}>`).join(' or ');
    return finding(
      'frame-escaped',
      { file, line, column },
      `${who} sends this file inside its ${named} frame as written: this tag ends or reopens the frame, so the model reads what follows as outside the instructions (ctxfiles shows it escaped)`,
      `reword the line so that it holds no ${named} tag`,
    );
  });
}

type Noted = 'frame-escaped' | 'too-large';
