import path from 'node:path';
import type { HostInit, ScriptTarget } from '../../registry/host.js';

/** The line that marks a hook script as ctxfiles' own (a later `init` replaces it, `--remove` deletes it). */
export const CLINE_HOOK_MARKER =
  '# Written by `ctxfiles init cline`; `ctxfiles init cline --remove` deletes it.';

/**
 * Cline CLI: one script per hook event in a hooks folder, named after the event, no extension
 * (`@cline/core` 0.0.86, shipped with `cline` 3.0.65, `dist/index.js`: `listHookConfigFiles`
 * takes regular files named after an event, any case, with no extension or one of `.sh`, `.js`,
 * `.py`, …; a first line `#!/bin/sh` runs it with `sh`, whatever its mode). The folders
 * (`@cline/shared` 0.0.86 `dist/storage/index.js`, `resolveHooksConfigSearchPaths`): the project's
 * `.cline/hooks` (or `.clinerules/hooks`, Cline's rule folder, which init leaves alone), the user's
 * `~/.cline/hooks` (`$CLINE_DIR/hooks` when set) and `~/Documents/Cline/Hooks`. The hooks run in
 * the session's folder with no variable naming the project, so the project form starts the bin
 * from the repository root.
 */
export const clineInit: HostInit = {
  anchor: { kind: 'git-root' },
  targets: (scope, places, launch) => {
    const clineDir = places.env['CLINE_DIR']?.trim() || path.join(places.homeDir, '.cline');
    const dir =
      scope === 'project' ? path.join(places.workDir, '.cline', 'hooks') : path.join(clineDir, 'hooks');
    return launch.hookGroups.map((group): ScriptTarget => ({
      kind: 'script',
      file: path.join(dir, group.event),
      marker: CLINE_HOOK_MARKER,
      text: `#!/bin/sh\n${CLINE_HOOK_MARKER}\nexec ${launch.hookCommand(group.args)}\n`,
    }));
  },
};
