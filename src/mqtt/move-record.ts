/**
 * The record of each move of a game, one retained topic a ply: `<base>/<board>/moves/<ply>` live,
 * `<public>/<board>/moves/<ply>` on the public mirror (which forwards these records, delayed). Made
 * here once, kept in step with the game's move list: a takeback clears its ply, a new game clears
 * the last one's, a game resumed or a move list that changed otherwise is made good by replay. A
 * viewer who joins late has the whole game from the retained records, and no message carries the
 * whole game again.
 */
import type { GameView, MoveInfo } from '../controller/bus.js';
import { makeChinese, makeWxf } from '../notation/index.js';
import { makeFen, Position, parseIccs } from '../rules/index.js';
import type { MoveRecordPayload, PublicMovePayload } from './contract.js';

/** A record before the feed numbers it. */
export type MoveRecord = Omit<MoveRecordPayload, 'seq'>;

/** What to publish on `moves/<ply>`: the record, or null to clear the topic (empty retained payload). */
export interface RecordChange {
  readonly ply: number;
  readonly record: MoveRecord | null;
}

/** A record as the public mirror publishes it: without the live feed's `seq`. */
export function publicRecord(record: MoveRecord | MoveRecordPayload): PublicMovePayload {
  const { seq: _, ...rest } = record as MoveRecordPayload;
  return rest;
}

/** The records of one board's game, made from the views and moves its session announces. */
export class MoveRecordBook {
  private game = '';
  private startFen = '';
  private readonly records: MoveRecord[] = [];
  /** The position after `records`, made only when a move has to be replayed. */
  private pos: Position | undefined;

  /** The records of the game now, by ply. */
  get all(): readonly MoveRecord[] {
    return this.records;
  }

  /**
   * Brings the records in step with `view`; `move` is the move just announced, when there is one
   * (its record is then made from it, not replayed). Returns what to publish, in order: clears
   * from the last ply down, then the new records from the first up.
   */
  follow(view: GameView, move?: MoveInfo): RecordChange[] {
    const changes: RecordChange[] = [];
    const clearFrom = (ply: number): void => {
      for (let p = this.records.length; p > ply; p--) changes.push({ ply: p, record: null });
      if (this.records.length > ply) {
        this.records.length = ply;
        this.pos = undefined;
      }
    };
    if (view.game !== this.game || view.startFen !== this.startFen) {
      clearFrom(0);
      this.game = view.game;
      this.startFen = view.startFen;
      this.pos = undefined;
    }
    let common = 0;
    const n = Math.min(this.records.length, view.moves.length);
    while (common < n && this.records[common]!.iccs === view.moves[common]) common++;
    clearFrom(common);
    for (let i = common; i < view.moves.length; i++) {
      const last = i === view.moves.length - 1;
      const made =
        move && move.ply === i + 1 && move.iccs === view.moves[i]
          ? this.fromMove(move, last ? view : undefined)
          : this.replay(view, i);
      if (!made) break;
      this.records.push(made);
      changes.push({ ply: made.ply, record: made });
    }
    return changes;
  }

  private fromMove(move: MoveInfo, view: GameView | undefined): MoveRecord {
    // The position is made again only if a later move has to be replayed.
    this.pos = undefined;
    const clock = view?.clock?.[move.color];
    return { game: this.game, ...move, ...(clock !== undefined ? { clock } : {}) };
  }

  /** Move `i` (0-based) of `view`, replayed on the position after the records before it. */
  private replay(view: GameView, i: number): MoveRecord | undefined {
    if (!this.pos) {
      const start = Position.fromFen(this.startFen);
      if (!start.ok) return undefined;
      this.pos = start.value;
      for (const r of this.records) {
        const m = parseIccs(r.iccs);
        if (!m.ok || !this.pos.isLegal(m.value)) return undefined;
        this.pos.play(m.value);
      }
    }
    const pos = this.pos;
    const iccs = view.moves[i]!;
    const move = parseIccs(iccs);
    if (!move.ok || !pos.isLegal(move.value)) return undefined;
    const color = pos.turn;
    const wxf = makeWxf(pos, move.value) ?? iccs;
    const zh = makeChinese(pos, move.value) ?? iccs;
    const captured = pos.play(move.value);
    // The mover's time left is known for the last move only (the view's clock).
    const clock = i === view.moves.length - 1 ? view.clock?.[color] : undefined;
    return {
      game: this.game,
      ply: i + 1,
      iccs,
      wxf,
      zh,
      color,
      check: pos.isCheck(),
      capture: captured !== undefined,
      fen: makeFen(pos.toSetup()),
      t: view.times[i] ?? 0,
      ...(clock !== undefined ? { clock } : {}),
    };
  }
}
