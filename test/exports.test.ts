import fs from 'node:fs';
import { expect, test } from 'vitest';
import * as api from '../src/index.js';

/** The names listed between the export markers of docs/embedding.md, by kind. */
function documented(): { values: string[]; types: string[] } {
  const doc = fs.readFileSync('docs/embedding.md', 'utf8');
  const section = doc.slice(doc.indexOf('<!-- exports:begin -->'), doc.indexOf('<!-- exports:end -->'));
  const names = (label: string) => {
    const start = section.indexOf(`- ${label}:`);
    const end = section.indexOf('\n- ', start + 1);
    const text = section.slice(start, end === -1 ? undefined : end).replace(/\([^)]*\)/g, '');
    return [...text.matchAll(/`([A-Za-z_]+)`/g)].map((match) => match[1] as string);
  };
  return { values: [...names('functions'), ...names('classes and constants')], types: names('types') };
}

/** The names `src/index.ts` re-exports with `export type { ... }`. */
function exportedTypes(): string[] {
  const source = fs.readFileSync('src/index.ts', 'utf8');
  return [...source.matchAll(/export type \{([^}]*)\}/g)].flatMap((match) =>
    (match[1] as string)
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
}

test('the values src/index.ts exports are exactly those docs/embedding.md lists', () => {
  expect(Object.keys(api).sort()).toEqual(documented().values.sort());
});

test('the types src/index.ts exports are exactly those docs/embedding.md lists', () => {
  const types = exportedTypes();
  expect(new Set(types).size).toBe(types.length);
  expect(types.sort()).toEqual(documented().types.sort());
});

test('src/index.ts only re-exports', () => {
  const code = fs
    .readFileSync('src/index.ts', 'utf8')
    .replace(/\/\*\*[\s\S]*?\*\//g, '')
    .replace(/export (type )?\{[^}]*\} from '[^']+';/g, '');
  expect(code.trim()).toBe('');
});
