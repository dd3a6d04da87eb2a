import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The package's `#tokenizer` import is built into dist/vendor (scripts/bundle-tokenizer.mjs); the
  // sources under test count with the same encoder from the gpt-tokenizer dev dependency.
  resolve: { alias: { '#tokenizer': 'gpt-tokenizer/encoding/o200k_base' } },
  test: {
    include: ['test/**/*.test.ts'],
    // The generated sources (validators, host names) are built, not committed.
    globalSetup: ['test/setup/generated-sources.ts'],
    testTimeout: 20_000,
    pool: 'forks',
    // Tests never read the developer's own user config (~/.config/ctxfiles/config.json).
    // The bins they spawn keep their compile cache in a temp dir, not in ~/.cache (docs/performance.md).
    env: {
      XDG_CONFIG_HOME: '/nonexistent-ctxfiles-test-config',
      XDG_CACHE_HOME: path.join(os.tmpdir(), 'ctxfiles-test-cache'),
    },
  },
});
