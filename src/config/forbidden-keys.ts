/** Keys that could reach an object's prototype; refused anywhere in config and flow files. */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The key path of the first key that could reach a prototype, if any. */
export function findForbiddenKey(value: unknown, keyPath: PropertyKey[]): PropertyKey[] | undefined {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findForbiddenKey(value[index], [...keyPath, index]);
      if (found) return found;
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) return [...keyPath, key];
      const found = findForbiddenKey((value as Record<string, unknown>)[key], [...keyPath, key]);
      if (found) return found;
    }
  }
  return undefined;
}
