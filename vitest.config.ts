import { defineConfig } from "vitest/config";

// Ryuk (testcontainers' reaper) cannot be pulled here; the harness sweeps its own containers by label.
// Set before any testcontainers module is loaded: it is read once and cached.
process.env.TESTCONTAINERS_RYUK_DISABLED = "true";

const containerTimeoutMs = 300_000;

export default defineConfig({
  test: {
    env: { TESTCONTAINERS_RYUK_DISABLED: "true" },
    restoreMocks: true,
    globalSetup: ["test/temp-root.ts"],
    unstubEnvs: true,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          // Projects run in this order: quick pure tests first, real servers last.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "containers",
          include: ["test/containers/**/*.test.ts"],
          sequence: { groupOrder: 2 },
          globalSetup: ["test/temp-root.ts", "test/global-setup.ts"],
          pool: "forks",
          // Each file boots real servers; two at a time keeps a 2-core machine responsive.
          maxWorkers: 2,
          testTimeout: containerTimeoutMs,
          hookTimeout: containerTimeoutMs,
        },
      },
    ],
  },
});
