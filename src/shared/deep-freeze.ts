/**
 * Freezes a value and everything below it, and returns it. A value already frozen is left as it is
 * (and so is what is below it), which also ends the walk on a cycle.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
