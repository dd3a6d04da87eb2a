import type { DirEntry } from '../fs/file-system.js';
import type { RuleLocation } from './rule-adapter.js';

/**
 * What an owner's listing says of a rule location before any call: `absent` (no look-up),
 * `plain-file` (a one-segment file location listed under its exact name as a plain file: read it
 * as listed, no look-up), `other-case` (listed only in another case: one probe tells whether the
 * volume finds it under this name) or `look-up` (resolve it through the port, from the owner down).
 */
export type ListedLocation = 'absent' | 'plain-file' | 'other-case' | 'look-up';

/**
 * What `entries` (an owner's listing as the nested walk keeps it: every entry but the plain files
 * whose name is no location's first segment, ignoring case) says of each location. The exact entry
 * decides; without one, an entry equal to it ignoring case means a case-insensitive volume may find
 * it under that name; with neither, it is absent on any volume. Each look-up of
 * an absent path would cost a call per path segment (docs/performance.md, "One walk").
 */
export function listedOwner(entries: readonly DirEntry[]): (location: RuleLocation) => ListedLocation {
  return (location) => {
    const { first, lower, single } = firstSegmentOf(location);
    let folded = false;
    for (const entry of entries) {
      const name = entry.name;
      if (name === first) {
        if (entry.kind === 'file') return single ? 'plain-file' : 'absent';
        if (entry.kind === 'directory') return single ? 'absent' : 'look-up';
        return 'look-up';
      }
      if (!folded && name.length === first.length && name.toLowerCase() === lower) folded = true;
    }
    return folded ? 'other-case' : 'absent';
  };
}

/** A location's first path segment, in lower case too, and whether the location is that one file. */
interface FirstSegment {
  readonly first: string;
  readonly lower: string;
  readonly single: boolean;
}

// Locations are the adapters' constants: each is split once, not once per owner.
const FIRST_SEGMENTS = new WeakMap<RuleLocation, FirstSegment>();

function firstSegmentOf(location: RuleLocation): FirstSegment {
  let segment = FIRST_SEGMENTS.get(location);
  if (segment === undefined) {
    const cut = location.path.indexOf('/');
    const first = cut === -1 ? location.path : location.path.slice(0, cut);
    segment = { first, lower: first.toLowerCase(), single: cut === -1 && location.type === 'file' };
    FIRST_SEGMENTS.set(location, segment);
  }
  return segment;
}
