import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Projects: `unit` and `unit-mocks` (npm run test:fast; meant to be under a minute on two cores),
 * then `integration` (a real Mosquitto, engine processes), then `oracle`: the Fairy-Stockfish/ffish
 * references, physical play over whole game collections, the firmware in simavr, the page in
 * Chromium. A new test file is a unit test unless it matches ORACLE or INTEGRATION (or MOCKS, if
 * it replaces a module).
 */
const ORACLE = [
  'test/rules/fairy-diff.test.ts',
  // The rules' properties at their full number of runs, perft at depths 4 and 5 (the unit project
  // has a quarter of the runs, and depths 1 to 3).
  'test/rules/properties-long.test.ts',
  'test/rules/perft-deep.test.ts',
  'test/game/fairy.test.ts',
  'test/notation/ffish.test.ts',
  // The embedded Fairy-Stockfish (WebAssembly) loaded and searching: hints, a game against it.
  'test/controller/hints.test.ts',
  'test/engine/play.test.ts',
  'test/tracker/physical-*.test.ts',
  'test/tracker/real-play*.test.ts',
  // Whole master games played twice each, to find a dead sensor's twin.
  'test/simulation/dead-ceiling.test.ts',
  'test/firmware/*.test.ts',
  'test/web/page*.test.ts',
  // Two Mosquittos bridged, two controllers, the viewer page in Chromium.
  'test/broadcast/bridge.test.ts',
  // All 1,125 master games read, replayed and written in three notations: reference data.
  'test/record/liu-dahua.test.ts',
  // The file readers fuzzed with 2,000 inputs each (the unit project's test/record/fuzz runs 100).
  'test/record/fuzz-long.test.ts',
];

/**
 * Integration files: a real Mosquitto (the broker's roles, TLS, the generated ACL) or engine
 * processes driven through timeouts and crashes. Mostly waiting: they run after the unit project,
 * four files at a time.
 */
const INTEGRATION = [
  'test/engine/protocol.test.ts',
  'test/mqtt/access.test.ts',
  'test/mqtt/mosquitto.test.ts',
  'test/mqtt/tls.test.ts',
  'test/cli/mosquitto-acl.test.ts',
];

/**
 * Unit files that replace a module with `vi.mock` (node:fs): they need a module graph of their
 * own. The other unit files share their worker's modules (`isolate: false`): each file no longer
 * loads the controller, the broker and the rules again. Measured on this machine under other
 * people's load (8–14 on two cores): import 88 s → 15 s, CPU 4 min → 2 min 30 s, wall 6 min 20 s
 * → 3 min; on the machine alone afterwards: 95 s wall.
 */
const MOCKS = ['test/record/disk-full.test.ts'];

// Inline projects do not inherit the root's test options in vitest 4 (and `extends: true` would
// run the global setup once more per project): each gets these.
const shared = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks',
} as const;

export default defineConfig({
  test: {
    // Builds the command line once for both projects.
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ORACLE, ...MOCKS, ...INTEGRATION],
          isolate: false,
          // vitest's default (cores − 1) runs one file at a time on two cores; its main process
          // is idle here. 101 s → 65 s on this machine under other people's load.
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'unit-mocks',
          include: MOCKS,
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'integration',
          include: INTEGRATION,
          maxWorkers: 4,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...shared,
          name: 'oracle',
          include: ORACLE,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
