import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { checkRelativeEntry, isInside } from '../src/fs/contain.js';
import { memoryResolver, WORK } from './helpers/memory.js';

const outside = {
  '/secret.md': 'secret',
  '/w-evil/AGENTS.md': 'sibling with a shared prefix',
  '/etc/passwd': 'root:x:0:0',
};

describe('containment', () => {
  test.each([
    // entry, env, diagnostic code
    ['../secret.md', {}, 'outside-workdir'], // climbs out
    ['a/../../secret.md', {}, 'outside-workdir'], // climbs out after going down
    ['/secret.md', {}, 'outside-workdir'], // absolute
    ['/w/AGENTS.md', {}, 'outside-workdir'], // absolute, even when inside
    ['../w-evil/AGENTS.md', {}, 'outside-workdir'], // sibling sharing the /w prefix
    ['${env.X}/etc/passwd', { X: '../..' }, 'outside-workdir'], // a token that expands to ../..
    ['teams/${env.X}', { X: '../../secret.md' }, 'outside-workdir'],
    ['link-out.md', {}, 'symlink-outside-workdir'], // a symlink inside pointing outside
    ['dir-link/AGENTS.md', {}, 'symlink-outside-workdir'], // through a symlinked directory
    ['chain.md', {}, 'symlink-outside-workdir'], // a chain of links that ends outside
    ['AGENTS.md\0.txt', {}, 'invalid-entry'], // NUL byte
    ['', {}, 'invalid-entry'], // empty entry
    ['C:/secret.md', {}, 'outside-workdir'], // drive letter
    ['\\\\host\\share\\x.md', {}, 'outside-workdir'], // UNC
    ['docs\\AGENTS.md', {}, 'invalid-entry'], // backslash
    ['.', {}, 'outside-workdir'], // the work dir itself is not a file
  ])('%j is refused', async (entry, env, code) => {
    const { resolver, fs } = await memoryResolver(
      {
        'AGENTS.md': 'root',
        'link-out.md': { symlink: '/secret.md' },
        'dir-link': { symlink: '/w-evil' },
        'chain.md': { symlink: 'hop1.md' },
        'hop1.md': { symlink: '../etc/passwd' },
      },
      { contextPaths: [entry] },
      { env, outside },
    );
    const result = await resolver.resolve();
    expect(result.files).toEqual([]);
    expect(result.text).toBe('');
    expect(result.diagnostics.map((d) => [d.level, d.code])).toEqual([['warn', code]]);
    // Nothing outside the work dir was opened or listed.
    expect(
      fs.calls
        .filter((call) => call.op === 'readFile' || call.op === 'readdir')
        .every((call) => isInside(WORK, call.path)),
    ).toBe(true);
    expect(fs.calls.every((call) => isInside(WORK, call.path))).toBe(true);
  });

  test.each([
    ['AGENTS.md'],
    ['./AGENTS.md'],
    ['docs/../AGENTS.md'],
    ['inner-link.md'], // a symlink that stays inside
    ['%2e%2e/AGENTS.md'], // percent-encoding is a literal name, never decoded
  ])('%j is accepted', async (entry) => {
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': 'root', 'inner-link.md': { symlink: 'AGENTS.md' }, '%2e%2e/AGENTS.md': 'literal' },
      { contextPaths: [entry] },
    );
    const result = await resolver.resolve();
    expect(result.files).toHaveLength(1);
    expect(result.diagnostics.filter((d) => d.level === 'warn')).toEqual([]);
  });

  test('isInside compares segments, not string prefixes', () => {
    expect(isInside('/w', '/w')).toBe(true);
    expect(isInside('/w', '/w/a')).toBe(true);
    expect(isInside('/w', '/w-evil')).toBe(false);
    expect(isInside('/w', '/w-evil/a')).toBe(false);
    expect(isInside('/w', '/')).toBe(false);
    expect(isInside('/w', '/w/..a')).toBe(true); // a name that merely starts with two dots
  });

  test('property: no expanded entry reaches the filesystem outside the work dir', async () => {
    const segment = fc.constantFrom(
      '..',
      '.',
      'a',
      'b',
      '',
      'w',
      'w-evil',
      'AGENTS.md',
      '%2e%2e',
      '${env.X}',
      '${agent}',
      'link',
      '/',
      '\\',
      ':',
    );
    const entry = fc.array(segment, { maxLength: 6 }).map((parts) => parts.join('/'));
    const envValue = fc
      .array(fc.constantFrom('..', 'a', '/', 'secret.md', 'w-evil'), { maxLength: 4 })
      .map((parts) => parts.join('/'));
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 4 }), envValue, async (entries, x) => {
        const { resolver, fs } = await memoryResolver(
          { 'AGENTS.md': 'root', 'a/AGENTS.md': 'a', link: { symlink: '/w-evil' } },
          { contextPaths: entries },
          { env: { X: x }, outside },
        );
        const result = await resolver.resolve({});
        for (const call of fs.calls) expect(isInside(WORK, call.path), `${call.op} ${call.path}`).toBe(true);
        for (const file of result.files) expect(isInside(WORK, file.realPath)).toBe(true);
      }),
      { numRuns: 10_000 },
    );
    // 10,000 resolutions: ~11 s on a quiet 2-core machine, past 20 s under load (CI shares cores).
  }, 90_000);
});

describe('checkRelativeEntry', () => {
  test.each([
    ['AGENTS.md', null],
    ['a/b/../c.md', null],
    ['..', 'climbs-out'],
    ['a/../..', 'climbs-out'],
    ['/abs', 'absolute'],
    ['c:x', 'drive'],
    ['//server/share', 'unc'],
    ['a\\b', 'backslash'],
    ['a:b', 'drive'], // drive-relative on Windows
    ['notes:v2.md', 'colon'],
    ['CON', 'device-name'],
    ['docs/nul.md', 'device-name'],
    ['CONIN$', 'device-name'],
    ['conout$.txt', 'device-name'],
    ['aux .md', 'device-name'],
    ['docs/Com1  .. .md', 'device-name'],
    ['lpt9. .', 'device-name'],
    ['auxiliary.md', null],
    ['conin.md', null],
    ['x aux.md', null],
    ['', 'empty'],
    ['a\0b', 'nul'],
  ])('%j → %s', (entry, expected) => {
    expect(checkRelativeEntry(entry)).toBe(expected);
  });
});
