/** The game model as the move reader sees it: the current and previous positions kept at hand. */
import type { Game } from '../game/game.js';
import { explainIllegal } from '../rules/explain.js';
import type { Position } from '../rules/position.js';
import type { Color, Move } from '../rules/types.js';
import type { GamePort } from './machine.js';

export class TrackedGame implements GamePort {
  private current: Position;
  private before: Position | undefined;

  constructor(readonly game: Game) {
    this.current = game.position;
    this.before = this.positionAfter(game.moves.length - 1);
  }

  get position(): Position {
    return this.current;
  }

  get previous(): { position: Position; move: Move } | undefined {
    const last = this.game.moves.at(-1);
    return this.before && last ? { position: this.before, move: last.move } : undefined;
  }

  get plies(): number {
    return this.game.moves.length;
  }

  get over(): boolean {
    return this.game.isOver;
  }

  get canPlayOn(): boolean {
    return this.game.canPlayOn;
  }

  get outcome(): { result: string; reason: string; detail?: string } | undefined {
    const o = this.game.outcome;
    return o ? { result: o.result, reason: o.reason, ...(o.detail ? { detail: o.detail } : {}) } : undefined;
  }

  play(move: Move, t: number): { ok: true } | { ok: false; message: string } {
    const before = this.current;
    const played = this.game.play(move, this.gameTime(t));
    if (!played.ok) return { ok: false, message: played.error.message };
    this.before = before;
    this.current = this.game.position;
    return { ok: true };
  }

  undoLast(t: number): boolean {
    if (!this.game.undoLast(this.gameTime(t)).ok) return false;
    this.current = this.game.position;
    this.before = this.positionAfter(this.game.moves.length - 1);
    return true;
  }

  foul(color: Color, t: number): void {
    this.game.reportIllegal(
      { color, kind: 'illegal_move', uncorrectedMs: Number.POSITIVE_INFINITY },
      this.gameTime(t),
    );
  }

  /** The board's clock may start behind a resumed game's last move: game time never goes back. */
  private gameTime(t: number): number {
    return Math.max(t, this.game.moves.at(-1)?.t ?? t);
  }

  explain(pos: Position, move: Move): { code: string; message: string } {
    return explainIllegal(pos, move) ?? { code: 'illegal', message: 'the move is not legal' };
  }

  /** The position after `plies` moves of the game (undefined before the start). */
  private positionAfter(plies: number): Position | undefined {
    if (plies < 0) return undefined;
    const pos = this.game.startPosition;
    for (const m of this.game.moves.slice(0, plies)) pos.play(m.move);
    return pos;
  }
}
