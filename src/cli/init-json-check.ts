import { createScanner, SyntaxKind } from 'jsonc-parser';

/**
 * Deepest nesting of objects and lists `init` edits in a settings file: jsonc-parser's parser
 * recurses once per level (about 10,000 levels overflow the stack), and no host's settings come near.
 */
export const MAX_SETTINGS_NESTING = 256;

/** Where a settings file breaks a rule of {@link checkSettingsJson}. */
export interface SettingsFault {
  /** Index into the text (UTF-16 code units). */
  readonly offset: number;
  readonly message: string;
}

/**
 * Checks a JSON or JSONC settings file in one pass of jsonc-parser's scanner, which is iterative
 * (no input makes it recurse), for what `init` must not edit: nesting deeper than
 * {@link MAX_SETTINGS_NESTING}, and a key repeated in one object. With a key twice, jsonc-parser's
 * tree finds the first while a host's `JSON.parse` keeps the last: `init` would report "updated"
 * and the host would run the other entry (two `"ctxfiles"` servers in `.mcp.json`). Syntax errors
 * are left to the parser. `null` when the text is fine.
 */
export function checkSettingsJson(text: string): SettingsFault | null {
  const scanner = createScanner(text, true);
  // One entry per open container: the keys seen so far in an object, `null` for a list.
  const open: (Set<string> | null)[] = [];
  let keyNext = false;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    const offset = scanner.getTokenOffset();
    switch (kind) {
      case SyntaxKind.OpenBraceToken:
      case SyntaxKind.OpenBracketToken:
        if (open.length >= MAX_SETTINGS_NESTING)
          return { offset, message: `objects and lists nest deeper than ${MAX_SETTINGS_NESTING} levels` };
        open.push(kind === SyntaxKind.OpenBraceToken ? new Set() : null);
        keyNext = kind === SyntaxKind.OpenBraceToken;
        break;
      case SyntaxKind.CloseBraceToken:
      case SyntaxKind.CloseBracketToken:
        open.pop();
        keyNext = false;
        break;
      case SyntaxKind.CommaToken:
        keyNext = open.at(-1) instanceof Set;
        break;
      case SyntaxKind.StringLiteral: {
        const keys = open.at(-1);
        if (keyNext && keys instanceof Set) {
          const key = scanner.getTokenValue();
          if (keys.has(key))
            return {
              offset,
              message: `the key ${JSON.stringify(key)} appears twice in one object (a host reads only one of them)`,
            };
          keys.add(key);
        }
        keyNext = false;
        break;
      }
      default:
        keyNext = false;
    }
  }
  return null;
}
