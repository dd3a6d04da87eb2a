/**
 * Plain UTF-16 code-unit order, never locale: the order of walks, layer files and manifests is
 * the same on every machine (test/chains.test.ts, test/resolve.test.ts).
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
