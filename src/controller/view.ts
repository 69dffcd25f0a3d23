/** The game of a board as everyone shows it (the retained `position`, the terminal, `game/get`). */
import type { Game } from '../game/game.js';
import type { BoardMeta, ClockView, GameStatus } from '../mqtt/contract.js';
import { type PgnMove, writePgn } from '../record/pgn.js';
import type { GameView } from './bus.js';

export interface ViewInput {
  readonly board: string;
  readonly gameId: string;
  readonly game: Game;
  /** The session's phase: a game with an outcome shows `over` whatever it is. */
  readonly phase: GameStatus;
  /** An ending not by the board (abandoned). */
  readonly closedAs?: { readonly result: string; readonly reason: string } | undefined;
  /** Game time now (the clock's remaining time). */
  readonly now: number;
  readonly tags: Readonly<Record<string, string>>;
  /** Event metadata, as the retained `position` carries it. */
  readonly meta?: BoardMeta;
  readonly date: Date;
}

export function buildView(v: ViewInput): GameView {
  const { game } = v;
  const outcome = game.outcome;
  const moves = game.moves;
  const status: GameStatus = v.phase === 'over' || outcome || v.closedAs ? 'over' : v.phase;
  const result = outcome?.result ?? v.closedAs?.result ?? '*';
  const clock = clockView(game, v.now);
  return {
    board: v.board,
    game: v.gameId,
    ...(v.meta && Object.keys(v.meta).length > 0 ? { meta: v.meta } : {}),
    startFen: game.startFen,
    fen: game.fen,
    ply: moves.length,
    moves: moves.map((m) => m.iccs),
    times: moves.map((m) => m.t),
    lastMove: moves.at(-1)?.iccs ?? null,
    turn: game.turn,
    check: game.position.isCheck(),
    status,
    result,
    reason: outcome?.reason ?? v.closedAs?.reason ?? null,
    ...(outcome?.detail ? { detail: outcome.detail } : {}),
    // Final only for a game that is over and may not be played past.
    final: status === 'over' && !game.canPlayOn,
    ...(clock ? { clock } : {}),
    pgn: writePgn({
      tags: { ...v.tags, Date: v.date.toISOString().slice(0, 10).replace(/-/g, '.') },
      fen: game.startFen,
      moves: pgnMoves(game),
      result,
    }),
  };
}

/**
 * Each move with `[%clk]`, the mover's time left, when a clock switched by the moves runs (one
 * press a move); otherwise `[%emt]`, the time the move took.
 */
function pgnMoves(game: Game): PgnMove[] {
  const moves = game.moves;
  const left = game.clock?.leftAfterPresses();
  if (left && left.length === moves.length) {
    return moves.map((m, i) => ({ move: m.move, iccs: m.iccs, clock: left[i]! }));
  }
  return moves.map((m, i) => ({ move: m.move, iccs: m.iccs, emt: m.t - (moves[i - 1]?.t ?? 0) }));
}

function clockView(game: Game, now: number): ClockView | undefined {
  const clock = game.clock;
  if (!clock) return undefined;
  const t = Math.max(now, game.moves.at(-1)?.t ?? 0);
  return {
    red: clock.remaining('red', t),
    black: clock.remaining('black', t),
    running: clock.running ?? null,
  };
}
