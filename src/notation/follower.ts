/**
 * Names moves as they are played and taken back, in WXF and Chinese: a mirror of the game that
 * follows a stream of move and retract events (several moves may be announced at once).
 */

import type { Move, Position } from '../rules/index.js';
import { makeChinese } from './chinese.js';
import { makeWxf } from './wxf.js';

export interface MoveNames {
  readonly wxf: string | null;
  readonly zh: string | null;
}

export class NotationFollower {
  private readonly pos: Position;

  constructor(start: Position) {
    this.pos = start.clone();
  }

  /** Names `move` in the position before it, then plays it. */
  play(move: Move): MoveNames {
    const names = { wxf: makeWxf(this.pos, move) ?? null, zh: makeChinese(this.pos, move) ?? null };
    this.pos.play(move);
    return names;
  }

  retract(): void {
    this.pos.undo();
  }
}
