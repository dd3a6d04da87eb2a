// Large hostile inputs, checked for correctness only: how long they take is measured by
// bench/adversarial.mjs (`npm run bench:adversarial`), never asserted here.
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { labelOf } from '../src/discover/label.js';
import {
  escapeHeaderPath,
  escapeReminderText,
  unescapeHeaderPath,
  unescapeReminderText,
} from '../src/render/escape.js';
import { renderFormat } from '../src/render/render-formats.js';
import { parseReminder } from './helpers/parse-formats.js';

const context = { workDir: '/w', homeDir: '/home/u', wording: DEFAULT_CONFIG.wording };
const SIZE = 300_000;

describe('regular expressions on file text are linear', () => {
  test.each([
    ['`<` and spaces', `<${' '.repeat(SIZE)}`],
    ['`<`, spaces, `/`, spaces', `<${' '.repeat(SIZE)}/${' '.repeat(SIZE)}x`],
    ['`&amp;` chains', `&${'amp;'.repeat(SIZE / 4)}lt;${' '.repeat(SIZE)}`],
    ['many `<` with spaces', `<${' '.repeat(100)}`.repeat(SIZE / 100)],
    ['a real tag after a long run', `<${' '.repeat(SIZE)}/system-reminder>`],
  ])('reminder escaping round-trips %s', (_name, text) => {
    const escaped = escapeReminderText(text);
    expect(unescapeReminderText(escaped)).toBe(text);
    const rendered = renderFormat('reminder', [{ path: `/w/${text.slice(0, 2000)}`, text }], context);
    expect(parseReminder(rendered)?.blocks).toEqual([{ path: text.slice(0, 2000), text }]);
    expect(unescapeHeaderPath(escapeHeaderPath(text))).toBe(text);
  });

  test('a heading with a long run of spaces inside gives its label', () => {
    expect(labelOf(`# a${' '.repeat(16_000)}b`)).toBe('a b');
    expect(labelOf(`# a${' \t#'.repeat(5_000)}`)).toBe('a');
    expect(labelOf('# ##')).toBe('#');
  });
});
