import { describe, expect, test } from 'vitest';
import { deepFreeze } from '../src/shared/deep-freeze.js';
import { isPlainObject } from '../src/shared/is-plain-object.js';
import { sameStrings } from '../src/shared/same-strings.js';

// src/shared: the helpers several modules shared as copies, each defined once.

describe('isPlainObject', () => {
  test.each([
    [{ a: 1 }, true], // a literal
    [JSON.parse('{"a": {}}') as unknown, true], // parsed JSON
    [Object.create(null) as unknown, true], // no prototype (YAML maps can be built so)
    [Object.freeze({}), true], // frozen presets and defaults stay mergeable
    [[], false],
    [null, false],
    ['x', false],
    [new Map(), false], // a class instance is a value, never merged into
    [new Date(0), false],
  ])('%o → %s', (value, expected) => {
    expect(isPlainObject(value)).toBe(expected);
  });
});

describe('deepFreeze', () => {
  test('freezes every level and returns the same value', () => {
    const value = { a: { b: [{ c: 1 }] } };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value.a.b[0])).toBe(true);
  });

  test('ends on a cycle', () => {
    const value: { self?: unknown; list: unknown[] } = { list: [] };
    value.self = value;
    value.list.push(value);
    expect(Object.isFrozen(deepFreeze(value).list)).toBe(true);
  });
});

test.each([
  [['a', 'b'], ['a', 'b'], true],
  [['a', 'b'], ['b', 'a'], false], // order counts
  [['a'], ['a', 'a'], false],
  [[], [], true],
])('sameStrings(%o, %o) is %s', (a, b, expected) => {
  expect(sameStrings(a, b)).toBe(expected);
});
