import { CtxfilesError, suggest, type Diagnostic } from '../errors.js';
import { DEFAULT_CONFIG, KNOWN_TOP_LEVEL_KEYS } from './defaults.js';
import { normalizeConfig } from './normalize-config.js';
import { configSchema } from './schema.js';
import { findForbiddenKey } from './forbidden-keys.js';
import type { SourceText } from './source-text.js';
import type { Config } from './types.js';
import { toProblems } from './zod-issues.js';

/**
 * The thorough path: validates with zod, maps every issue to a located problem, and warns about
 * unknown top-level keys with a "did you mean" hint.
 * @throws CtxfilesError `config-invalid` listing every problem.
 */
export function validateConfig(
  value: unknown,
  source: SourceText,
  prefix: readonly PropertyKey[],
  diagnostics: Diagnostic[],
): Config {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CtxfilesError('config-invalid', [source.problem(prefix, 'the config must be an object')]);
  }
  const forbidden = findForbiddenKey(value, [...prefix]);
  if (forbidden !== undefined) {
    throw new CtxfilesError('config-invalid', [
      source.problem(forbidden, `the key "${String(forbidden[forbidden.length - 1])}" is not allowed`, 'key'),
    ]);
  }
  const parsed = configSchema.safeParse(value, { reportInput: true });
  if (!parsed.success) {
    throw new CtxfilesError('config-invalid', toProblems(parsed.error.issues, source, prefix, knownKeysAt));
  }
  for (const key of Object.keys(value)) {
    if (KNOWN_TOP_LEVEL_KEYS.includes(key)) continue;
    const hint = suggest(
      key,
      KNOWN_TOP_LEVEL_KEYS.filter((known) => known !== '$schema'),
    );
    diagnostics.push({
      level: 'warn',
      code: 'unknown-key',
      message: source.problem(
        [...prefix, key],
        `unknown key "${key}" is ignored.${hint ? ` Did you mean "${hint}"?` : ''}`,
        'key',
      ).message,
    });
  }
  return normalizeConfig(parsed.data);
}

function knownKeysAt(keyPath: readonly PropertyKey[]): readonly string[] {
  const last = keyPath[keyPath.length - 1];
  if (keyPath.length === 0) return KNOWN_TOP_LEVEL_KEYS;
  if (last === 'context') return ['paths', 'mode', 'nested'];
  if (last === 'contextDiscovery') return Object.keys(DEFAULT_CONFIG.contextDiscovery);
  if (last === 'instructions') return Object.keys(DEFAULT_CONFIG.instructions);
  if (last === 'budget') return Object.keys(DEFAULT_CONFIG.budget);
  if (last === 'wording') return Object.keys(DEFAULT_CONFIG.wording);
  return [];
}
