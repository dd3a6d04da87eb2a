import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { TABLE_WIDTH } from '../src/doctor/format-text.js';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';
import { shopMonorepo } from './fixtures/doctor-repos.js';

/** Runs `ctxfiles doctor` in `root` with an empty home directory. */
async function doctor(root: string, ...args: string[]) {
  const home = path.join(root, '.home');
  fs.mkdirSync(home, { recursive: true });
  return cli(['doctor', ...args], { cwd: root, env: { HOME: home } });
}

describe('ctxfiles doctor: the matrix', () => {
  test('a monorepo with Cursor, Copilot and Claude rules, nested AGENTS.md and a file over Codex cap', async () => {
    const root = tempTree(shopMonorepo());
    const { code, stdout, stderr } = await doctor(root, '--path', 'packages/api');
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const table = stdout.slice(0, stdout.indexOf('\nFindings'));
    for (const line of table.split('\n')) expect(line.length).toBeLessThanOrEqual(TABLE_WIDTH);
    expect(stdout).toMatchInlineSnapshot(`
      "At the work dir (.)
      host          # file                                           layer        bytes   tokens
      opencode      1 .cursor/rules/always.mdc                       global          54       12
                    2 .cursor/rules/typescript.mdc                   global          55       14
                    3 .github/copilot-instructions.md                global          19        4
                    4 CLAUDE.md                                      global          60       17
                      sent before the first tool call                               485      144
                      never reads: .claude/rules/api.md (claude-code),
                        .claude/rules/testing.md (claude-code),
                        .github/instructions/api.instructions.md (copilot),
                        AGENTS.md (codex, claude-code, cursor, copilot)
      codex         1 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             32850     7918
                      cap: AGENTS.md cut at 610:6, 805 bytes lost
                      never reads: .claude/rules/api.md (claude-code),
                        .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (opencode, cursor),
                        .cursor/rules/typescript.mdc (opencode, cursor),
                        .github/copilot-instructions.md (opencode, copilot),
                        .github/instructions/api.instructions.md (copilot),
                        CLAUDE.md (opencode, claude-code, copilot)
      claude-code   1 CLAUDE.md                                      chain           60       17
                    2 AGENTS.md (import)                             chain        33573     8084
                    3 .claude/rules/testing.md                       rules           34        9
                      sent before the first tool call                             34094     8213
                      never reads: .cursor/rules/always.mdc (opencode, cursor),
                        .cursor/rules/typescript.mdc (opencode, cursor),
                        .github/copilot-instructions.md (opencode, copilot),
                        .github/instructions/api.instructions.md (copilot)
      cursor        1 AGENTS.md                                      chain        33573     8084
                    2 .cursor/rules/always.mdc                       rules           54        5
                      sent before the first tool call                             33936     8161
                      never reads: .claude/rules/api.md (claude-code),
                        .claude/rules/testing.md (claude-code),
                        .github/copilot-instructions.md (opencode, copilot),
                        .github/instructions/api.instructions.md (copilot),
                        CLAUDE.md (opencode, claude-code, copilot)
      copilot       1 AGENTS.md                                      chain        33573     8084
                    2 CLAUDE.md                                      chain           60       17
                    3 .github/copilot-instructions.md                rules           19        4
                      sent before the first tool call                             34025     8184
                      never reads: .claude/rules/api.md (claude-code),
                        .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (opencode, cursor),
                        .cursor/rules/typescript.mdc (opencode, cursor)
      gemini-cli    - (nothing)
                      sent before the first tool call                                 0        0
                      never reads: .claude/rules/api.md (claude-code),
                        .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (opencode, cursor),
                        .cursor/rules/typescript.mdc (opencode, cursor),
                        .github/copilot-instructions.md (opencode, copilot),
                        .github/instructions/api.instructions.md (copilot),
                        AGENTS.md (codex, claude-code, cursor, copilot),
                        CLAUDE.md (opencode, claude-code, copilot)

      At packages/api
      host          # file                                           layer        bytes   tokens
      opencode      - (nothing)
                      sent before the first tool call                                 0        0
                      never reads: .claude/rules/api.md (claude-code),
                        .claude/rules/testing.md (claude-code), .cursor/rules/always.mdc (cursor),
                        .cursor/rules/typescript.mdc (cursor), .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        AGENTS.md (codex, claude-code, cursor, copilot), CLAUDE.md (claude-code, copilot),
                        packages/api/AGENTS.md (codex, cursor, copilot)
      codex         1 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             32863     7920
                      cap: AGENTS.md cut at 610:6, 805 bytes lost
                      cap: packages/api/AGENTS.md left out, 69 bytes lost
                      never reads: .claude/rules/api.md (claude-code),
                        .claude/rules/testing.md (claude-code), .cursor/rules/always.mdc (cursor),
                        .cursor/rules/typescript.mdc (cursor), .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        CLAUDE.md (claude-code, copilot)
      claude-code   1 CLAUDE.md                                      chain           60       17
                    2 AGENTS.md (import)                             chain        33573     8084
                    3 .claude/rules/testing.md                       rules           34        9
                      sent before the first tool call                             34094     8213
                      never reads: .cursor/rules/always.mdc (cursor),
                        .cursor/rules/typescript.mdc (cursor), .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        packages/api/AGENTS.md (codex, cursor, copilot)
      cursor        1 AGENTS.md                                      chain        33573     8084
                    2 packages/api/AGENTS.md                         chain           69       20
                    3 .cursor/rules/always.mdc                       rules           54        5
                      sent before the first tool call                             34078     8209
                      never reads: .claude/rules/api.md (claude-code),
                        .claude/rules/testing.md (claude-code), .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        CLAUDE.md (claude-code, copilot)
      copilot       1 AGENTS.md                                      chain        33573     8084
                    2 CLAUDE.md                                      chain           60       17
                    3 packages/api/AGENTS.md                         chain           69       20
                    4 .github/copilot-instructions.md                rules           19        4
                      sent before the first tool call                             34188     8243
                      never reads: .claude/rules/api.md (claude-code),
                        .claude/rules/testing.md (claude-code), .cursor/rules/always.mdc (cursor),
                        .cursor/rules/typescript.mdc (cursor)
      gemini-cli    - (nothing)
                      sent before the first tool call                                 0        0
                      never reads: .claude/rules/api.md (claude-code),
                        .claude/rules/testing.md (claude-code), .cursor/rules/always.mdc (cursor),
                        .cursor/rules/typescript.mdc (cursor), .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        AGENTS.md (codex, claude-code, cursor, copilot), CLAUDE.md (claude-code, copilot),
                        packages/api/AGENTS.md (codex, cursor, copilot)

      Findings: 2 error(s), 0 warning(s)
      error  AGENTS.md:610:6  over-cap: codex cuts this file here to stay within its 32768-byte cap; 805 bytes are never sent
             fix: shorten the files it loads from the project root down, or move detail into nested files
      error  packages/api/AGENTS.md:1:1  over-cap: codex leaves this file out: its 32768-byte cap is spent before it; 69 bytes are never sent
             fix: shorten the files it loads from the project root down, or move detail into nested files
      "
    `);
  });
});
