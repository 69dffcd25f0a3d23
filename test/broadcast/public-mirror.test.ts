/**
 * The public mirror from the controller's feed: each move published once on its own retained
 * topic, a takeback clears the ply taken back, a new game clears the last one's moves, a
 * reconnect publishes the whole public state again; with a delay, nothing before its time.
 */
import { describe, expect, it } from 'vitest';
import { DelayedFeed } from '../../src/broadcast/delay.js';
import { PublicMirror } from '../../src/broadcast/public.js';
import { Bus, type GameView } from '../../src/controller/bus.js';
import { BoardFeed } from '../../src/controller/feed.js';
import { INITIAL_FEN, Position, parseIccs } from '../../src/rules/index.js';

/** A game view as a session announces it, after `moves`. */
function view(game: string, moves: string[], status: GameView['status'] = 'playing'): GameView {
  const pos = Position.default();
  for (const m of moves) {
    const move = parseIccs(m);
    if (!move.ok) throw new Error(m);
    pos.play(move.value);
  }
  return {
    board: 'b1',
    game,
    startFen: INITIAL_FEN,
    fen: `(after ${moves.length})`,
    ply: moves.length,
    moves,
    times: moves.map((_, i) => 1000 * (i + 1)),
    lastMove: moves.at(-1) ?? null,
    turn: pos.turn,
    check: pos.isCheck(),
    status,
    result: '*',
    reason: null,
    final: false,
    pgn: '',
    meta: { event: 'Open', red: { name: 'A' } },
  };
}

function rig(delayMs = 0) {
  const bus = new Bus();
  const feed = new BoardFeed(bus);
  feed.start();
  const delayed = new DelayedFeed(feed, delayMs);
  delayed.start();
  const sent: { topic: string; text: string; retain: boolean }[] = [];
  let reconnect: (() => void) | undefined;
  const publisher = {
    publish: (topic: string, text: string, spec: { retain: boolean }) => {
      sent.push({ topic, text, retain: spec.retain });
    },
    subscribe: () => () => {},
    onConnected: (l: () => void) => {
      reconnect = l;
      return () => {};
    },
  };
  const mirror = new PublicMirror(delayed, publisher, 'x/public');
  return { bus, sent, mirror, delayed, reconnect: () => reconnect?.() };
}

describe('public mirror', () => {
  it('sends each move once, clears a takeback and the last game, and republishes on reconnect', async () => {
    const { bus, sent, mirror, reconnect } = rig();
    await mirror.start();
    bus.emit('game.view', { board: 'b1', view: view('g1', []) });
    bus.emit('game.view', { board: 'b1', view: view('g1', ['h2e2']) });
    bus.emit('game.view', { board: 'b1', view: view('g1', ['h2e2', 'h9g7']) });
    bus.emit('game.view', { board: 'b1', view: view('g1', ['h2e2', 'h9g7']) });
    const moves = (ply: number) => sent.filter((m) => m.topic === `x/public/b1/moves/${ply}`);
    expect(moves(1)).toHaveLength(1);
    expect(moves(2)).toHaveLength(1);
    expect(JSON.parse(moves(2)[0]!.text)).toMatchObject({
      game: 'g1',
      ply: 2,
      iccs: 'h9g7',
      color: 'black',
      zh: '马８进７',
    });
    expect(sent.every((m) => m.retain)).toBe(true);
    // The game's own message only when it changes.
    expect(sent.filter((m) => m.topic === 'x/public/b1/game')).toHaveLength(1);

    // A takeback of ply 2: its topic is cleared, and the status says ply 1.
    bus.emit('game.view', { board: 'b1', view: view('g1', ['h2e2']) });
    expect(moves(2).at(-1)!.text).toBe('');
    expect(JSON.parse(sent.filter((m) => m.topic === 'x/public/b1/status').at(-1)!.text)).toMatchObject({
      ply: 1,
    });
    // Played again differently.
    bus.emit('game.view', { board: 'b1', view: view('g1', ['h2e2', 'b9c7']) });
    expect(JSON.parse(moves(2).at(-1)!.text)).toMatchObject({ iccs: 'b9c7' });

    // A new game: the last one's moves are cleared.
    bus.emit('game.view', { board: 'b1', view: view('g2', []) });
    expect(moves(1).at(-1)!.text).toBe('');
    expect(moves(2).at(-1)!.text).toBe('');
    expect(JSON.parse(sent.filter((m) => m.topic === 'x/public/b1/game').at(-1)!.text)).toMatchObject({
      game: 'g2',
      meta: { event: 'Open', red: { name: 'A' } },
    });

    // A reconnect (a broker that restarted): the whole public state again.
    bus.emit('game.view', { board: 'b1', view: view('g2', ['c3c4']) });
    const before = sent.length;
    reconnect();
    const again = sent.slice(before).map((m) => m.topic);
    expect(again).toEqual(
      expect.arrayContaining(['x/public/b1/game', 'x/public/b1/status', 'x/public/b1/moves/1']),
    );
    expect(again).not.toContain('x/public/b1/moves/2');
    await mirror.stop();
  });

  it('holds everything back by the delay, in order', async () => {
    const { bus, sent, mirror, delayed } = rig(150);
    await mirror.start();
    const t0 = performance.now();
    bus.emit('game.view', { board: 'b1', view: view('g1', ['h2e2']) });
    bus.emit('game.view', { board: 'b1', view: view('g1', ['h2e2', 'h9g7']) });
    expect(sent).toHaveLength(0);
    expect(delayed.pending).toBeGreaterThan(0);
    while (sent.filter((m) => m.topic.includes('/moves/')).length < 2)
      await new Promise((r) => setTimeout(r, 5));
    expect(performance.now() - t0).toBeGreaterThanOrEqual(145);
    expect(sent.filter((m) => m.topic.includes('/moves/')).map((m) => JSON.parse(m.text).ply)).toEqual([
      1, 2,
    ]);
    await mirror.stop();
    delayed.stop();
  });
});
