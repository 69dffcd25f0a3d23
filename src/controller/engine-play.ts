/**
 * The engine's part of a board session: hints, and play against the engine.
 *
 * A hint is searched on the game as it stands (its start and moves), off the event loop, and
 * cancelled when the board's position changes before the engine answers.
 *
 * Playing against the engine, the engine's move is searched as soon as it is the engine's turn,
 * then lit (from→to) and shown like a hint (`kind: 'engine'`); the player carries it out on the
 * board. The move reader accepts that move only: the session's gate (`refuse`, called by the reader
 * for each move it commits, the path by which the game refuses a move) turns any other move of the
 * engine's side into a refused move, with an alert that names the expected move; the LEDs keep
 * showing it until the board matches.
 */
import { type Strength, strengthSchema } from '../config/schema.js';
import type { EngineEvent } from '../engine/engine.js';
import type { Game } from '../game/game.js';
import { type Color, makeIccs } from '../rules/index.js';
import type { Logger } from '../util/log.js';
import { ok, type Result } from '../util/result.js';
import type { Bus } from './bus.js';
import { type DescribedMove, describeMove, type EngineService } from './hint.js';
import type { SessionCore } from './session-core.js';
import { fail, type SessionError } from './simulate.js';

export interface Opponent {
  readonly side: Color;
  readonly strength: Strength;
}

export interface HintAnswer extends DescribedMove {
  readonly ply: number;
}

/** Wait before the engine is asked again for its move after a failure. */
const RETRY_MS = 2000;
const RETRIES = 5;

const GAME_EVENTS = ['game.move', 'game.retract', 'game.view', 'game.over'] as const;

export class EnginePlay {
  private opponentNow: Opponent | undefined;
  /** The engine's move the board must show next (play against the engine). */
  private expected: { game: Game; ply: number; move: DescribedMove } | undefined;
  private thinking: { game: Game; ply: number; abort: AbortController } | undefined;
  private readonly hints = new Set<AbortController>();
  /** Failed searches for the engine's move in a row. */
  private failures = 0;
  private readonly off: (() => void)[] = [];

  constructor(
    private readonly o: {
      readonly board: string;
      readonly bus: Bus;
      readonly core: SessionCore;
      readonly logger: Logger;
      readonly engine: EngineService;
      readonly hintStrength: Strength;
    },
    opponent: Opponent | undefined,
  ) {
    this.opponentNow = opponent;
  }

  start(): void {
    if (this.off.length > 0) return;
    for (const name of GAME_EVENTS) {
      this.off.push(
        this.o.bus.on(name, (e) => {
          if (e.board !== this.o.board) return;
          // The position changed: a hint being searched is for a position gone.
          for (const h of this.hints) h.abort();
          this.update();
        }),
      );
    }
    this.off.push(this.o.engine.onEvent((e) => this.engineEvent(e)));
    this.update();
  }

  stop(): void {
    for (const u of this.off.splice(0)) u();
    this.thinking?.abort.abort();
    this.thinking = undefined;
    for (const h of this.hints) h.abort();
  }

  get opponent(): Opponent | undefined {
    return this.opponentNow;
  }

  /** The side the engine plays from the next game on (undefined: nobody). */
  setOpponent(opponent: Opponent | undefined): void {
    this.opponentNow = opponent;
    this.thinking?.abort.abort();
    this.thinking = undefined;
    this.expected = undefined;
  }

  /** The side and strength of a resumed game's `EngineSide` and `EngineStrength` tags, if it has them. */
  resumeFrom(meta: Readonly<Record<string, string>>): void {
    const side = meta.EngineSide;
    if (side !== 'red' && side !== 'black') return;
    const pairs = (meta.EngineStrength ?? '').split(',').map((p) => p.split('='));
    const strength = strengthSchema.safeParse(
      Object.fromEntries(pairs.filter((p) => p.length === 2).map(([k, v]) => [k, Number(v)])),
    );
    this.setOpponent({ side, strength: strength.success ? strength.data : {} });
  }

  /** PGN tags naming the engine as the side it plays, and (for a resumed game) its side and strength. */
  tags(): Record<string, string> {
    const o = this.opponentNow;
    if (!o) return {};
    const s = o.strength;
    const strength = Object.entries(s)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const how = [
      s.movetimeMs !== undefined ? `${s.movetimeMs} ms` : undefined,
      s.depth !== undefined ? `depth ${s.depth}` : undefined,
      s.nodes !== undefined ? `${s.nodes} nodes` : undefined,
      s.skill !== undefined ? `skill ${s.skill}` : undefined,
    ].filter((x) => x !== undefined);
    const name = `${this.o.engine.name}${how.length > 0 ? ` (${how.join(', ')})` : ''}`;
    return { [o.side === 'red' ? 'Red' : 'Black']: name, EngineSide: o.side, EngineStrength: strength };
  }

  /** The gate: why the move about to be committed is refused, or undefined to let it through. */
  refuse(game: Game, move: { from: number; to: number }): string | undefined {
    const o = this.opponentNow;
    if (!o || game !== this.o.core.game || game.turn !== o.side || game.isOver) return undefined;
    const played = makeIccs(move);
    const e = this.expected;
    if (!e || e.game !== game || e.ply !== game.moves.length) {
      return `the engine (${o.side}) is still thinking: put ${played} back and wait for its move`;
    }
    if (played === e.move.iccs) return undefined;
    return `${played} is not the engine's move: play ${e.move.iccs} (${e.move.wxf} ${e.move.zh}) for ${o.side}`;
  }

  /** The engine's move the board must show next, if it is known. */
  get expectedMove(): DescribedMove | undefined {
    const e = this.expected;
    return e && e.game === this.o.core.game && e.ply === e.game.moves.length ? e.move : undefined;
  }

  /** A hint for the side to move (cancelled if the position changes first). */
  async hint(): Promise<Result<HintAnswer, SessionError>> {
    const core = this.o.core;
    if (core.phase === 'over' || core.game.isOver) return fail('game_over', 'the game is over');
    const game = core.game;
    const gameId = core.gameId;
    const ply = game.moves.length;
    const abort = new AbortController();
    this.hints.add(abort);
    try {
      const r = await this.o.engine.searchGame(game, this.o.hintStrength, abort.signal);
      if (abort.signal.aborted || core.game !== game || game.moves.length !== ply) {
        return fail('game', 'the position changed while the engine was thinking: ask again');
      }
      const d = describeMove(game.position, r, this.o.engine.name);
      if (!d) return fail('no_game', 'the side to move has no legal move');
      this.o.core.alerts.clear('engine', core.now());
      this.o.bus.emit('game.hint', { board: this.o.board, game: gameId, ply: ply + 1, kind: 'hint', ...d });
      return ok({ ...d, ply: ply + 1 });
    } catch (e) {
      return fail('engine', (e as Error).message);
    } finally {
      this.hints.delete(abort);
    }
  }

  /** After any change of the game: the engine's turn starts its search, anything else ends it. */
  private update(): void {
    const core = this.o.core;
    const o = this.opponentNow;
    const game = core.game;
    const ply = game.moves.length;
    const due = o !== undefined && core.phase === 'playing' && !game.isOver && game.turn === o.side;
    const t = this.thinking;
    if (t && (!due || t.game !== game || t.ply !== ply)) {
      t.abort.abort();
      this.thinking = undefined;
    }
    if (this.expected && (this.expected.game !== game || this.expected.ply !== ply)) {
      this.expected = undefined;
      this.o.core.alerts.clear('move_rejected', core.now());
    }
    if (!due || this.thinking || this.expected) return;
    const abort = new AbortController();
    this.thinking = { game, ply, abort };
    const gameId = core.gameId;
    this.o.engine.searchGame(game, o.strength, abort.signal).then(
      (r) => {
        if (this.thinking?.abort !== abort) return;
        this.thinking = undefined;
        if (abort.signal.aborted || core.game !== game || game.moves.length !== ply) return;
        const d = describeMove(game.position, r, this.o.engine.name);
        if (!d) {
          this.alert(`the engine found no move for ${o.side}${r.move ? ` (it answered ${r.move})` : ''}`);
          return;
        }
        this.o.core.alerts.clear('engine', core.now());
        this.failures = 0;
        this.expected = { game, ply, move: d };
        this.o.logger.info(`board ${this.o.board}: the engine plays ${d.message}`);
        this.o.bus.emit('game.hint', {
          board: this.o.board,
          game: gameId,
          ply: ply + 1,
          kind: 'engine',
          ...d,
        });
      },
      (e: Error) => {
        if (this.thinking?.abort !== abort) return;
        this.thinking = undefined;
        this.failures++;
        const again = this.failures < RETRIES;
        this.alert(`the engine could not move: ${e.message}${again ? '; asking it again' : ''}`);
        // The player waits for the engine's move: it is asked again (a new process if it died).
        if (again) {
          const retry = setTimeout(() => this.update(), RETRY_MS);
          this.off.push(() => clearTimeout(retry));
        }
      },
    );
  }

  private engineEvent(e: EngineEvent): void {
    if (e.type === 'started') {
      this.o.logger.info(`engine ${e.name} started in ${e.ms.toFixed(0)} ms`);
      // Running again (restarted after a crash or a timeout): the alert has ended.
      this.o.core.alerts.clear('engine', this.o.core.now());
      return;
    }
    this.alert(e.message);
  }

  private alert(message: string): void {
    this.o.logger.warn(`board ${this.o.board}: ${message}`);
    this.o.core.alerts.raise({ kind: 'engine', message }, this.o.core.now());
  }
}
