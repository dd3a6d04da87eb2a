import { CtxfilesError, suggest, type Diagnostic } from '../errors.js';
import { KNOWN_TOP_LEVEL_KEYS } from './defaults.js';
import { normalizeConfig } from './normalize-config.js';
import { configSchema } from './schema.js';
import { findForbiddenKey } from './forbidden-keys.js';
import type { SourceText } from './source-text.js';
import { unknownNames, type Config, type ConfigNames, type HostProfile } from './types.js';
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
  names: ConfigNames,
  profile: Readonly<Partial<HostProfile>> = {},
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
  const unnamed = unknownNames(parsed.data, names).map(([key, allowed]) =>
    source.problem(
      [...prefix, key],
      `Invalid option: expected one of ${allowed.map((name) => `"${name}"`).join('|')}`,
    ),
  );
  if (unnamed.length > 0) throw new CtxfilesError('config-invalid', unnamed);
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
  return normalizeConfig(parsed.data, profile);
}

/**
 * The keys the schema allows in the object at `keyPath` (for "Known keys" in an unknown-key error),
 * read from the schema itself so that every nested object (`imports`, `rules`, `agents.<id>`, …)
 * lists its real keys.
 */
export function knownKeysAt(keyPath: readonly PropertyKey[]): readonly string[] {
  if (keyPath.length === 0) return KNOWN_TOP_LEVEL_KEYS;
  let node: SchemaNode | undefined = configSchema as unknown as SchemaNode;
  for (const key of keyPath) {
    node = childOf(node, key);
    if (node === undefined) return [];
  }
  return [...new Set(objectsOf(node).flatMap((object) => Object.keys(object._zod.def.shape ?? {})))];
}

/** The part of a zod 4 schema's definition this walk reads. */
interface SchemaNode {
  readonly _zod: {
    readonly def: {
      readonly type: string;
      readonly shape?: Readonly<Record<string, SchemaNode>>;
      readonly innerType?: SchemaNode;
      readonly in?: SchemaNode;
      readonly valueType?: SchemaNode;
      readonly element?: SchemaNode;
      readonly options?: readonly SchemaNode[];
      readonly getter?: () => SchemaNode;
    };
  };
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

function unwrap(node: SchemaNode): SchemaNode {
  for (let depth = 0; depth < 32; depth += 1) {
    const def = node._zod.def;
    const inner = WRAPPERS.has(def.type)
      ? def.innerType
      : def.type === 'pipe'
        ? def.in
        : def.type === 'lazy'
          ? def.getter?.()
          : undefined;
    if (inner === undefined) return node;
    node = inner;
  }
  return node;
}

function objectsOf(node: SchemaNode): SchemaNode[] {
  const plain = unwrap(node);
  const def = plain._zod.def;
  if (def.type === 'object') return [plain];
  if (def.type === 'union') return (def.options ?? []).flatMap(objectsOf);
  return [];
}

function childOf(node: SchemaNode, key: PropertyKey): SchemaNode | undefined {
  const def = unwrap(node)._zod.def;
  if (def.type === 'object') return typeof key === 'string' ? def.shape?.[key] : undefined;
  if (def.type === 'record') return def.valueType;
  if (def.type === 'array') return def.element;
  if (def.type === 'union')
    for (const option of def.options ?? []) {
      const child = childOf(option, key);
      if (child !== undefined) return child;
    }
  return undefined;
}
