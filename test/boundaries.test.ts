import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test } from 'vitest';

interface Rule {
  readonly name: string;
  readonly comment: string;
  readonly severity: string;
}

const require = createRequire(import.meta.url);
const { forbidden } = require('../.dependency-cruiser.cjs') as { forbidden: readonly Rule[] };

test('every boundary rule has a name, a reason and fails the check', () => {
  expect(forbidden.length).toBeGreaterThanOrEqual(15);
  for (const rule of forbidden) {
    expect(rule.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
    expect(rule.comment.length).toBeGreaterThan(20);
    expect(rule.severity).toBe('error');
  }
  expect(new Set(forbidden.map((rule) => rule.name)).size).toBe(forbidden.length);
});

test('ARCHITECTURE.md names every rule of .dependency-cruiser.cjs, and no other', () => {
  const doc = fs.readFileSync('ARCHITECTURE.md', 'utf8');
  const table = doc.slice(doc.indexOf('## Modules and the import table'), doc.indexOf('## Disclosure'));
  const named = [...table.matchAll(/\| `([a-z-]+)` \|$/gm)].map((match) => match[1]);
  const moduleRules = forbidden
    .map((rule) => rule.name)
    .filter(
      (name) =>
        ![
          'no-node-fs-in-the-core',
          'only-the-composition-root-imports-hosts',
          'no-circular',
          'no-unresolvable',
        ].includes(name),
    );
  expect(named.sort()).toEqual(moduleRules.sort());
  expect(table).toContain('`no-node-fs-in-the-core`');
  expect(table).toContain('`no-circular`');
  expect(table).toContain('`only-the-composition-root-imports-hosts`');
});

test('npm test runs the boundary check', () => {
  const { scripts } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(scripts['lint:deps']).toContain('depcruise src --config .dependency-cruiser.cjs');
  expect(scripts['test']).toContain('npm run lint:deps');
});
