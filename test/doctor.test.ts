import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { TABLE_WIDTH } from '../src/doctor/format-text.js';
import { cli } from './helpers/cli.js';
import { writeTree } from './helpers/disk.js';
import { claudeService, shopMonorepo } from './fixtures/doctor-repos.js';

const fixed: string[] = [];
afterEach(() => {
  for (const dir of fixed.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The tree at a path that is the same on every run: hosts that frame files with their absolute
 * paths (Codex, Claude Code) send the root's name, and its tokens are part of the golden output.
 */
function fixedTree(name: string, tree: Record<string, string>): string {
  const root = path.join(fs.realpathSync(os.tmpdir()), `ctxfiles-doctor-${name}`);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root);
  fixed.push(root);
  writeTree(root, tree);
  return root;
}

/** Runs `ctxfiles doctor` in `root` with an empty home directory. */
async function doctor(root: string, ...args: string[]) {
  const home = path.join(root, '.home');
  fs.mkdirSync(home, { recursive: true });
  return cli(['doctor', ...args], { cwd: root, env: { HOME: home } });
}

describe('ctxfiles doctor: the matrix', () => {
  test('a monorepo with Cursor, Copilot and Claude rules, nested AGENTS.md and a file over Codex cap', async () => {
    const root = fixedTree('shop', shopMonorepo());
    const { code, stdout, stderr } = await doctor(root, '--path', 'packages/api');
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const table = stdout.slice(0, stdout.indexOf('\nFindings'));
    for (const line of table.split('\n')) expect(line.length).toBeLessThanOrEqual(TABLE_WIDTH);
    expect(stdout).toMatchInlineSnapshot(`
      "At the work dir, the root (/tmp/ctxfiles-doctor-shop)
      host          # file                                           layer        bytes   tokens
      opencode      1 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             33628     8100
      opencode-go   1 .cursor/rules/always.mdc                       global          54       12
                    2 .cursor/rules/typescript.mdc                   global          55       14
                    3 .github/copilot-instructions.md                global          19        4
                    4 AGENTS.md                                      global       33573     8084
                    5 CLAUDE.md                                      global          60       17
                      sent before the first tool call                             34122     8235
      codex         1 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             32855     7916
                      cap: AGENTS.md cut at 610:6, 805 bytes lost
      claude-code   1 CLAUDE.md                                      chain           60       17
                    2 AGENTS.md (import)                             chain        33573     8084
                    3 .claude/rules/testing.md                       rules           34        9
                      sent before the first tool call                             34106     8207
      cursor        1 AGENTS.md                                      chain        33573     8084
                    2 .cursor/rules/always.mdc                       rules           54        5
                      sent before the first tool call                             33936     8161
      copilot       1 AGENTS.md                                      chain        33573     8084
                    2 CLAUDE.md                                      chain           60       42
                    3 .github/copilot-instructions.md                rules           19        4
                      sent before the first tool call                             33888     8154
      gemini-cli    - (nothing)
                      sent before the first tool call                                 0        0
      continue      1 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             33611     8093
      qwen-code     1 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             33643     8102
      kilo          1 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             33628     8100
      pi            1 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             33747     8121
      cline         1 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             33603     8093
                      never read by opencode, codex, continue, qwen-code, kilo, pi, cline:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (opencode-go, cursor),
                        .cursor/rules/typescript.mdc (opencode-go, cursor),
                        .github/copilot-instructions.md (opencode-go, copilot),
                        .github/instructions/api.instructions.md (copilot),
                        CLAUDE.md (opencode-go, claude-code, copilot)
                      never read by opencode-go:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .github/instructions/api.instructions.md (copilot)
                      never read by claude-code:
                        .cursor/rules/always.mdc (opencode-go, cursor),
                        .cursor/rules/typescript.mdc (opencode-go, cursor),
                        .github/copilot-instructions.md (opencode-go, copilot),
                        .github/instructions/api.instructions.md (copilot)
                      never read by cursor:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .github/copilot-instructions.md (opencode-go, copilot),
                        .github/instructions/api.instructions.md (copilot),
                        CLAUDE.md (opencode-go, claude-code, copilot)
                      never read by copilot:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (opencode-go, cursor),
                        .cursor/rules/typescript.mdc (opencode-go, cursor)
                      never read by gemini-cli:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (opencode-go, cursor),
                        .cursor/rules/typescript.mdc (opencode-go, cursor),
                        .github/copilot-instructions.md (opencode-go, copilot),
                        .github/instructions/api.instructions.md (copilot),
                        AGENTS.md (opencode, opencode-go, codex, claude-code, cursor, copilot, continue, …
                        CLAUDE.md (opencode-go, claude-code, copilot)

      At packages/api
      host          # file                                           layer        bytes   tokens
      opencode      1 packages/api/AGENTS.md                         chain           69       20
                    2 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             33766     8138
                      adds here: 1 file(s)                                                    20
      opencode-go   1 packages/api/AGENTS.md                         global          69       20
                      sent before the first tool call                               211       54
                      adds here: 1 file(s)                                                    20
      codex         1 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             32868     7918
                      adds here: 0 file(s)                                                     0
                      cap: AGENTS.md cut at 610:6, 805 bytes lost
                      cap: packages/api/AGENTS.md left out, 69 bytes lost
      claude-code   1 CLAUDE.md                                      chain           60       17
                    2 .claude/rules/testing.md                       rules           34        9
                      sent before the first tool call                               432       99
                      adds here: 0 file(s)                                                     0
      cursor        1 AGENTS.md                                      chain        33573     8084
                    2 packages/api/AGENTS.md                         chain           69       20
                    3 .cursor/rules/always.mdc                       rules           54        5
                      sent before the first tool call                             34088     8205
                      adds here: 1 file(s)                                                    20
      copilot       1 AGENTS.md                                      chain        33573     8084
                    2 CLAUDE.md                                      chain           60       42
                    3 packages/api/AGENTS.md                         chain           69       20
                    4 .github/copilot-instructions.md                rules           19        4
                      sent before the first tool call                             34002     8182
                      adds here: 1 file(s)                                                    20
      gemini-cli    - (nothing)
                      sent before the first tool call                                 0        0
                      adds here: 0 file(s)                                                     0
      continue      1 packages/api/AGENTS.md                         chain           69       20
                      sent before the first tool call                               107       29
                      adds here: 1 file(s)                                                    20
      qwen-code     1 AGENTS.md                                      chain        33573     8084
                    2 packages/api/AGENTS.md                         chain           69       20
                      sent before the first tool call                             33796     8143
                      adds here: 1 file(s)                                                    20
      kilo          1 packages/api/AGENTS.md                         chain           69       20
                    2 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             33766     8138
                      adds here: 1 file(s)                                                    20
      pi            1 AGENTS.md                                      chain        33573     8084
                    2 packages/api/AGENTS.md                         chain           69       20
                      sent before the first tool call                             33921     8166
                      adds here: 1 file(s)                                                    20
      cline         1 packages/api/AGENTS.md                         chain           69       20
                      sent before the first tool call                                99       29
                      adds here: 1 file(s)                                                    20
                      never read by opencode, codex, qwen-code, kilo, pi:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (cursor), .cursor/rules/typescript.mdc (cursor),
                        .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        CLAUDE.md (claude-code, copilot)
                      never read by opencode-go, continue, cline:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (cursor), .cursor/rules/typescript.mdc (cursor),
                        .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        AGENTS.md (opencode, codex, cursor, copilot, qwen-code, kilo, pi),
                        CLAUDE.md (claude-code, copilot)
                      never read by claude-code:
                        .cursor/rules/always.mdc (cursor), .cursor/rules/typescript.mdc (cursor),
                        .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        AGENTS.md (opencode, codex, cursor, copilot, qwen-code, kilo, pi),
                        packages/api/AGENTS.md (opencode, opencode-go, codex, cursor, copilot, continue, …
                      never read by cursor:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        CLAUDE.md (claude-code, copilot)
                      never read by copilot:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (cursor), .cursor/rules/typescript.mdc (cursor)
                      never read by gemini-cli:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (cursor), .cursor/rules/typescript.mdc (cursor),
                        .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        AGENTS.md (opencode, codex, cursor, copilot, qwen-code, kilo, pi),
                        CLAUDE.md (claude-code, copilot),
                        packages/api/AGENTS.md (opencode, opencode-go, codex, cursor, copilot, continue, …

      At packages/web (nested)
      host          # file                                           layer        bytes   tokens
      opencode      1 packages/web/AGENTS.md                         chain           34       10
                    2 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             33731     8128
                      adds here: 1 file(s)                                                    10
      opencode-go   1 packages/web/AGENTS.md                         global          34       10
                      sent before the first tool call                               176       44
                      adds here: 1 file(s)                                                    10
      codex         1 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             32868     7918
                      adds here: 0 file(s)                                                     0
                      cap: AGENTS.md cut at 610:6, 805 bytes lost
                      cap: packages/web/AGENTS.md left out, 34 bytes lost
      claude-code   1 CLAUDE.md                                      chain           60       17
                    2 .claude/rules/testing.md                       rules           34        9
                      sent before the first tool call                               432       99
                      adds here: 0 file(s)                                                     0
      cursor        1 AGENTS.md                                      chain        33573     8084
                    2 packages/web/AGENTS.md                         chain           34       10
                    3 .cursor/rules/always.mdc                       rules           54        5
                      sent before the first tool call                             34053     8195
                      adds here: 1 file(s)                                                    10
      copilot       1 AGENTS.md                                      chain        33573     8084
                    2 CLAUDE.md                                      chain           60       42
                    3 packages/web/AGENTS.md                         chain           34       10
                    4 .github/copilot-instructions.md                rules           19        4
                      sent before the first tool call                             33967     8172
                      adds here: 1 file(s)                                                    10
      gemini-cli    - (nothing)
                      sent before the first tool call                                 0        0
                      adds here: 0 file(s)                                                     0
      continue      1 packages/web/AGENTS.md                         chain           34       10
                      sent before the first tool call                                72       19
                      adds here: 1 file(s)                                                    10
      qwen-code     1 AGENTS.md                                      chain        33573     8084
                    2 packages/web/AGENTS.md                         chain           34       10
                      sent before the first tool call                             33761     8133
                      adds here: 1 file(s)                                                    10
      kilo          1 packages/web/AGENTS.md                         chain           34       10
                    2 AGENTS.md                                      chain        33573     8084
                      sent before the first tool call                             33731     8128
                      adds here: 1 file(s)                                                    10
      pi            1 AGENTS.md                                      chain        33573     8084
                    2 packages/web/AGENTS.md                         chain           34       10
                      sent before the first tool call                             33886     8156
                      adds here: 1 file(s)                                                    10
      cline         1 packages/web/AGENTS.md                         chain           34       10
                      sent before the first tool call                                64       19
                      adds here: 1 file(s)                                                    10
                      never read by opencode, codex, qwen-code, kilo, pi:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (cursor), .cursor/rules/typescript.mdc (cursor),
                        .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        CLAUDE.md (claude-code, copilot)
                      never read by opencode-go, continue, cline:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (cursor), .cursor/rules/typescript.mdc (cursor),
                        .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        AGENTS.md (opencode, codex, cursor, copilot, qwen-code, kilo, pi),
                        CLAUDE.md (claude-code, copilot)
                      never read by claude-code:
                        .cursor/rules/always.mdc (cursor), .cursor/rules/typescript.mdc (cursor),
                        .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        AGENTS.md (opencode, codex, cursor, copilot, qwen-code, kilo, pi),
                        packages/web/AGENTS.md (opencode, opencode-go, codex, cursor, copilot, continue, …
                      never read by cursor:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        CLAUDE.md (claude-code, copilot)
                      never read by copilot:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (cursor), .cursor/rules/typescript.mdc (cursor)
                      never read by gemini-cli:
                        .claude/rules/api.md (claude-code), .claude/rules/testing.md (claude-code),
                        .cursor/rules/always.mdc (cursor), .cursor/rules/typescript.mdc (cursor),
                        .github/copilot-instructions.md (copilot),
                        .github/instructions/api.instructions.md (copilot),
                        AGENTS.md (opencode, codex, cursor, copilot, qwen-code, kilo, pi),
                        CLAUDE.md (claude-code, copilot),
                        packages/web/AGENTS.md (opencode, opencode-go, codex, cursor, copilot, continue, …

      Findings: 3 error(s), 0 warning(s)
      error  AGENTS.md:610:6  over-cap: codex cuts this file here to stay within its 32768-byte cap; 805 bytes are never sent
             fix: shorten the files it loads from the project root down, or move detail into nested files
      error  packages/api/AGENTS.md:1:1  over-cap: codex leaves this file out: its 32768-byte cap is spent before it; 69 bytes are never sent
             fix: shorten the files it loads from the project root down, or move detail into nested files
      error  packages/web/AGENTS.md:1:1  over-cap: codex leaves this file out: its 32768-byte cap is spent before it; 34 bytes are never sent
             fix: shorten the files it loads from the project root down, or move detail into nested files
      "
    `);
  });

  test('--json: the same matrix as data, for a file site that brings in glob rules', async () => {
    const root = fixedTree('shop-json', shopMonorepo());
    const { code, stdout } = await doctor(
      root,
      '--json',
      '--host',
      'codex',
      'copilot',
      '--path',
      'packages/api/src/server.ts',
    );
    expect(code).toBe(1);
    expect(stdout.replaceAll(root, '<root>')).toMatchInlineSnapshot(`
      "{
        "root": "<root>",
        "workDir": "<root>",
        "hosts": [
          "codex",
          "copilot"
        ],
        "sites": [
          {
            "path": ".",
            "kind": "workdir",
            "hosts": [
              {
                "host": "codex",
                "files": [
                  {
                    "path": "AGENTS.md",
                    "layer": "chain",
                    "bytes": 33573,
                    "tokens": 8084
                  }
                ],
                "bytes": 32860,
                "tokens": 7917,
                "cuts": [
                  {
                    "path": "AGENTS.md",
                    "line": 610,
                    "column": 6,
                    "keptBytes": 32768,
                    "lostBytes": 805,
                    "capBytes": 32768
                  }
                ],
                "unseen": [
                  {
                    "path": ".github/copilot-instructions.md",
                    "readBy": [
                      "copilot"
                    ]
                  },
                  {
                    "path": ".github/instructions/api.instructions.md",
                    "readBy": [
                      "copilot"
                    ]
                  },
                  {
                    "path": "CLAUDE.md",
                    "readBy": [
                      "copilot"
                    ]
                  }
                ]
              },
              {
                "host": "copilot",
                "files": [
                  {
                    "path": "AGENTS.md",
                    "layer": "chain",
                    "bytes": 33573,
                    "tokens": 8084
                  },
                  {
                    "path": "CLAUDE.md",
                    "layer": "chain",
                    "bytes": 60,
                    "tokens": 43
                  },
                  {
                    "path": ".github/copilot-instructions.md",
                    "layer": "rules",
                    "bytes": 19,
                    "tokens": 4
                  }
                ],
                "bytes": 33893,
                "tokens": 8155,
                "cuts": [],
                "unseen": []
              }
            ]
          },
          {
            "path": "packages/api/src/server.ts",
            "kind": "path",
            "hosts": [
              {
                "host": "codex",
                "files": [
                  {
                    "path": "AGENTS.md",
                    "layer": "chain",
                    "bytes": 33573,
                    "tokens": 8084
                  }
                ],
                "bytes": 32877,
                "tokens": 7920,
                "cuts": [
                  {
                    "path": "AGENTS.md",
                    "line": 610,
                    "column": 6,
                    "keptBytes": 32768,
                    "lostBytes": 805,
                    "capBytes": 32768
                  },
                  {
                    "path": "packages/api/AGENTS.md",
                    "line": 1,
                    "column": 1,
                    "keptBytes": 0,
                    "lostBytes": 69,
                    "capBytes": 32768
                  }
                ],
                "unseen": [
                  {
                    "path": ".github/copilot-instructions.md",
                    "readBy": [
                      "copilot"
                    ]
                  },
                  {
                    "path": ".github/instructions/api.instructions.md",
                    "readBy": [
                      "copilot"
                    ]
                  },
                  {
                    "path": "CLAUDE.md",
                    "readBy": [
                      "copilot"
                    ]
                  }
                ],
                "adds": {
                  "files": [],
                  "tokens": 0
                }
              },
              {
                "host": "copilot",
                "files": [
                  {
                    "path": "AGENTS.md",
                    "layer": "chain",
                    "bytes": 33573,
                    "tokens": 8084
                  },
                  {
                    "path": "CLAUDE.md",
                    "layer": "chain",
                    "bytes": 60,
                    "tokens": 43
                  },
                  {
                    "path": "packages/api/AGENTS.md",
                    "layer": "chain",
                    "bytes": 69,
                    "tokens": 20
                  },
                  {
                    "path": ".github/copilot-instructions.md",
                    "layer": "rules",
                    "bytes": 19,
                    "tokens": 4
                  },
                  {
                    "path": ".github/instructions/api.instructions.md",
                    "layer": "rules",
                    "bytes": 62,
                    "tokens": 5
                  }
                ],
                "bytes": 34081,
                "tokens": 8196,
                "cuts": [],
                "unseen": [],
                "adds": {
                  "files": [
                    "packages/api/AGENTS.md",
                    ".github/instructions/api.instructions.md"
                  ],
                  "tokens": 25
                }
              }
            ]
          },
          {
            "path": "packages/api",
            "kind": "nested",
            "hosts": [
              {
                "host": "codex",
                "files": [
                  {
                    "path": "AGENTS.md",
                    "layer": "chain",
                    "bytes": 33573,
                    "tokens": 8084
                  }
                ],
                "bytes": 32873,
                "tokens": 7919,
                "cuts": [
                  {
                    "path": "AGENTS.md",
                    "line": 610,
                    "column": 6,
                    "keptBytes": 32768,
                    "lostBytes": 805,
                    "capBytes": 32768
                  },
                  {
                    "path": "packages/api/AGENTS.md",
                    "line": 1,
                    "column": 1,
                    "keptBytes": 0,
                    "lostBytes": 69,
                    "capBytes": 32768
                  }
                ],
                "unseen": [
                  {
                    "path": ".github/copilot-instructions.md",
                    "readBy": [
                      "copilot"
                    ]
                  },
                  {
                    "path": ".github/instructions/api.instructions.md",
                    "readBy": [
                      "copilot"
                    ]
                  },
                  {
                    "path": "CLAUDE.md",
                    "readBy": [
                      "copilot"
                    ]
                  }
                ],
                "adds": {
                  "files": [],
                  "tokens": 0
                }
              },
              {
                "host": "copilot",
                "files": [
                  {
                    "path": "AGENTS.md",
                    "layer": "chain",
                    "bytes": 33573,
                    "tokens": 8084
                  },
                  {
                    "path": "CLAUDE.md",
                    "layer": "chain",
                    "bytes": 60,
                    "tokens": 43
                  },
                  {
                    "path": "packages/api/AGENTS.md",
                    "layer": "chain",
                    "bytes": 69,
                    "tokens": 20
                  },
                  {
                    "path": ".github/copilot-instructions.md",
                    "layer": "rules",
                    "bytes": 19,
                    "tokens": 4
                  }
                ],
                "bytes": 34007,
                "tokens": 8183,
                "cuts": [],
                "unseen": [],
                "adds": {
                  "files": [
                    "packages/api/AGENTS.md"
                  ],
                  "tokens": 20
                }
              }
            ]
          },
          {
            "path": "packages/web",
            "kind": "nested",
            "hosts": [
              {
                "host": "codex",
                "files": [
                  {
                    "path": "AGENTS.md",
                    "layer": "chain",
                    "bytes": 33573,
                    "tokens": 8084
                  }
                ],
                "bytes": 32873,
                "tokens": 7919,
                "cuts": [
                  {
                    "path": "AGENTS.md",
                    "line": 610,
                    "column": 6,
                    "keptBytes": 32768,
                    "lostBytes": 805,
                    "capBytes": 32768
                  },
                  {
                    "path": "packages/web/AGENTS.md",
                    "line": 1,
                    "column": 1,
                    "keptBytes": 0,
                    "lostBytes": 34,
                    "capBytes": 32768
                  }
                ],
                "unseen": [
                  {
                    "path": ".github/copilot-instructions.md",
                    "readBy": [
                      "copilot"
                    ]
                  },
                  {
                    "path": ".github/instructions/api.instructions.md",
                    "readBy": [
                      "copilot"
                    ]
                  },
                  {
                    "path": "CLAUDE.md",
                    "readBy": [
                      "copilot"
                    ]
                  }
                ],
                "adds": {
                  "files": [],
                  "tokens": 0
                }
              },
              {
                "host": "copilot",
                "files": [
                  {
                    "path": "AGENTS.md",
                    "layer": "chain",
                    "bytes": 33573,
                    "tokens": 8084
                  },
                  {
                    "path": "CLAUDE.md",
                    "layer": "chain",
                    "bytes": 60,
                    "tokens": 43
                  },
                  {
                    "path": "packages/web/AGENTS.md",
                    "layer": "chain",
                    "bytes": 34,
                    "tokens": 10
                  },
                  {
                    "path": ".github/copilot-instructions.md",
                    "layer": "rules",
                    "bytes": 19,
                    "tokens": 4
                  }
                ],
                "bytes": 33972,
                "tokens": 8173,
                "cuts": [],
                "unseen": [],
                "adds": {
                  "files": [
                    "packages/web/AGENTS.md"
                  ],
                  "tokens": 10
                }
              }
            ]
          }
        ],
        "placesLeftOut": 0,
        "findings": [
          {
            "code": "over-cap",
            "severity": "error",
            "file": "AGENTS.md",
            "line": 610,
            "column": 6,
            "message": "codex cuts this file here to stay within its 32768-byte cap; 805 bytes are never sent",
            "fix": "shorten the files it loads from the project root down, or move detail into nested files"
          },
          {
            "code": "over-cap",
            "severity": "error",
            "file": "packages/api/AGENTS.md",
            "line": 1,
            "column": 1,
            "message": "codex leaves this file out: its 32768-byte cap is spent before it; 69 bytes are never sent",
            "fix": "shorten the files it loads from the project root down, or move detail into nested files"
          },
          {
            "code": "over-cap",
            "severity": "error",
            "file": "packages/web/AGENTS.md",
            "line": 1,
            "column": 1,
            "message": "codex leaves this file out: its 32768-byte cap is spent before it; 34 bytes are never sent",
            "fix": "shorten the files it loads from the project root down, or move detail into nested files"
          }
        ],
        "findingsLeftOut": 0,
        "errorsLeftOut": false
      }
      "
    `);
  });

  test('a Claude-first service repository, seen by Claude Code and Copilot from a nested package', async () => {
    const root = fixedTree('billing', claudeService());
    const { code, stdout } = await doctor(
      root,
      '--host',
      'claude-code',
      'copilot',
      '--path',
      'services/invoices/src/invoice.ts',
    );
    expect(code).toBe(0);
    expect(stdout).toMatchInlineSnapshot(`
      "At the work dir, the root (/tmp/ctxfiles-doctor-billing)
      host          # file                                           layer        bytes   tokens
      claude-code   1 CLAUDE.md                                      chain           94       24
                    2 .claude/rules/style.md                         rules           22        4
                    3 CLAUDE.local.md                                chain           36        7
                      sent before the first tool call                               608      138
      copilot       1 CLAUDE.md                                      chain           94       24
                      sent before the first tool call                               137       32
                      never read by claude-code:
                        .github/instructions/ts.instructions.md (copilot)
                      never read by copilot:
                        .claude/rules/sql.md (claude-code), .claude/rules/style.md (claude-code),
                        CLAUDE.local.md (claude-code)

      At services/invoices/src/invoice.ts
      host          # file                                           layer        bytes   tokens
      claude-code   1 CLAUDE.md                                      chain           94       24
                    2 .claude/rules/style.md                         rules           22        4
                    3 CLAUDE.local.md                                chain           36        7
                    4 services/invoices/CLAUDE.md                    chain           43       10
                      sent before the first tool call                               773      177
                      adds here: 1 file(s)                                                    10
      copilot       1 CLAUDE.md                                      chain           94       24
                    2 services/invoices/CLAUDE.md                    chain           43       10
                    3 .github/instructions/ts.instructions.md        rules           47        4
                      sent before the first tool call                               290       62
                      adds here: 2 file(s)                                                    14
                      never read by claude-code:
                        .github/instructions/ts.instructions.md (copilot)
                      never read by copilot:
                        .claude/rules/sql.md (claude-code), .claude/rules/style.md (claude-code),
                        CLAUDE.local.md (claude-code)

      At services/invoices (nested)
      host          # file                                           layer        bytes   tokens
      claude-code   1 CLAUDE.md                                      chain           94       24
                    2 .claude/rules/style.md                         rules           22        4
                    3 CLAUDE.local.md                                chain           36        7
                    4 services/invoices/CLAUDE.md                    chain           43       10
                      sent before the first tool call                               773      177
                      adds here: 1 file(s)                                                    10
      copilot       1 CLAUDE.md                                      chain           94       24
                    2 services/invoices/CLAUDE.md                    chain           43       10
                      sent before the first tool call                               225       50
                      adds here: 1 file(s)                                                    10
                      never read by claude-code:
                        .github/instructions/ts.instructions.md (copilot)
                      never read by copilot:
                        .claude/rules/sql.md (claude-code), .claude/rules/style.md (claude-code),
                        CLAUDE.local.md (claude-code)

      Findings: 0 error(s), 2 warning(s)
      warn   .claude/rules/sql.md:2:1  misread-frontmatter: Claude Code is reported to drop paths written quoted or as a list (anthropics/claude-code#17204) or to load such rules in every session (#16299)
             fix: write one unquoted value, paths: src/api/**, lib/api/**, and check the rule with /memory
      warn   .claude/rules/sql.md:4:3  unmatched-glob: "services/**/*.sql" matches no file under ., so this claude rule never loads
             fix: fix the pattern: it is matched against paths relative to the folder that holds the rule folder
      "
    `);
  });

  test('each host resolves with its preset alone: no project or user config changes what it loads', async () => {
    const root = fixedTree('configs', {
      '.git/HEAD': '',
      'AGENTS.md': '# Root\n',
      'NOTES.md': '# Notes\n',
      '.opencode.json': JSON.stringify({ contextPaths: ['NOTES.md'], rules: { sources: ['cursor'] } }),
      '.xdg/ctxfiles/config.json': JSON.stringify({ rules: { sources: ['cursor'] } }),
      '.cursor/rules/a.mdc': '---\nalwaysApply: true\n---\nA.\n',
    });
    const home = path.join(root, '.home');
    fs.mkdirSync(home);
    const { stdout } = await cli(['doctor', '--json', '--host', 'opencode', 'codex'], {
      cwd: root,
      env: { HOME: home, XDG_CONFIG_HOME: path.join(root, '.xdg') },
    });
    const report = JSON.parse(stdout) as {
      sites: { hosts: { host: string; files: { path: string }[] }[] }[];
    };
    const files = Object.fromEntries(
      (report.sites[0]?.hosts ?? []).map((column) => [column.host, column.files.map((file) => file.path)]),
    );
    expect(files).toEqual({ opencode: ['AGENTS.md'], codex: ['AGENTS.md'] });
  });
});
