// docs/presets.md and test/conformance/known-differences.json describe the same differences. In
// the section of each host the lab drives (`### <id>`), every bullet of a "Differences that
// remain" list ends with either `Lab rows: `case`, …` (each a row of that host in
// known-differences.json) or `Not in the lab: <why>` (a difference no lab case can show). Every row
// of known-differences.json is named by a bullet of its host's section. So a difference the docs
// describe cannot be left out of the lab by accident, nor a row left out of the docs.
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { HOSTS as LAB_HOSTS } from './conformance/hosts/index.mjs';

interface Row {
  readonly host: string;
  readonly case: string;
  readonly kind: string;
  readonly reason: string;
  readonly link?: string;
}

const docs = fs.readFileSync(new URL('../docs/presets.md', import.meta.url), 'utf8');
const rows = JSON.parse(
  fs.readFileSync(new URL('./conformance/known-differences.json', import.meta.url), 'utf8'),
) as Row[];

/** The text of `### <id>` up to the next `###` heading (`####` included), or null. */
export function sectionOf(markdown: string, id: string): string | null {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line === `### ${id}`);
  if (start < 0) return null;
  const end = lines.findIndex((line, index) => index > start && /^#{2,3} /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The anchor of a `### <id>` heading: lower case, without what is not a letter, digit or `-`. */
export function anchor(id: string): string {
  return id
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

/** The bullets of every "Differences that remain" list of a section, each joined into one line. */
export function differenceBullets(section: string): string[] {
  const bullets: string[] = [];
  let inList = false;
  for (const line of section.split('\n')) {
    if (line.startsWith('Differences that remain')) {
      inList = true;
      continue;
    }
    if (!inList) continue;
    if (line.startsWith('- ')) bullets.push(line.slice(2));
    else if (line.startsWith('  ') && bullets.length > 0) bullets[bullets.length - 1] += ` ${line.trim()}`;
    else if (line.trim() === '' && bullets.length > 0) inList = false;
  }
  return bullets;
}

/** The cases a bullet names after `Lab rows:`, or null when it has none. */
export function labRows(bullet: string): string[] | null {
  const at = bullet.lastIndexOf('Lab rows: ');
  if (at < 0) return null;
  return [...bullet.slice(at).matchAll(/`([a-z0-9.-]+)`/g)].map((match) => match[1] as string);
}

describe('docs/presets.md and known-differences.json name the same differences', () => {
  const drivers = LAB_HOSTS.map((host) => ({ id: host.id, section: sectionOf(docs, host.id) }));

  test.each(drivers)(
    '$id: a section, and each of its differences is a lab row or says why not',
    ({ id, section }) => {
      expect(section, `docs/presets.md has no "### ${id}" section`).not.toBeNull();
      const bullets = differenceBullets(section as string);
      expect(bullets.length, `### ${id} lists no "Differences that remain"`).toBeGreaterThan(0);
      for (const bullet of bullets) {
        const named = labRows(bullet);
        if (named === null) {
          expect(bullet, `### ${id}: a difference with neither "Lab rows:" nor "Not in the lab:"`).toMatch(
            /Not in the lab: \S/,
          );
          continue;
        }
        expect(named.length, `### ${id}: "Lab rows:" names no case: ${bullet}`).toBeGreaterThan(0);
        for (const name of named)
          expect(
            rows.some((row) => row.host === id && row.case === name),
            `### ${id} names lab row ${name}, which known-differences.json does not list for ${id}`,
          ).toBe(true);
      }
    },
  );

  test('every row of known-differences.json is named by its host’s section, and links to it', () => {
    for (const row of rows) {
      const section = sectionOf(docs, row.host);
      expect(section, `${row.host}/${row.case}: docs/presets.md has no "### ${row.host}"`).not.toBeNull();
      const named = differenceBullets(section as string).flatMap((bullet) => labRows(bullet) ?? []);
      expect(named, `${row.host}/${row.case} is not named in docs/presets.md#${row.host}`).toContain(
        row.case,
      );
      expect(row.link).toBe(`docs/presets.md#${anchor(row.host)}`);
      expect(row.reason.length).toBeGreaterThan(40);
    }
  });

  test('the parsing: a bullet over several lines, rows and reasons', () => {
    const section = [
      'Intro.',
      '',
      'Differences that remain:',
      '- One thing',
      '  differs. Lab rows: `a-case`, `b-case`.',
      '- Another. Not in the lab: needs a managed policy file.',
      '',
      'After.',
    ].join('\n');
    const bullets = differenceBullets(section);
    expect(bullets).toEqual([
      'One thing differs. Lab rows: `a-case`, `b-case`.',
      'Another. Not in the lab: needs a managed policy file.',
    ]);
    expect(labRows(bullets[0] as string)).toEqual(['a-case', 'b-case']);
    expect(labRows(bullets[1] as string)).toBeNull();
    expect(sectionOf('### a\nx\n### b\ny\n', 'a')).toBe('x');
    expect(anchor('claude-code-2.1.197')).toBe('claude-code-21197');
  });
});
