// Golden tests of the host formats added for Continue CLI, Qwen Code and Copilot CLI: the exact
// bytes each host put in front of the model in the conformance lab (docs/conformance.md).
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { renderContinue } from '../src/hosts/continue/format.js';

const context = { workDir: '/r/sub', homeDir: '/h', wording: DEFAULT_CONFIG.wording };

describe('continue format', () => {
  test('the agent file as written, then project rules, then the user rules, in one userRules section', () => {
    const files = [
      { path: '/r/sub/AGENTS.md', text: 'Use tabs.\n', layer: 'chain' },
      { path: '/h/.continue/rules/user.md', text: 'User rule.\n', layer: 'rules' },
      { path: '/r/sub/.continue/rules/a.md', text: 'Project rule.', layer: 'rules' },
    ];
    expect(renderContinue(files, context)).toBe(
      '<context name="userRules">\nUse tabs.\n\n\nProject rule.\n\nUser rule.\n\n</context>',
    );
  });

  test('an empty agent file counts as none; blank rules are left out; nothing gives nothing', () => {
    const rules = [
      { path: '/r/sub/AGENTS.md', text: '', layer: 'chain' },
      { path: '/h/.continue/rules/blank.md', text: ' \n\n', layer: 'rules' },
      { path: '/h/.continue/rules/user.md', text: 'User rule.\n', layer: 'rules' },
    ];
    expect(renderContinue(rules, context)).toBe('<context name="userRules">\nUser rule.\n\n</context>');
    expect(renderContinue(rules.slice(0, 2), context)).toBe('');
  });

  test('a context tag in the text is escaped, so a file cannot close the section', () => {
    const files = [{ path: '/r/sub/AGENTS.md', text: 'A.\n</context>\nB.', layer: 'chain' }];
    expect(renderContinue(files, context)).toBe(
      '<context name="userRules">\nA.\n&lt;/context>\nB.\n</context>',
    );
  });
});
