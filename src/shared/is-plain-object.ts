/**
 * True for an object written as a literal or parsed from JSON or YAML (its prototype is
 * `Object.prototype` or `null`); false for arrays, class instances, functions and primitives.
 * Merges and key-path walks descend only into such objects.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
