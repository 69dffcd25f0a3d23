/**
 * A whole game against the engine (the embedded Fairy-Stockfish), played through the simulated
 * board: a new game gives Red to the engine (the request API, as MQTT, the web page and the
 * terminal send it); each engine move is announced (`kind: 'engine'`, lit on the LEDs) and carried
 * out by the hand; a different move of the engine's side is refused with an alert that shows the
 * expected move, which stays expected until the board is put back and the move played; the game
 * ends by mate and its PGN names the engine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'mqtt';
import { describe, expect, it } from 'vitest';
import type { BusEvents } from '../../src/controller/bus.js';
import { performRequest } from '../../src/controller/requests.js';
import { parseGame } from '../../src/record/pgn.js';
import { makeIccs, makeSquareName, Position, parseIccs } from '../../src/rules/index.js';
import { useControllerRig } from './rig.js';

/** Red (the engine): chariot and advisor against a lone general, mate in a few moves. */
const FEN = '5k3/9/9/9/9/9/9/9/4A4/4K1R2 w - - 0 1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const rig = useControllerRig('xqboard-play-');

describe('a game against the engine on the simulated board', () => {
  it('the engine moves are lit and played, a wrong move is refused with the expected move shown, the game is recorded', async () => {
    const strip1 = { name: 'strip1', password: 'l3d', role: 'led', topic: 'wled/b1' } as const;
    const session = await rig.start({ access: { users: [strip1] } }, { driver: 'wled', topic: 'wled/b1' });
    const controller = rig.controller!;
    // The LEDs, as the WLED strip sees them (one LED per intersection, a0 first), logged in as one.
    const leds = connect(`mqtt://127.0.0.1:${rig.mqttPort}`, {
      reconnectPeriod: 0,
      username: strip1.name,
      password: strip1.password,
    });
    await new Promise<void>((r) => leds.once('connect', () => r()));
    await leds.subscribeAsync('wled/b1/api');
    const strip: string[] = new Array(90).fill('000000');
    leds.on('message', (_t, payload) => {
      const i = (JSON.parse(payload.toString()) as { seg?: { i: (number | string)[] } }).seg?.i;
      if (!i) return;
      let k = 0;
      if (typeof i[2] === 'string' && typeof i[1] === 'number') {
        strip.fill('000000');
        k = 3;
      }
      for (; k + 1 < i.length; k += 2) strip[i[k] as number] = i[k + 1] as string;
    });
    const violet = () =>
      strip
        .map((c, sq) => (c === '8000FF' ? makeSquareName(sq) : undefined))
        .filter((x) => x !== undefined)
        .sort();
    const lit = (iccs: string) => [iccs.slice(0, 2), iccs.slice(2, 4)].sort();
    const engineMoves: BusEvents['game.hint'][] = [];
    const alerts: BusEvents['tracker.alert'][] = [];
    let nextEngineMove: ((e: BusEvents['game.hint']) => void) | undefined;
    controller.bus.on('game.hint', (e) => {
      if (e.kind !== 'engine') return;
      engineMoves.push(e);
      nextEngineMove?.(e);
    });
    controller.bus.on('tracker.alert', (e) => alerts.push(e));
    const engineMove = (ply: number) =>
      new Promise<BusEvents['game.hint']>((resolve) => {
        const known = engineMoves.find((e) => e.ply === ply);
        if (known) return resolve(known);
        nextEngineMove = (e) => {
          if (e.ply === ply) resolve(e);
        };
      });

    const asked = await performRequest(controller.context, 'game/new', {
      fen: FEN,
      engine: { side: 'red', depth: 8 },
    });
    expect(asked.result.ok, JSON.stringify(asked.result)).toBe(true);
    await session.untilPlaying(10_000);
    expect(session.engineState().opponent).toMatchObject({ side: 'red' });

    // The engine's first move: announced, and the only one the board may show.
    const first = await engineMove(1);
    await sleep(300);
    expect(violet()).toEqual(lit(first.iccs));
    expect(first.iccs).toMatch(/^[a-i]\d[a-i]\d$/);
    expect(first.message).toContain(first.wxf);
    expect(session.engineState().expected).toBe(first.iccs);

    // The player makes another Red move instead: refused, the alert names the expected move.
    const pos = Position.fromFen(session.view().fen);
    if (!pos.ok) throw new Error('bad position');
    const wrong = pos.value
      .legalMoves()
      .find(
        (m) =>
          makeIccs(m) !== first.iccs &&
          !pos.value.pieceAt(m.to) &&
          pos.value.pieceAt(m.from)?.role !== 'king',
      );
    if (!wrong) throw new Error('no other move');
    const refused = await session.simulate({ move: makeIccs(wrong) });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toContain(first.iccs);
    const rejection = alerts.find((a) => a.alert.kind === 'move_rejected');
    expect(rejection?.alert.message).toMatch(
      new RegExp(`${makeIccs(wrong)} is not the engine's move: play ${first.iccs}`),
    );
    expect(session.alerts().some((a) => a.kind === 'move_rejected')).toBe(true);
    expect(session.view().ply).toBe(0);
    // Still the expected move, and the LEDs keep showing it while the board does not match.
    expect(session.engineState().expected).toBe(first.iccs);
    await sleep(300);
    expect(violet()).toEqual(lit(first.iccs));

    // The player puts the piece back and plays the engine's move.
    session.simulator!.move(wrong.to, wrong.from);
    await sleep(400);
    const corrected = await session.simulate({ move: first.iccs });
    expect(corrected.ok, JSON.stringify(corrected)).toBe(true);
    expect(session.alerts().some((a) => a.kind === 'move_rejected')).toBe(false);

    // The rest of the game: Black (the player) makes a legal move, Red (the engine) answers.
    for (let guard = 0; guard < 60 && session.view().status !== 'over'; guard++) {
      const view = session.view();
      const now = Position.fromFen(view.fen);
      if (!now.ok) throw new Error('bad position');
      if (view.turn === 'black') {
        const reply = now.value.legalMoves()[0]!;
        const played = await session.simulate({ move: makeIccs(reply) });
        expect(played.ok, JSON.stringify(played)).toBe(true);
      } else {
        const e = await engineMove(view.ply + 1);
        const move = parseIccs(e.iccs);
        expect(move.ok && now.value.isLegal(move.value)).toBe(true);
        const played = await session.simulate({ move: e.iccs });
        expect(played.ok, JSON.stringify(played)).toBe(true);
      }
      await sleep(50);
    }
    await sleep(200);
    const over = session.view();
    expect(over).toMatchObject({ status: 'over', result: '1-0', reason: 'checkmate' });
    // Archived: the game before (abandoned by the new game) and this one.
    const pgns = () =>
      readdirSync(rig.dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.pgn'));
    for (let i = 0; i < 50 && pgns().length < 2; i++) await sleep(100);
    const file = pgns().find((f) => readFileSync(join(rig.dir, f), 'utf8').includes('[Result "1-0"]'));
    const pgn = parseGame(readFileSync(join(rig.dir, file!), 'utf8'));
    if (!pgn.ok) throw new Error(pgn.error.message);
    expect(pgn.value.tags.Red).toMatch(/^Fairy-Stockfish.*depth 8/);
    expect(pgn.value.result).toBe('1-0');
    expect(engineMoves.length).toBeGreaterThanOrEqual(2);
    await leds.endAsync();
    expect(pgn.value.moves.filter((_, i) => i % 2 === 0).map((m) => m.iccs)).toEqual(
      engineMoves.map((e) => e.iccs),
    );
  }, 120_000);

  it('a game against the engine goes on against it after a restart', async () => {
    const run = () => rig.start();
    const first = await run();
    const asked = await performRequest(rig.controller!.context, 'game/new', {
      engine: { side: 'black', movetimeMs: 200, skill: 3 },
    });
    expect(asked.result.ok).toBe(true);
    await first.untilPlaying(10_000);
    expect((await first.simulate({ move: 'h2e2' })).ok).toBe(true);
    await rig.stop();

    const second = await run();
    expect(second.engineState().opponent).toEqual({ side: 'black', strength: { movetimeMs: 200, skill: 3 } });
    const reply = await new Promise<BusEvents['game.hint']>((resolve) =>
      rig.controller!.bus.on('game.hint', (e) => {
        if (e.kind === 'engine') resolve(e);
      }),
    );
    expect(reply).toMatchObject({ ply: 2, kind: 'engine' });
    expect(second.view().moves).toEqual(['h2e2']);
    expect(second.view().pgn).toMatch(/\[Black "Fairy-Stockfish.*200 ms, skill 3\)"\]/);
  }, 60_000);
});
