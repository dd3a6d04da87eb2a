import fs from 'node:fs';
import path from 'node:path';
import { expect, expectTypeOf, test } from 'vitest';
import { DIAGNOSTICS, type DiagnosticCode } from '../src/diagnostics.js';
import type { Diagnostic } from '../src/errors.js';

// docs/diagnostics.md's table is generated from DIAGNOSTICS by `npm run generate`
// (scripts/doc-lists.mjs); test/doc-lists.test.ts fails while it is stale.

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') && !full.endsWith('.generated.ts') ? [full] : [];
  });
}

test('every code has one row, and the table columns are filled', () => {
  const codes = DIAGNOSTICS.map((row) => row.code);
  expect(new Set(codes).size).toBe(codes.length);
  for (const row of DIAGNOSTICS) {
    expect(row.code).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
    expect(row.meaning).toMatch(/\.$/);
    expect(row.action).toMatch(/\.$/);
  }
});

test('every diagnostic code written in src/ is in the table', () => {
  const known = new Set<string>(DIAGNOSTICS.map((row) => row.code));
  // `code: 'x'` literals, and codes passed to the local report/warn helpers.
  const patterns = [
    /\bcode: '([a-z0-9-]+)'/g,
    /\b(?:warn|report)\((?:'(?:debug|info|warn)',\s*)?'([a-z0-9-]+)'/g,
  ];
  const found = new Map<string, string>();
  for (const file of sourceFiles('src')) {
    if (file === path.join('src', 'diagnostics.ts')) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const pattern of patterns)
      for (const match of text.matchAll(pattern)) found.set(match[1] as string, file);
  }
  expect(found.size).toBeGreaterThan(20);
  const unknown = [...found].filter(([code]) => !known.has(code)).map(([code, file]) => `${code} (${file})`);
  expect(unknown).toEqual([]);
});

test('the type system accepts only codes of the table', () => {
  expectTypeOf<Diagnostic['code']>().toEqualTypeOf<DiagnosticCode>();
  expectTypeOf<'missing'>().toExtend<DiagnosticCode>();
  expectTypeOf<'no-such-code'>().not.toExtend<DiagnosticCode>();
});
