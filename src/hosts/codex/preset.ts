import type { Preset } from '../../registry/host.js';

/**
 * OpenAI Codex CLI. Sources (docs/presets.md#codex): openai/codex `codex-rs/core/src/agents_md.rs`
 * and its tests `agents_md_tests.rs` (walk, candidates, byte cap), `codex-rs/core/src/context/user_instructions.rs`
 * (the frame), and https://developers.openai.com/codex/guides/agents-md (user files, default cap).
 */
export const codex: Preset = {
  name: 'codex',
  summary:
    'OpenAI Codex CLI: AGENTS.override.md or AGENTS.md per directory from the git root down, 32 KiB root-first',
  config: {
    // Codex reads only the chain: no other file names relative to the work dir.
    contextPaths: [],
    instructions: {
      // Every directory from the nearest ancestor holding `.git` down to the cwd, root first.
      walk: 'project',
      projectRootMarkers: ['.git'],
      // The first candidate that is a regular file wins; one file per directory.
      candidates: ['AGENTS.override.md', 'AGENTS.md'],
      select: 'first',
      // `$CODEX_HOME` (default `~/.codex`): the override file first, the first non-blank file wins.
      userFile: [
        '${env.CODEX_HOME}/AGENTS.override.md',
        '${env.CODEX_HOME}/AGENTS.md',
        '~/.codex/AGENTS.override.md',
        '~/.codex/AGENTS.md',
      ],
      // "Symlinks are allowed" (agents_md.rs): Codex follows links without a containment check.
      symlinks: 'follow',
      // Codex decodes the bytes as they are (`String::from_utf8_lossy`): a UTF-8 BOM stays in the text.
      keepBom: true,
    },
    // project_doc_max_bytes: 32 KiB of document bytes, spent root first; the crossing file is cut.
    // The user file and the frame are not counted.
    budget: { maxBytes: 32_768, strategy: 'root-first', counts: 'content', scope: 'project' },
    // Codex cuts silently (a log line, nothing in the prompt): no notice in the frame.
    wording: { budgetNotice: '' },
    format: 'codex',
    // Codex reads no vendor rule folders.
    rules: { sources: [] },
    session: {
      tools: {
        read_file: { as: 'read', pathKeys: ['file_path'] },
        list_dir: { as: 'list', pathKeys: ['dir_path'] },
        grep_files: { as: 'search', pathKeys: ['path'] },
      },
    },
  },
};
