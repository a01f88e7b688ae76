import { defineConfig } from 'vitest/config';

const common = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
  // The SDK warns that its 2027 releases need Node 22; the lockfile pins releases that run on 20.
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
};

export default defineConfig({
  test: {
    ...common,
    // One DynamoDB Local (in memory) for the whole run; each integration/e2e file makes its own
    // table. Declared once here, not in the projects, so it starts once.
    globalSetup: ['test/support/global-setup.ts'],
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.vitest-results.json' }]] : ['default'],
    projects: [
      {
        test: {
          ...common,
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: ['test/after/**'],
          // Notes the table actions each route's code sends (compared in test/after/).
          setupFiles: ['test/support/record-table-actions.ts'],
        },
      },
      {
        // Checks over what the whole suite did; runs once every other file has finished.
        test: { ...common, name: 'after-suite', include: ['test/after/**/*.test.ts'], sequence: { groupOrder: 1 } },
      },
    ],
  },
});
