export function visible(line: string): string;
export function minimalDiff(
  expected: string,
  actual: string,
  options?: { context?: number; maxLines?: number; width?: number },
): string;
