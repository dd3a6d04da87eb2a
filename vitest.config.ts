import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
    // Tests never read the developer's own user config (~/.config/ctxfiles/config.json).
    env: { XDG_CONFIG_HOME: '/nonexistent-ctxfiles-test-config' },
  },
});
