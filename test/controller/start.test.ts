/**
 * `xqboard start` as users run it: the built command in a child process, with a configuration on
 * free ports. A client sees the bridge online, plays a move on the simulated board through a
 * request, sees it published; SIGTERM ends it cleanly (offline, exit 0). Its log on standard error
 * (not a terminal here) is one JSON line per event, the board's lines with the board's id, at the
 * configuration's level or --log-level's. A port
 * already taken is reported by name with the way to change it, in plain text.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { journaledMoves, Recorder } from '../mqtt/support.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-start-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Child {
  child: ChildProcess;
  stderr: () => string;
  exit: Promise<number | null>;
}

function start(args: string[]): Child {
  const child = spawn(process.execPath, ['bin/xqboard.js', 'start', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout!.resume();
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, exit };
}

interface LogLine {
  level: number;
  msg: string;
  board?: string;
  [field: string]: unknown;
}

/** The complete lines of standard error, each a JSON object (pino's), or a test failure. */
const logLines = (run: Child): LogLine[] =>
  run
    .stderr()
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as LogLine);

/** The broker's port, as the command logs once it runs (`--mqtt-port 0`: any free one). */
async function brokerPort(run: Child): Promise<number> {
  const running = () => logLines(run).find((l) => l.msg.startsWith('running'));
  for (let i = 0; i < 300 && !running(); i++) {
    if (run.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(running()).toMatchObject({ level: 30, boards: ['demo'] });
  return running()!.mqttPort as number;
}

function writeConfig(port: number, wsPort: number): string {
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    [
      'boards:',
      '  - id: demo',
      '    source: { driver: simulator, heartbeatMs: 500 }',
      'mqtt:',
      `  port: ${port}`,
      `  wsPort: ${wsPort}`,
      '  baseTopic: xqdemo',
      'archive:',
      `  dir: ${join(dir, 'games')}`,
      'web: { enabled: false }',
      'access:',
      '  users: [{ name: referee, password: s3cret, role: arbiter }]',
      '',
    ].join('\n'),
  );
  return file;
}

describe('xqboard start', () => {
  it('runs a simulated board with its broker; a move requested over MQTT is published; SIGTERM stops it', async () => {
    const run = start(['--config', writeConfig(1883, 0), '--mqtt-port', '0']);
    let client: Recorder | undefined;
    try {
      // The broker is up once the command says it runs.
      const port = await brokerPort(run);
      client = await Recorder.connect(`mqtt://127.0.0.1:${port}`, ['xqdemo/#'], {
        username: 'referee',
        password: 's3cret',
      });
      await client.until('online', () =>
        client!.on('xqdemo/bridge/state').some((m) => m.text === '{"state":"online"}'),
      );
      expect(client.on('xqdemo/bridge/state')[0]).toMatchObject({ retain: true, qos: 1 });
      await client.until('the game waiting', () =>
        client!.json('xqdemo/demo/position').some((p) => p.status === 'playing'),
      );

      const response = await client.request('xqdemo', 'board/simulate', { move: 'C2.5', transaction: 1 }, 1);
      // Answered once the move is in the journal.
      expect(response).toEqual({ data: { iccs: 'h2e2', ply: 1 }, status: 'ok', transaction: 1 });
      expect(journaledMoves(join(dir, 'games'))).toEqual(['h2e2']);
      await client.until('the move', () => client!.on('xqdemo/demo/move').length > 0);
      const move = client.on('xqdemo/demo/move')[0]!;
      expect(move).toMatchObject({ retain: false, qos: 1 });
      expect(JSON.parse(move.text)).toMatchObject({ ply: 1, iccs: 'h2e2', wxf: 'C2.5', zh: '炮二平五' });
      expect(journaledMoves(join(dir, 'games'))).toEqual(['h2e2']);

      run.child.kill('SIGTERM');
      await client.until('offline', () =>
        client!.on('xqdemo/bridge/state').some((m) => m.text === '{"state":"offline"}'),
      );
      expect(await run.exit).toBe(0);
      const lines = logLines(run);
      // The last lines before the exit are there (the log is written synchronously): the stop,
      // then the board's link going down.
      expect(lines.at(-2)).toMatchObject({ msg: 'stopping (SIGTERM)', signal: 'SIGTERM' });
      expect(lines.at(-1)).toMatchObject({ msg: 'link down: stopped', board: 'demo' });
      const gameLine = lines.find((l) => /game .* under way/.test(l.msg));
      expect(gameLine).toMatchObject({ board: 'demo', level: 30 });
    } catch (e) {
      throw new Error(`${(e as Error).message}\nstderr of xqboard start:\n${run.stderr()}`);
    } finally {
      run.child.kill('SIGKILL');
      await client?.end();
    }
  });

  it('names a port that is taken and says how to choose another', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, () => r()));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const run = start(['--config', writeConfig(port, 0)]);
      expect(await run.exit).toBe(1);
      // A message for the user, not a log event: plain text.
      expect(run.stderr()).toMatch(/^xqboard start: /);
      expect(run.stderr()).toContain(`port ${port} (mqtt.port) is already in use`);
      expect(run.stderr()).toContain(`--mqtt-port ${port + 1}`);
    } finally {
      await new Promise((r) => taken.close(r));
    }
  });

  it('refuses a bad configuration with its file, line and key', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'mqtt:\n  prot: 1883\n');
    const run = start(['--config', file]);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toMatch(/^xqboard start: .*bad\.yaml:2: mqtt\.prot: unknown key "prot"/);
  });

  it("logs at the configuration's log.level, and at --log-level over it", async () => {
    const file = writeConfig(1883, 0);
    appendFileSync(file, 'log: { level: warn }\n');
    // At warn it runs (its game is journaled) and writes no info line, not even the stop's.
    const quiet = start(['--config', file, '--mqtt-port', '0']);
    const journaled = () => {
      try {
        return readdirSync(join(dir, 'games')).some((f) => f.endsWith('.journal.jsonl'));
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 300 && !journaled() && quiet.child.exitCode === null; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(journaled(), quiet.stderr()).toBe(true);
    quiet.child.kill('SIGTERM');
    expect(await quiet.exit).toBe(0);
    expect(logLines(quiet).filter((l) => l.level < 40)).toEqual([]);
    // --log-level info over the file's warn: the info lines are back.
    const loud = start(['--config', file, '--mqtt-port', '0', '--log-level', 'info']);
    try {
      await brokerPort(loud);
      loud.child.kill('SIGTERM');
      expect(await loud.exit).toBe(0);
      expect(logLines(loud).at(-2)).toMatchObject({ level: 30, msg: 'stopping (SIGTERM)' });
    } finally {
      loud.child.kill('SIGKILL');
    }
  });

  it('refuses a log level it does not know, in plain text, with exit status 2', async () => {
    const run = start(['--log-level', 'loud']);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toMatch(
      /^xqboard start: --log-level must be one of fatal, error, warn, info, debug/,
    );
  });
});
