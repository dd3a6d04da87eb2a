import type { Preset } from '../../registry/host.js';
import { opencode } from '../opencode/preset.js';

const base = opencode.config as { readonly instructions: Readonly<Record<string, unknown>> };

/** The modes whose rule folders Kilo loads, in its order (every one, whatever the agent). */
const MODES = ['code', 'architect', 'ask', 'debug', 'orchestrator'];

/**
 * Kilo Code's rule folders, which Kilo CLI turns into `instructions` entries ahead of its config
 * files' (`loadLegacyConfigs`): the `.md` files directly in the cwd's `.kilo/rules/` and
 * `.kilocode/rules/`, the single file `.kilocoderules`, then per mode `.kilo/rules-<mode>/`,
 * `.kilocode/rules-<mode>/` and `.kilocoderules-<mode>`.
 */
export const KILO_RULE_GLOBS: readonly string[] = [
  '.kilo/rules/*.md',
  '.kilocode/rules/*.md',
  '.kilocoderules',
  ...MODES.flatMap((mode) => [
    `.kilo/rules-${mode}/*.md`,
    `.kilocode/rules-${mode}/*.md`,
    `.kilocoderules-${mode}`,
  ]),
];

/**
 * Kilo CLI (the `@kilocode/cli` package), an OpenCode fork, as its 7.7 binary loads instructions
 * (docs/presets.md#kilo): OpenCode's walk, names, order and framing, with Kilo's own config dir for
 * the user file, its project-only reads and Kilo Code's rule folders (`Instruction.systemSources`
 * and `loadLegacyConfigs` in the JavaScript bundled in the binary).
 */
export const kilo: Preset = {
  name: 'kilo',
  summary:
    "Kilo CLI: the user AGENTS.md, then AGENTS.md (else CLAUDE.md, CONTEXT.md) from the cwd up to the git root, 'Instructions from: <path>'",
  config: {
    ...opencode.config,
    instructions: {
      ...base.instructions,
      // The first user file that exists: `$KILO_CONFIG_DIR`, Kilo's config dir
      // (`$XDG_CONFIG_HOME/kilo`, by default `~/.config/kilo`), else Claude Code's (off with
      // KILO_DISABLE_CLAUDE_CODE).
      userFile: [
        '${env.KILO_CONFIG_DIR}/AGENTS.md',
        '${env.XDG_CONFIG_HOME}/kilo/AGENTS.md',
        '~/.config/kilo/AGENTS.md',
        '~/.claude/CLAUDE.md',
      ],
      // Kilo reads a project file only when its real path is inside the project (the git root,
      // else the cwd): outside git the walk still picks the name, but only the cwd's file is read,
      // and a link that leads out of the project is dropped (its project file reader checks the
      // real path of the opened file).
      symlinks: 'inside',
      // Files are read with `fs.readFile` as UTF-8, which keeps a byte order mark.
      keepBom: true,
      // Kilo Code's rule folders, then the config files' `instructions` (the host settings).
      globs: KILO_RULE_GLOBS,
    },
  },
  // OpenCode's choice of name and order; outside git only the cwd's file is read (see `symlinks`
  // above), so the walk starts at the work dir, ctxfiles' own fallback.
  profile: { candidateScope: 'walk', order: 'closest-first' },
};
