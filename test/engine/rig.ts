/**
 * A controller with one simulated board (`b1`) on a fresh archive folder, for the engine tests:
 * the folder is made before each test and removed after it, the controller stopped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import type { BoardSession } from '../../src/controller/board-session.js';
import { Controller } from '../../src/controller/controller.js';

export interface Rig {
  /** The archive folder of the current test. */
  readonly dir: string;
  /** The controller started last (undefined before). */
  readonly controller: Controller | undefined;
  /** Its embedded broker's TCP port. */
  readonly mqttPort: number;
  /** Starts a controller (`b1` a simulator, no web page) with these settings; resolves when its game is under way. */
  start(settings?: Record<string, unknown>, leds?: Record<string, unknown>): Promise<BoardSession>;
  /** Stops the current controller (a later `start` resumes its games). */
  stop(): Promise<void>;
}

/** Call at the top of a test file: the hooks are registered for every test of the file. */
export function useControllerRig(prefix: string): Rig {
  let dir = '';
  let controller: Controller | undefined;
  let mqttPort = 0;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await controller?.stop();
    controller = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get controller() {
      return controller;
    },
    get mqttPort() {
      return mqttPort;
    },
    async start(settings = {}, leds) {
      const config = configSchema.parse({
        boards: [{ id: 'b1', source: { driver: 'simulator', heartbeatMs: 0 }, ...(leds ? { leds } : {}) }],
        archive: { dir },
        web: { enabled: false },
        ...settings,
      });
      controller = new Controller({ config, listen: { mqttPort: 0, wsPort: 0 }, handMs: 80 });
      const started = await controller.start();
      if (!started.ok) throw new Error(started.error.message);
      mqttPort = started.value.broker!.port;
      const session = controller.sessions.get('b1')!;
      await session.untilPlaying(10_000);
      return session;
    },
    async stop() {
      await controller?.stop();
      controller = undefined;
    },
  };
}
