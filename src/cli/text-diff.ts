/** Most lines a diff compares line by line; longer files are shown as all removed and all added. */
const MAX_DIFF_LINES = 4_000;

/**
 * A unified diff of two texts (`--- a/<name>`, `+++ b/<name>`, hunks with three lines of context),
 * for `ctxfiles init --dry-run`; the empty string when they are equal. Lines are compared with a
 * longest common subsequence, which is quadratic: config files are small, and past
 * {@link MAX_DIFF_LINES} lines the whole file is one hunk.
 */
export function unifiedDiff(name: string, before: string, after: string): string {
  if (before === after) return '';
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  const ops = a.length + b.length > MAX_DIFF_LINES ? wholeFile(a, b) : lineOps(a, b);
  const lines = [`--- a/${name}`, `+++ b/${name}`];
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  let at = 0;
  while (at < changed.length) {
    const start = Math.max(0, (changed[at] as number) - 3);
    let end = (changed[at] as number) + 3;
    while (at + 1 < changed.length && (changed[at + 1] as number) - 3 <= end + 1)
      end = (changed[(at += 1)] as number) + 3;
    at += 1;
    const slice = ops.slice(start, Math.min(ops.length, end + 1));
    const oldStart = ops.slice(0, start).filter((op) => op.kind !== '+').length + 1;
    const newStart = ops.slice(0, start).filter((op) => op.kind !== '-').length + 1;
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    lines.push(
      `@@ -${oldCount === 0 ? oldStart - 1 : oldStart},${oldCount} +${newCount === 0 ? newStart - 1 : newStart},${newCount} @@`,
    );
    for (const op of slice) lines.push(`${op.kind}${op.line}`);
  }
  return `${lines.join('\n')}\n`;
}

interface Op {
  readonly kind: ' ' | '-' | '+';
  readonly line: string;
}

function wholeFile(a: readonly string[], b: readonly string[]): Op[] {
  return [
    ...a.map((line) => ({ kind: '-' as const, line })),
    ...b.map((line) => ({ kind: '+' as const, line })),
  ];
}

function lineOps(a: readonly string[], b: readonly string[]): Op[] {
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      (lengths[i] as Uint32Array)[j] =
        a[i] === b[j]
          ? ((lengths[i + 1] as Uint32Array)[j + 1] as number) + 1
          : Math.max(
              (lengths[i + 1] as Uint32Array)[j] as number,
              (lengths[i] as Uint32Array)[j + 1] as number,
            );
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] as string });
      i += 1;
      j += 1;
    } else if (
      i < a.length &&
      (j === b.length ||
        ((lengths[i + 1] as Uint32Array)[j] as number) >= ((lengths[i] as Uint32Array)[j + 1] as number))
    ) {
      ops.push({ kind: '-', line: a[i] as string });
      i += 1;
    } else {
      ops.push({ kind: '+', line: b[j] as string });
      j += 1;
    }
  }
  return ops;
}
