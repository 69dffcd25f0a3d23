/**
 * Restarts as users cause them, with the built command in child processes: a controller killed
 * outright (SIGKILL) and started again on the simulator resumes the game — the simulated board is
 * set to it — and goes on recording moves in the same journal; a second controller on the same
 * archive folder is refused with the process that holds it named.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import { LOCK_FILE } from '../../src/record/lock.js';
import { ROOT } from '../helpers/cli.js';
import { HINT_ANSWER_MS, journaledMoves, Recorder } from '../mqtt/support.js';

const BASE = 'xqrestart';
/** The configuration's arbiter: only it may play moves and start games. */
const ARBITER = { username: 'referee', password: 's3cret' };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-restart-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Child {
  readonly child: ChildProcess;
  stderr(): string;
  readonly exit: Promise<number | null>;
}

function start(): Child {
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      'boards:',
      '  - id: demo',
      '    source: { driver: simulator, heartbeatMs: 500 }',
      'mqtt:',
      `  baseTopic: ${BASE}`,
      '  wsPort: 0',
      `archive: { dir: ${join(dir, 'games')} }`,
      'web: { enabled: false }',
      'access:',
      '  users: [{ name: referee, password: s3cret, role: arbiter }]',
      // The engine worker answering is what is tested, not its play: a depth-1 search.
      'engine: { hint: { depth: 1 } }',
      '',
    ].join('\n'),
  );
  const child = spawn(process.execPath, ['bin/xqboard.js', 'start', '--config', config, '--mqtt-port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, exit };
}

/** The broker's port once the command logs that it runs (a JSON line: stderr is not a terminal). */
async function brokerUrl(run: Child): Promise<string> {
  const running = (): { mqttPort?: number } | undefined =>
    run
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; mqttPort?: number })
      .find((l) => l.msg.startsWith('running'));
  for (let i = 0; i < 400 && !running(); i++) {
    if (run.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const port = running()?.mqttPort;
  if (!port) throw new Error(`xqboard start did not run:\n${run.stderr()}`);
  return `mqtt://127.0.0.1:${port}`;
}

async function killed(run: Child): Promise<void> {
  run.child.kill('SIGKILL');
  await run.exit;
}

describe('restarts', () => {
  it('killed and started again on the simulator, it resumes the game and goes on recording', async () => {
    const first = start();
    const games = join(dir, 'games');
    try {
      const client = await Recorder.connect(await brokerUrl(first), [`${BASE}/#`], ARBITER);
      await client.until('playing', () =>
        client.json(`${BASE}/demo/position`).some((p) => p.status === 'playing'),
      );
      for (const [i, move] of ['h2e2', 'h9g7'].entries()) {
        expect(await client.request(BASE, 'board/simulate', { move, transaction: i }, i)).toMatchObject({
          status: 'ok',
          data: { iccs: move, ply: i + 1 },
        });
      }
      await client.end();
    } finally {
      await killed(first);
    }
    expect(journaledMoves(games)).toEqual(['h2e2', 'h9g7']);
    // The dead process's lock is left behind, and taken over.
    expect(existsSync(join(games, LOCK_FILE))).toBe(true);

    const second = start();
    try {
      const client = await Recorder.connect(await brokerUrl(second), [`${BASE}/#`], ARBITER);
      // Resumed, and the simulated board set to the game: play goes on at once.
      await client.until('the game resumed and under way', () =>
        client.json(`${BASE}/demo/position`).some((p) => p.status === 'playing' && p.ply === 2),
      );
      expect(
        await client.request(BASE, 'board/simulate', { move: 'h0g2', transaction: 'x' }, 'x'),
      ).toMatchObject({
        status: 'ok',
        data: { iccs: 'h0g2', ply: 3 },
      });
      // The built command's engine worker answers for the game on the board.
      expect(
        await client.request(BASE, 'game/hint', { transaction: 'h' }, 'h', HINT_ANSWER_MS),
      ).toMatchObject({
        status: 'ok',
        data: { ply: 4 },
      });
      expect(await client.request(BASE, 'game/get', { transaction: 'g' }, 'g')).toMatchObject({
        data: { ply: 3, moves: ['h2e2', 'h9g7', 'h0g2'], status: 'playing', final: false },
      });
      await client.end();
    } catch (e) {
      throw new Error(`${(e as Error).message}\nstderr:\n${second.stderr()}`);
    } finally {
      await killed(second);
    }
    expect(journaledMoves(games)).toEqual(['h2e2', 'h9g7', 'h0g2']);
    // Two starts of the command and the engine's first start (HINT_ANSWER_MS at most).
  }, 120_000);

  it('a second controller on the same archive is refused, naming the process that holds it', async () => {
    const first = start();
    try {
      await brokerUrl(first);
      const second = start();
      expect(await second.exit).toBe(1);
      expect(second.stderr()).toContain(`is in use by process ${first.child.pid}`);
      expect(second.stderr()).toContain('one controller per archive');
      // In the same process too: the folder is held.
      const config = configSchema.parse({
        boards: [{ id: 'demo', source: { driver: 'simulator' } }],
        archive: { dir: join(dir, 'games') },
        web: { enabled: false },
      });
      const third = new Controller({ config, listen: { mqttPort: 0, wsPort: 0 } });
      const refused = await third.start();
      expect(refused).toMatchObject({
        ok: false,
        error: { code: 'archive_locked', holder: { pid: first.child.pid } },
      });
      await third.stop();
    } finally {
      await killed(first);
    }
    expect(journaledMoves(join(dir, 'games'))).toEqual([]);
  }, 60_000);
});
