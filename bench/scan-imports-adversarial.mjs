// `npm run build && node bench/scan-imports-adversarial.mjs`: feeds the import scanner inputs
// built to trigger quadratic behaviour (unmatched backtick runs of every length, thousands of
// `@` without a path, long escaped-space paths, unclosed fences) at two sizes and checks that 8x
// the input costs well under 64x the time (a generous bound: linear code stays near 8x). A
// check, not a unit test: timings do not belong in the test suite. Exit code 1 when it fails.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { scanImports } = await import(path.join(repo, 'dist/imports/scan-imports.js'));

const shapes = {
  'backtick runs of growing length, none closed': (n) => {
    let text = '';
    for (let length = 1; text.length < n; length += 1) text += '`'.repeat(length) + ' @a.md ';
    return text;
  },
  'one backtick then many runs of two': (n) => '`' + ' ``'.repeat(n / 3),
  '@ without a path': (n) => ' @'.repeat(n / 2),
  '@ glued to text (e-mail like)': (n) => 'a@'.repeat(n / 2),
  'one long escaped-space path': (n) => '@' + 'a\\ '.repeat(n / 3),
  'one long path of punctuation': (n) => '@a' + '.'.repeat(n),
  'fence openers, never closed': (n) => '```\n'.repeat(n / 4),
  'alternating fence characters': (n) => '```\n~~~\n'.repeat(n / 8),
  'many paragraphs, one backtick at the end': (n) => 'a\n\n'.repeat(n / 3) + '`',
  'many backtick-fence lines with info strings': (n) => '```a\n'.repeat(n / 5) + '`',
  'escaped backticks': (n) => '\\`'.repeat(n / 2) + '`',
};

function time(text) {
  let best = Infinity;
  for (let run = 0; run < 5; run += 1) {
    const start = process.hrtime.bigint();
    scanImports(text);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return best;
}

let failed = false;
for (const [name, build] of Object.entries(shapes)) {
  const small = time(build(50_000));
  const large = time(build(400_000));
  const ratio = large / Math.max(small, 0.05);
  const ok = ratio < 64;
  failed ||= !ok;
  console.log(
    `${ok ? 'ok    ' : 'SLOW  '} ${name.padEnd(48)} ${small.toFixed(2)} ms → ${large.toFixed(2)} ms`,
  );
}
process.exitCode = failed ? 1 : 0;
