/** A board session's game and move-reader options, from the configuration. */
import type { GameConfig, TrackerConfig } from '../config/schema.js';
import type { GameOptions } from '../game/game.js';
import type { IllegalMovePolicy } from '../game/policy.js';
import type { Sensing } from '../sensors/snapshot.js';
import type { TrackerOptions } from '../tracker/machine.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export function trackerOptionsOf(g: GameConfig, t: TrackerConfig, sensing: Sensing): Mutable<TrackerOptions> {
  return {
    sensing,
    bounceMs: t.bounceMs,
    settleMs: t.settleMs,
    outOfSyncMs: t.outOfSyncMs,
    takebacks: g.takebacks,
    foulAfterMs: g.illegalMovePolicy === 'tournament' ? g.foulCorrectionMs : 0,
  };
}

export function gameOptionsOf(g: GameConfig): Mutable<GameOptions> {
  return {
    moveLimit: g.moveLimitPlies,
    policy: policyOf(g.illegalMovePolicy, g.foulCorrectionMs),
    playOn: true,
    ...(g.clock
      ? {
          clock: {
            periods: g.clock.periods.map((p) => ({
              ...(p.moves !== undefined ? { moves: p.moves } : {}),
              ms: Math.round(p.minutes * 60_000),
              incrementMs: Math.round(p.incrementSeconds * 1000),
            })),
            repeatLast: g.clock.repeatLast,
          },
        }
      : {}),
  };
}

export function policyOf(kind: 'casual' | 'tournament', correctionMs: number): IllegalMovePolicy {
  return kind === 'tournament' ? { kind: 'tournament', correctionMs, foulsToLose: 3 } : { kind: 'casual' };
}
