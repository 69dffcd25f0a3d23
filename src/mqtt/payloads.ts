/**
 * The MQTT contract's board payloads made from the controller's bus events: one translation, used
 * by the controller's feed (src/controller/feed.ts) that the MQTT bridge and the web page's event
 * stream both read, so they cannot drift.
 */
import type { Bus, GameView, MoveInfo } from '../controller/bus.js';
import type { BoardPayloads, BoardTopic, PositionPayload, ResultPayload } from './contract.js';
import { MoveRecordBook } from './move-record.js';

/** A payload before the feed numbers it (`seq` counts a board's messages, all topics together). */
export type Unsequenced<T> = T extends string ? T : T extends unknown ? Omit<T, 'seq'> : never;

export type BoardMessage = {
  [K in BoardTopic]: {
    readonly topic: K;
    readonly board: string;
    readonly body: Unsequenced<BoardPayloads[K]>;
    /** `moves`: the ply of the record. */
    readonly ply?: number;
    /**
     * Kept as the board's state (the live PGN over HTTP reads it), not published: the PGN after a
     * move or a takeback, whose move is on `moves/<ply>`.
     */
    readonly held?: boolean;
  };
}[BoardTopic];

/** The retained `position` of a game: everything a late viewer needs. */
export function positionPayload(view: GameView): Unsequenced<PositionPayload> {
  return {
    game: view.game,
    ...(view.meta ? { meta: view.meta } : {}),
    startFen: view.startFen,
    fen: view.fen,
    ply: view.ply,
    lastMove: view.lastMove,
    turn: view.turn,
    check: view.check,
    status: view.status,
    result: view.result,
    reason: view.reason,
    ...(view.clock ? { clock: view.clock } : {}),
  };
}

export function resultPayload(view: GameView): Unsequenced<ResultPayload> {
  return {
    game: view.game,
    result: view.result,
    reason: view.reason,
    ...(view.detail ? { detail: view.detail } : {}),
    final: view.status === 'over' ? view.final : false,
    ply: view.ply,
  };
}

/**
 * Hands every board message the bus implies to `sink`, in order; after each game event: the
 * records of the moves that changed (`moves/<ply>`), the result (when it changed), the position,
 * the PGN (when it changed; held after a move or a takeback). Returns the unsubscribe.
 */
export function followBus(bus: Bus, sink: (message: BoardMessage) => void): () => void {
  const lastResult = new Map<string, string>();
  const lastPgn = new Map<string, string>();
  const books = new Map<string, MoveRecordBook>();
  const send = <K extends BoardTopic>(
    board: string,
    topic: K,
    body: Unsequenced<BoardPayloads[K]>,
    more: { ply?: number; held?: boolean } = {},
  ): void => sink({ topic, board, body, ...more } as BoardMessage);
  /** After a move or a takeback (`played`), the PGN is held: the move is on its own topic. */
  const game = (board: string, view: GameView, played?: { move?: MoveInfo }): void => {
    let book = books.get(board);
    if (!book) {
      book = new MoveRecordBook();
      books.set(board, book);
    }
    for (const c of book.follow(view, played?.move)) send(board, 'moves', c.record ?? '', { ply: c.ply });
    const result = resultPayload(view);
    const key = `${view.game} ${result.result} ${result.reason} ${result.final}`;
    const resultChanged = lastResult.get(board) !== key;
    if (resultChanged) {
      lastResult.set(board, key);
      send(board, 'result', result);
    }
    send(board, 'position', positionPayload(view));
    if (lastPgn.get(board) !== view.pgn) {
      lastPgn.set(board, view.pgn);
      send(board, 'pgn', view.pgn, played && !resultChanged ? { held: true } : {});
    }
  };
  const off = [
    bus.on('board.availability', (e) =>
      send(e.board, 'availability', {
        state: e.online ? 'online' : 'offline',
        ...(e.reason ? { reason: e.reason } : {}),
      }),
    ),
    bus.on('game.view', (e) => game(e.board, e.view)),
    bus.on('game.move', (e) => {
      send(e.board, 'move', { game: e.view.game, ...e.move });
      game(e.board, e.view, { move: e.move });
    }),
    bus.on('game.retract', (e) => {
      send(e.board, 'retract', { game: e.view.game, ply: e.ply, fen: e.view.fen, t: Math.round(e.t) });
      game(e.board, e.view, {});
    }),
    bus.on('game.over', (e) => game(e.board, e.view)),
    bus.on('tracker.state', (e) =>
      send(e.board, 'state', { state: e.state, detail: e.detail, t: Math.round(e.t) }),
    ),
    bus.on('tracker.alert', (e) => send(e.board, 'alert', { ...e.alert, active: true, t: Math.round(e.t) })),
    bus.on('tracker.alertCleared', (e) =>
      send(e.board, 'alert', { kind: e.kind, active: false, t: Math.round(e.t) }),
    ),
    bus.on('game.hint', ({ board, ...hint }) => send(board, 'hint', hint)),
  ];
  return () => {
    for (const u of off) u();
  };
}
