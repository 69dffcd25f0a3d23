import { parseArgs } from 'node:util';
import { Game } from '../../game/game.js';
import { makeChinese, makeWxf, parseMoveAny as readAnyNotation } from '../../notation/index.js';
import { INITIAL_FEN, type Move, type Position } from '../../rules/index.js';
import type { CodedError, Result } from '../../util/result.js';
import { type Command, UsageError } from '../command.js';

/** Reads one move as written on the command line, on the position it is played from. */
export type MoveReader = (pos: Position, text: string) => Result<Move, CodedError>;
/** Writes a move in another notation (null when that notation is not available). */
export type MoveWriter = (pos: Position, move: Move) => string | null;

/** ICCS, WXF or Chinese, told from the text (the notation module). */
export const parseMoveAny: MoveReader = (pos, text) => readAnyNotation(pos, text);
export const writeWxf: MoveWriter = (pos, move) => makeWxf(pos, move) ?? null;
export const writeChinese: MoveWriter = (pos, move) => makeChinese(pos, move) ?? null;

export interface GameReport {
  fen: string;
  status: 'playing' | 'ended';
  result: '*' | '1-0' | '0-1' | '1/2-1/2';
  reason: string | null;
  moves: { iccs: string; wxf: string | null; zh: string | null }[];
}

/** Plays `moves` from `fen`; an error names the move and its ply. */
export function runGame(fen: string, moves: readonly string[]): Result<GameReport, CodedError> {
  const started = Game.start(fen);
  if (!started.ok) return started;
  const game = started.value;
  const out: GameReport['moves'] = [];
  for (const [k, text] of moves.entries()) {
    const ply = k + 1;
    const pos = game.position;
    if (game.outcome) {
      return {
        ok: false,
        error: {
          code: 'game_over',
          message: `move '${text}' (ply ${ply}) comes after the end of the game (${game.outcome.result} ${game.outcome.reason})`,
        },
      };
    }
    const move = parseMoveAny(pos, text);
    if (!move.ok) {
      return {
        ok: false,
        error: { code: move.error.code, message: `move '${text}' (ply ${ply}): ${move.error.message}` },
      };
    }
    const played = game.play(move.value);
    if (!played.ok) {
      return {
        ok: false,
        error: { code: played.error.code, message: `move '${text}' (ply ${ply}): ${played.error.message}` },
      };
    }
    out.push({ iccs: played.value.iccs, wxf: writeWxf(pos, move.value), zh: writeChinese(pos, move.value) });
  }
  const outcome = game.outcome;
  return {
    ok: true,
    value: {
      fen: game.fen,
      status: outcome ? 'ended' : 'playing',
      result: outcome ? outcome.result : '*',
      reason: outcome ? outcome.reason : null,
      moves: out,
    },
  };
}

export const gameCommand: Command = {
  name: 'game',
  summary: 'play moves on a position and tell whether and how the game ended',
  help: `Usage: xqboard game [--fen FEN] [MOVE ...]

Plays the moves on FEN (the start position without --fen) and prints one JSON object.
Moves may be ICCS (h2e2), WXF (C2.5) or Chinese (炮二平五).
  {"fen":"<final FEN>","status":"playing"|"ended","result":"*"|"1-0"|"0-1"|"1/2-1/2",
   "reason":null|"checkmate"|"stalemate"|"perpetual_check"|"perpetual_chase"|"repetition"
            |"move_limit"|"insufficient_material",
   "moves":[{"iccs":"h2e2","wxf":"C2.5","zh":"炮二平五"}, ...]}
The game ends by the rules: checkmate and stalemate lose, repetitions are judged by the
Asian rules, 120 plies without a capture and positions where nobody can attack draw.

Exit status 2 for a bad FEN, or an illegal or unreadable move, or a move after the end
of the game, with a message naming the move and its ply.`,
  run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { fen: { type: 'string' } },
      allowPositionals: true,
    });
    const report = runGame(values.fen ?? INITIAL_FEN, positionals);
    if (!report.ok) {
      if (report.error.code === 'bad_position') throw new UsageError(report.error.message);
      io.err(`xqboard game: ${report.error.message}`);
      return 2;
    }
    io.out(JSON.stringify(report.value));
    return 0;
  },
};
