/** Values of the four template tokens for one request. */
export interface TokenValues {
  readonly agent: string | undefined;
  readonly flowId: string | undefined;
  readonly flowStep: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The outcome of expanding one entry. */
export type Expansion =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly reason: 'unknown-token' | 'empty-token'; readonly token: string };

const TOKEN = /\$\{([^}]*)\}/g;
const ENV_NAME = /^env\.([A-Za-z_][A-Za-z0-9_]*)$/;

/**
 * Expands `${agent}`, `${flow.id}`, `${flow.step}` and `${env.VAR}` in one pass, with no recursion:
 * text that a value brings in is never expanded again. An entry that still holds `${` afterwards
 * (an unknown or malformed token, or a value that contains one) fails with `unknown-token`; an entry
 * in which a known token expanded to the empty string fails with `empty-token`.
 */
export function expandTokens(entry: string, values: TokenValues): Expansion {
  if (!entry.includes('${')) return { ok: true, value: entry };
  let unknown: string | undefined;
  let empty: string | undefined;
  const value = entry.replace(TOKEN, (token: string, name: string) => {
    const replacement = lookup(name, values);
    if (replacement === undefined) {
      unknown ??= token;
      return token;
    }
    if (replacement === '') empty ??= token;
    return replacement;
  });
  if (unknown !== undefined) return { ok: false, reason: 'unknown-token', token: unknown };
  if (empty !== undefined) return { ok: false, reason: 'empty-token', token: empty };
  if (value.includes('${')) {
    const start = value.indexOf('${');
    return { ok: false, reason: 'unknown-token', token: value.slice(start, start + 40) };
  }
  return { ok: true, value };
}

function lookup(name: string, values: TokenValues): string | undefined {
  if (name === 'agent') return values.agent ?? '';
  if (name === 'flow.id') return values.flowId ?? '';
  if (name === 'flow.step') return values.flowStep ?? '';
  const env = ENV_NAME.exec(name);
  if (env !== null) {
    const key = env[1] as string;
    const found = Object.hasOwn(values.env, key) ? values.env[key] : undefined;
    return typeof found === 'string' ? found : '';
  }
  return undefined;
}
