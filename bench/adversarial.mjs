// `npm run bench:adversarial`: renders large hostile inputs through every format, the escaping,
// the label reader and the token counter, and fails (exit 1) when one takes longer than a
// generous bound. Every pattern applied to file text must be linear: a quadratic one takes
// minutes here, not seconds. Correctness on the same shapes is checked by
// test/adversarial.test.ts and test/count-tokens.test.ts; timing only lives here.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { renderFormat } = await import(path.join(repo, 'dist/render/render-formats.js'));
const { renderInjection } = await import(path.join(repo, 'dist/render/render-injection.js'));
const { labelOf } = await import(path.join(repo, 'dist/discover/label.js'));
const { escapeTags } = await import(path.join(repo, 'dist/render/escape.js'));
const { DEFAULT_CONFIG } = await import(path.join(repo, 'dist/config/defaults.js'));
const { loadTokenCounter } = await import(path.join(repo, 'dist/render/count-tokens.js'));
const countTokens = await loadTokenCounter();

const MIB = 1024 * 1024;
const BOUND_MS = Number(process.env.ADVERSARIAL_BOUND_MS ?? 5000);
const inputs = {
  '`<` + 1 MiB of spaces': `<${' '.repeat(MIB)}`,
  '`<` + spaces + `/` + spaces': `<${' '.repeat(MIB / 2)}/${' '.repeat(MIB / 2)}`,
  '`&amp;` chain + spaces': `&${'amp;'.repeat(MIB / 8)}lt;${' '.repeat(MIB / 2)}`,
  'header lines of backslashes': `${'\\'.repeat(1024)}\n`.repeat(MIB / 1025),
  'a heading with 1 MiB of blanks': `# a${' \t'.repeat(MIB / 2)}b`,
  '1 MiB of `&`': '&'.repeat(MIB),
  '`<` + 600k spaces (tokens)': `<${' '.repeat(600_000)}`,
  '1 MiB of one CJK letter (tokens)': '中'.repeat(MIB / 2),
};
const context = { workDir: '/w', homeDir: '/home/u', wording: DEFAULT_CONFIG.wording };
let failed = false;
for (const [name, text] of Object.entries(inputs)) {
  const started = performance.now();
  for (const format of ['opencode', 'xml', 'reminder', 'magi'])
    renderFormat(format, [{ path: '/w/AGENTS.md', text }], context);
  renderInjection([{ path: '/w/AGENTS.md', text }]);
  labelOf(text.slice(0, 16 * 1024));
  escapeTags(text, ['project_files', 'environment', 'tools']);
  // budget.maxTokens, `prompt` and `explain` count tokens of file text.
  countTokens(text);
  const elapsed = performance.now() - started;
  const ok = elapsed <= BOUND_MS;
  failed ||= !ok;
  console.log(
    `${name.padEnd(40)} ${elapsed.toFixed(1).padStart(9)} ms  ${ok ? 'ok' : `OVER ${BOUND_MS} ms`}`,
  );
}
process.exitCode = failed ? 1 : 0;
