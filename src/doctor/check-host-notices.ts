import { hostOfPreset } from '../hosts/index.js';
import { finding, type Finding } from './finding.js';
import { positionOf, type SiteResolution } from './matrix.js';

/** The frame tags of a preset's host format (`frameTags`): Codex's `INSTRUCTIONS` unless it says. */
function frameTagsOf(preset: string): readonly string[] {
  const formats = hostOfPreset(preset)?.formats ?? [];
  return formats.find((format) => format.frameBreaks !== undefined)?.frameTags ?? ['INSTRUCTIONS'];
}

/**
 * Findings for what a host sends but ctxfiles cannot show as the host does, from the diagnostics
 * of each host's resolution: `frame-escaped` (a file holds the host's own frame tags, which the
 * host sends as written: its frame breaks there) and `too-large` (a file past the 1 MiB ctxfiles
 * reads of one file, which a host with no cap sends whole). One finding per host and file; paths as
 * doctor shows them (`~/` for the user's files).
 */
export function checkHostNotices(
  resolutions: readonly SiteResolution[],
  show: (absolute: string) => string,
): Finding[] {
  // Per code and file: the hosts that load it, and the text as the first one read it.
  const noted = new Map<
    string,
    { code: Noted; path: string; hosts: Set<string>; text: string; tags: readonly string[] }
  >();
  for (const { hosts } of resolutions)
    for (const { host, resolution } of hosts)
      for (const diagnostic of resolution.result.diagnostics) {
        const { code, path } = diagnostic;
        if (path === undefined || (code !== 'frame-escaped' && code !== 'too-large')) continue;
        const tags = code === 'frame-escaped' ? frameTagsOf(host) : [];
        const key = `${code}\0${path}\0${tags.join(' ')}`;
        const text = resolution.result.files.find((file) => file.path === path)?.text ?? '';
        const entry = noted.get(key) ?? { code, path, hosts: new Set<string>(), text, tags };
        entry.hosts.add(host);
        noted.set(key, entry);
      }
  return [...noted.values()].map(({ code, path, hosts, text, tags }) => {
    const file = show(path);
    const who = [...hosts].join(', ');
    if (code === 'too-large')
      return finding(
        'too-large',
        { file, line: 1, column: 1 },
        `loaded by ${who}, but over 1 MiB: ctxfiles neither shows nor checks it, and a host with no size cap sends all of it on every request`,
        'split the file, or move detail into files loaded only where needed',
      );
    const at = text.search(new RegExp(`<\\s*\\/?\\s*(?:${tags.join('|')})`, 'i'));
    const named = tags.map((tag) => `<${tag}>`).join(' or ');
    return finding(
      'frame-escaped',
      at < 0 ? { file, line: 1, column: 1 } : { file, ...positionOf(text, at) },
      `${who} sends this file inside its ${named} frame as written: this tag ends or reopens the frame, so the model reads what follows as outside the instructions (ctxfiles shows it escaped)`,
      `reword the line so that it holds no ${named} tag`,
    );
  });
}

type Noted = 'frame-escaped' | 'too-large';
