/** `a, b or c`: the names a reader may choose from, as messages and help texts list them. */
export function orList(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
