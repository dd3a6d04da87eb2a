import fc from 'fast-check';
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONTEXT_PATHS } from '../src/config/defaults.js';
import { configSchema } from '../src/config/schema.js';
import fastValidate from '../src/config/validate-config.generated.js';
// @ts-expect-error: a plain ES module without types
import { fastValidatorSource } from '../scripts/fast-validator.mjs';
import { HOST_REGISTRY } from '../src/hosts/index.js';
import { configNames } from '../src/config/types.js';

describe('the fast validator generated from the JSON Schema', () => {
  test('is up to date with schema/config.schema.json', () => {
    const schema = JSON.parse(fs.readFileSync('schema/config.schema.json', 'utf8')) as unknown;
    expect(fs.readFileSync('src/config/validate-config.generated.ts', 'utf8')).toBe(
      (fastValidatorSource as (schema: unknown) => string)(schema),
    );
  });

  test('the schema names the default contextPaths, every one of them (as its default, not in prose)', () => {
    const schema = JSON.parse(fs.readFileSync('schema/config.schema.json', 'utf8')) as {
      properties: { contextPaths: { description: string; default: unknown } };
    };
    expect(schema.properties.contextPaths.default).toEqual([...DEFAULT_CONTEXT_PATHS]);
    expect(schema.properties.contextPaths.description).not.toContain('Default');
    expect(DEFAULT_CONTEXT_PATHS).toContain('AGENTS.local.md');
  });

  const anyValue = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -3, max: 200_000 }),
    fc.double({ noNaN: true }),
    fc.constantFrom(
      '',
      '.',
      '..',
      'AGENTS.md',
      'a/b',
      'a\\b',
      '/abs/x.md',
      '~/x.md',
      '~',
      'x.MD',
      'replace',
      'append',
      'opencode',
      'xml',
      'reminder',
      'magi',
      'root',
      'project',
      'off',
    ),
    fc.array(fc.constantFrom('AGENTS.md', '/abs/x.md', '~/a.md', 'a/b', '', 3 as unknown as string), {
      maxLength: 3,
    }),
    fc.dictionary(
      fc.constantFrom('paths', 'mode', 'nested', 'x'),
      fc.constantFrom<unknown>(['A.md'], 'append', true, 1, null),
      { maxKeys: 3 },
    ),
  );
  // Mostly valid fields, each replaced by an arbitrary value now and then, so that both
  // validators see plenty of valid configs and plenty of near misses.
  const maybe = <T>(valid: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 8, arbitrary: valid as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: anyValue });
  const name = fc.constantFrom(
    'AGENTS.md',
    'CLAUDE.md',
    '.',
    '..',
    '...',
    '.hidden',
    'a/b',
    'a\\b',
    '',
    'ü.md',
  );
  const userPath = fc.constantFrom(
    '/abs/x.md',
    '~/x.md',
    '~',
    '~\\x.md',
    'rel.md',
    '/abs/x.MD',
    '/x.txt',
    '~x.md',
    'C:/x.md',
  );
  const cap = fc.oneof(fc.nat(100_000), fc.constantFrom(-1, 1.5, 2 ** 53));
  const context = fc.record(
    {
      paths: maybe(fc.array(fc.string(), { maxLength: 3 })),
      mode: maybe(fc.string()),
      nested: maybe(fc.boolean()),
    },
    { requiredKeys: [] },
  );
  const config = fc.record(
    {
      contextPaths: maybe(fc.array(fc.string(), { maxLength: 3 })),
      agents: maybe(
        fc.dictionary(
          fc.constantFrom('coder', 'reviewer'),
          fc.record({ context: maybe(context), model: fc.string() }, { requiredKeys: [] }),
          { maxKeys: 2 },
        ),
      ),
      contextDiscovery: maybe(
        fc.record(
          {
            enabled: maybe(fc.boolean()),
            maxFiles: maybe(cap),
            maxDepth: maybe(cap),
            maxFileBytes: cap,
            maxSessionBytes: cap,
            maxManifestBytes: cap,
          },
          { requiredKeys: [] },
        ),
      ),
      flows: maybe(fc.array(fc.string(), { maxLength: 2 })),
      instructions: maybe(
        fc.record(
          {
            walk: maybe(fc.constantFrom('off', 'root', 'project')),
            projectRootMarkers: fc.array(name, { maxLength: 2 }),
            candidates: fc.array(name, { maxLength: 3 }),
            userFile: fc.oneof(fc.constant(null), userPath),
            extraFiles: fc.array(userPath, { maxLength: 2 }),
            trackChanges: maybe(fc.boolean()),
          },
          { requiredKeys: [] },
        ),
      ),
      format: maybe(fc.constantFrom('opencode', 'xml', 'reminder', 'magi')),
      budget: maybe(
        fc.record(
          { maxBytes: fc.oneof(fc.constant(null), cap), maxTokens: fc.oneof(fc.constant(null), cap) },
          { requiredKeys: [] },
        ),
      ),
      wording: maybe(
        fc.record({ reminderIntro: fc.string(), magiEmpty: maybe(fc.string()) }, { requiredKeys: [] }),
      ),
      // OpenCode's own keys: any value, in both validators.
      tui: fc.jsonValue({ maxDepth: 2 }),
      providers: fc.jsonValue({ maxDepth: 2 }),
      autoCompact: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  );

  test('property: it accepts exactly what the zod schema accepts, with the shipped names', () => {
    // zod takes any string for `preset` and `format`; the loader checks them against the registry
    // it is handed, and the published schema (so the fast validator) lists the shipped names.
    const names = configNames(HOST_REGISTRY);
    const named = (value: { preset?: unknown; format?: unknown }) =>
      (value.preset === undefined || names.presets.includes(value.preset as string)) &&
      (value.format === undefined || names.formats.includes(value.format as string));
    let accepted = 0;
    fc.assert(
      fc.property(config, (value) => {
        const expected = configSchema.safeParse(value).success && named(value as never);
        if (expected) accepted += 1;
        expect(fastValidate(value)).toBe(expected);
      }),
      { numRuns: 10_000 },
    );
    // Both outcomes are exercised, not only rejections.
    expect(accepted).toBeGreaterThan(100);
  });
});
