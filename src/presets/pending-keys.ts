/**
 * TEMPORARY, until the config schema knows every key the presets use (`rules.*`, `imports.*`,
 * `instructions.select`, `instructions.symlinks`, list-valued `instructions.userFile`, sub-path
 * and `@rules` candidates, `contextRoot`, `contextDiscovery.respectGitignore`). Drops from a preset
 * the values the schema does not accept yet, so that a preset works with what ctxfiles supports
 * today; the dropped key paths are returned for a diagnostic. Once the schema accepts every value,
 * this returns the preset unchanged (test/presets.test.ts checks which paths are dropped).
 *
 * `accepts` answers whether a config holding only the given value is valid.
 */
export function dropPendingKeys(
  preset: Readonly<Record<string, unknown>>,
  accepts: (config: Readonly<Record<string, unknown>>) => boolean,
): { readonly preset: Readonly<Record<string, unknown>>; readonly dropped: readonly string[] } {
  const dropped: string[] = [];
  return { preset: keep(preset, [], accepts, dropped), dropped };
}

/** The part of `value` (found at key path `at`) that `accepts` takes; dropped paths are pushed. */
function keep(
  value: Readonly<Record<string, unknown>>,
  at: readonly string[],
  accepts: (config: Readonly<Record<string, unknown>>) => boolean,
  dropped: string[],
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const where = [...at, key];
    const probe = (candidate: unknown) => accepts(nest(where, candidate));
    const shown = where.join('.');
    if (probe(child)) {
      result[key] = child;
    } else if (typeof child === 'object' && child !== null && !Array.isArray(child)) {
      const part = keep(child as Record<string, unknown>, where, accepts, dropped);
      if (Object.keys(part).length > 0 && probe(part)) result[key] = part;
      else if (Object.keys(part).length > 0) dropped.push(shown);
    } else if (Array.isArray(child)) {
      const items = child.filter((item) => probe([item]));
      if (items.length > 0 && probe(items)) {
        result[key] = items;
        for (const item of child)
          if (!items.includes(item)) dropped.push(`${shown}[${JSON.stringify(item)}]`);
      } else dropped.push(shown);
    } else {
      dropped.push(shown);
    }
  }
  return result;
}

function nest(at: readonly string[], value: unknown): Record<string, unknown> {
  let result: unknown = value;
  for (const key of [...at].reverse()) result = { [key]: result };
  return result as Record<string, unknown>;
}
