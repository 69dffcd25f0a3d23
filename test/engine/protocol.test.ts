/**
 * The UCI and UCCI client (src/engine/engine.ts) against a scripted engine process
 * (fake-engine.mjs, a real child process): handshake, options, the position with the game's
 * moves, bestmove and its evaluation, no move, an engine that never answers (timeout, reported),
 * one that crashes (reported, restarted, the search answered).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Dialect, type EngineEvent, ProtocolEngine } from '../../src/engine/engine.js';
import { processTransport } from '../../src/engine/transport.js';
import { INITIAL_FEN } from '../../src/rules/index.js';

const FAKE = fileURLToPath(new URL('./fake-engine.mjs', import.meta.url));

let dir: string;
let engines: ProtocolEngine[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-engine-'));
});
afterEach(async () => {
  await Promise.all(engines.map((e) => e.close()));
  engines = [];
  rmSync(dir, { recursive: true, force: true });
});

function fake(
  dialect: Dialect,
  behaviour: string,
  extra: Partial<ConstructorParameters<typeof ProtocolEngine>[0]> = {},
) {
  const log = join(dir, 'commands.log');
  const marker = join(dir, 'crashed');
  const events: EngineEvent[] = [];
  const engine = new ProtocolEngine({
    dialect,
    spawn: () => processTransport(process.execPath, [FAKE, dialect, behaviour, log, marker]),
    label: 'fake',
    onEvent: (e) => events.push(e),
    ...extra,
  });
  engines.push(engine);
  const commands = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  return { engine, events, commands, marker };
}

describe.each(['uci', 'ucci'] as const)('%s engine', (dialect) => {
  it('handshake, options, the position with the game moves, bestmove with depth and score', async () => {
    const { engine, events, commands } = fake(dialect, 'normal', { options: { Hash: 64, Threads: 2 } });
    const r = await engine.search({ fen: INITIAL_FEN, moves: ['b2e2', 'h9g7'], limits: { movetimeMs: 200 } });
    expect(r.move).toBe('h2e2');
    expect(r.depth).toBe(8);
    expect(r.cancelled).toBe(false);
    expect(engine.name).toBe(`fake ${dialect} engine`);
    expect(events[0]).toMatchObject({ type: 'started', name: `fake ${dialect} engine` });
    const sent = commands();
    if (dialect === 'uci') {
      expect(r.score).toEqual({ mate: 3 });
      expect(r.nodes).toBe(23456);
      expect(sent).toEqual([
        'uci',
        'setoption name Hash value 64',
        'setoption name Threads value 2',
        'isready',
        `position fen ${INITIAL_FEN} moves b2e2 h9g7`,
        'go movetime 200',
      ]);
    } else {
      expect(r.score).toEqual({ cp: 41 });
      expect(r.pv).toEqual(['h2e2', 'h9g7', 'h0g2']);
      expect(sent).toEqual([
        'ucci',
        'setoption usemillisec true',
        'setoption Hash 64',
        'setoption Threads 2',
        'isready',
        `position fen ${INITIAL_FEN} moves b2e2 h9g7`,
        'go time 200 movestogo 1',
      ]);
    }
  });

  it('depth and nodes limits; a skill level is set once, then again only when it changes', async () => {
    const { engine, commands } = fake(dialect, 'normal');
    await engine.search({ fen: INITIAL_FEN, moves: [], limits: { depth: 6, skill: 5 } });
    await engine.search({ fen: INITIAL_FEN, moves: [], limits: { nodes: 5000, skill: 5 } });
    const sent = commands();
    expect(sent).toContain('go depth 6');
    expect(sent).toContain('go nodes 5000');
    expect(sent.filter((l) => l.includes('Skill Level'))).toEqual(
      dialect === 'uci' ? ['setoption name Skill Level value 5'] : [],
    );
  });

  it(`no move: ${dialect === 'uci' ? 'bestmove (none)' : 'nobestmove'}`, async () => {
    const { engine } = fake(dialect, 'none');
    const r = await engine.search({ fen: INITIAL_FEN, moves: [], limits: { depth: 3 } });
    expect(r.move).toBeUndefined();
    expect(r.cancelled).toBe(false);
  });

  it('an engine that never answers a search: stopped, reported, killed, started again for the next', async () => {
    const { engine, events, commands } = fake(dialect, 'silent', { graceMs: 300 });
    const started = Date.now();
    await expect(
      engine.search({ fen: INITIAL_FEN, moves: [], limits: { movetimeMs: 100 } }),
    ).rejects.toMatchObject({
      code: 'engine_timeout',
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(commands()).toContain('stop');
    expect(events.filter((e) => e.type === 'timeout')).toHaveLength(1);
    expect(events.find((e) => e.type === 'timeout')).toMatchObject({
      message: expect.stringMatching(/did not answer/),
    });
    // The next search starts a new process (a second handshake).
    await expect(
      engine.search({ fen: INITIAL_FEN, moves: [], limits: { movetimeMs: 100 } }),
    ).rejects.toThrow();
    expect(commands().filter((l) => l === dialect)).toHaveLength(2);
  });

  it('an engine that never answers the handshake: a timeout, reported', async () => {
    const { engine, events } = fake(dialect, 'mute', { startMs: 5000, startLimitMs: 300 });
    await expect(engine.search({ fen: INITIAL_FEN, moves: [], limits: { depth: 2 } })).rejects.toMatchObject({
      code: 'engine_timeout',
      message: expect.stringMatching(/handshake within 300 ms/),
    });
    expect(events.map((e) => e.type)).toEqual(['timeout']);
    // Killed: the next search starts a new one (given up in its turn).
    await expect(engine.search({ fen: INITIAL_FEN, moves: [], limits: { depth: 2 } })).rejects.toMatchObject({
      code: 'engine_timeout',
    });
    expect(events.map((e) => e.type)).toEqual(['timeout', 'timeout']);
  });

  it('an engine slow to start is waited for: the search is answered', async () => {
    // 1.5 s to start, the default patience (30 s).
    const { engine, events } = fake(dialect, 'slow-start');
    const r = await engine.search({ fen: INITIAL_FEN, moves: [], limits: { depth: 2 } });
    expect(r.move).toBe('h2e2');
    expect(events.map((e) => e.type)).toEqual(['started']);
  });

  it('an engine slower to start than a search waits: told it is starting, and the start goes on', async () => {
    // The engine is not killed: the next search gets it once it has started (one handshake).
    const { engine, events, commands } = fake(dialect, 'slow-start', { startMs: 200 });
    await expect(engine.search({ fen: INITIAL_FEN, moves: [], limits: { depth: 2 } })).rejects.toMatchObject({
      code: 'engine_starting',
      message: expect.stringMatching(/still starting.*ask again/),
    });
    expect(events).toEqual([]);
    await vi.waitFor(() => expect(events.map((e) => e.type)).toEqual(['started']), { timeout: 10_000 });
    const again = await engine.search({ fen: INITIAL_FEN, moves: [], limits: { depth: 2 } });
    expect(again.move).toBe('h2e2');
    expect(commands().filter((l) => l === dialect)).toHaveLength(1);
    expect(commands().filter((l) => l.startsWith('go'))).toHaveLength(1);
  });

  it('an engine that crashes during a search is reported, restarted, and the search answered', async () => {
    const { engine, events, commands, marker } = fake(dialect, 'crash-once');
    const r = await engine.search({ fen: INITIAL_FEN, moves: ['h2e2'], limits: { depth: 5 } });
    expect(existsSync(marker)).toBe(true);
    expect(r.move).toBe('h2e2');
    expect(events.map((e) => e.type)).toEqual(['started', 'crashed', 'started']);
    expect(events[1]).toMatchObject({ message: expect.stringMatching(/exit code 3/) });
    expect(commands().filter((l) => l === dialect)).toHaveLength(2);
  });

  it('an engine that crashes every time fails the search (after one restart)', async () => {
    const { engine, events } = fake(dialect, 'crash');
    await expect(engine.search({ fen: INITIAL_FEN, moves: [], limits: { depth: 5 } })).rejects.toMatchObject({
      code: 'engine_crashed',
    });
    expect(events.filter((e) => e.type === 'crashed')).toHaveLength(2);
  });
});

describe('engines and squares', () => {
  it('Fairy-Stockfish in UCI mode counts ranks 1-10: moves are converted both ways', async () => {
    const { engine, commands } = fake('uci', 'ranks1');
    const r = await engine.search({ fen: INITIAL_FEN, moves: ['h2e2', 'h9g7'], limits: { depth: 3 } });
    expect(r.move).toBe('h2e2');
    const sent = commands();
    expect(sent).toContain('setoption name UCI_Variant value xiangqi');
    expect(sent).toContain(`position fen ${INITIAL_FEN} moves h3e3 h10g8`);
  });

  it('a search cancelled while it runs is stopped and answered as cancelled; queued ones that were cancelled never start', async () => {
    const { engine, commands } = fake('uci', 'silent', { graceMs: 500 });
    const abort = new AbortController();
    const queued = new AbortController();
    queued.abort();
    const first = engine.search({
      fen: INITIAL_FEN,
      moves: [],
      limits: { movetimeMs: 50 },
      signal: abort.signal,
    });
    const second = engine.search({
      fen: INITIAL_FEN,
      moves: [],
      limits: { depth: 1 },
      signal: queued.signal,
    });
    await vi.waitFor(() => expect(commands()).toContain('go movetime 50'), { timeout: 10_000 });
    abort.abort();
    // The silent engine answers `stop` with nothing either: a timeout after the stop.
    await expect(first).rejects.toMatchObject({ code: 'engine_timeout' });
    expect(commands()).toContain('stop');
    await expect(second).resolves.toMatchObject({ cancelled: true, move: undefined });
  });

  it('a UCCI engine without usemillisec gets its time in seconds', async () => {
    const { engine, commands } = fake('ucci', 'seconds');
    await engine.search({ fen: INITIAL_FEN, moves: [], limits: { movetimeMs: 2500 } });
    expect(commands()).toContain('go time 3 movestogo 1');
    expect(commands()).not.toContain('setoption usemillisec true');
  });

  it('a search cancelled before it starts is never sent to the engine', async () => {
    const { engine, commands } = fake('uci', 'normal');
    const abort = new AbortController();
    const r = engine.search({ fen: INITIAL_FEN, moves: [], limits: { depth: 3 }, signal: abort.signal });
    abort.abort();
    await expect(r).resolves.toMatchObject({ cancelled: true, move: undefined });
    expect(commands().some((l) => l.startsWith('go'))).toBe(false);
  });

  it('an engine path that does not exist fails the search with a reason', async () => {
    const engine = new ProtocolEngine({
      dialect: 'uci',
      spawn: () => processTransport(join(dir, 'no-such-engine')),
      label: 'missing',
      startMs: 2000,
    });
    engines.push(engine);
    await expect(engine.search({ fen: INITIAL_FEN, moves: [], limits: { depth: 1 } })).rejects.toThrow(
      /ENOENT|stopped/,
    );
  });
});
