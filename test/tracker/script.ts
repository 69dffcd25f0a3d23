/** A board in a test: pieces lifted and placed by hand, on a clock the test moves. */
import { Game, type GameOptions } from '../../src/game/game.js';
import { type Color, type Position, parseSquare } from '../../src/rules/index.js';
import type { Sensing } from '../../src/sensors/snapshot.js';
import type { MoveRecord } from '../../src/tracker/game-port.js';
import {
  DEFAULT_TRACKER_OPTIONS,
  type TrackerEmitted,
  type TrackerOptions,
} from '../../src/tracker/machine.js';
import { expectedCells } from '../../src/tracker/reader.js';
import { Tracker } from '../../src/tracker/tracker.js';
import { ManualClock } from '../../src/util/clock.js';

const at = (name: string): number => {
  const sq = parseSquare(name);
  if (sq === undefined) throw new Error(`bad square ${name}`);
  return sq;
};

export class BoardScript {
  readonly clock = new ManualClock(0);
  readonly tracker: Tracker;
  readonly events: TrackerEmitted[] = [];
  private cells: string[];
  private hand: string[] = [];
  private losing = false;
  private sentAt = 0;
  private lostSince: number | undefined;

  constructor(
    readonly game: Game,
    readonly sensing: Sensing = 'occupancy',
    options: Partial<Omit<TrackerOptions, 'sensing'>> = {},
    initial?: string,
    record?: MoveRecord,
  ) {
    this.tracker = new Tracker(game, { ...DEFAULT_TRACKER_OPTIONS, ...options, sensing }, this.clock, record);
    this.tracker.subscribe((e) => this.events.push(e));
    this.tracker.start();
    this.cells = [...(initial ?? expectedCells(game.position, sensing))];
    this.send();
  }

  /** A game whose board is already set up and started. */
  static of(
    fen?: string,
    sensing: Sensing = 'occupancy',
    options: Partial<Omit<TrackerOptions, 'sensing'>> = {},
    game: GameOptions = {},
  ): BoardScript {
    const g = Game.start(fen, game);
    if (!g.ok) throw new Error(g.error.message);
    const script = new BoardScript(g.value, sensing, options);
    script.wait(1000);
    return script;
  }

  get position(): Position {
    return this.game.position;
  }

  private send(): void {
    if (this.losing) {
      this.lostSince ??= this.sentAt;
      return;
    }
    const since = this.lostSince;
    this.lostSince = undefined;
    this.sentAt = this.clock.now();
    this.tracker.send({
      type: 'snapshot',
      t: this.sentAt,
      cells: this.cells.join(''),
      ...(since !== undefined ? { since } : {}),
    });
  }

  /**
   * What `steps` do to the board, its frames lost on the link: the next frame sent (a heartbeat,
   * say) says so, as the serial driver does when the board's sequence numbers jump.
   */
  lost(steps: (b: this) => void): this {
    this.losing = true;
    try {
      steps(this);
    } finally {
      this.losing = false;
    }
    return this;
  }

  wait(ms: number): this {
    this.clock.advance(ms);
    return this;
  }

  lift(square: string, after = 0): this {
    this.wait(after);
    const sq = at(square);
    const cell = this.cells[sq]!;
    if (cell === '.') throw new Error(`nothing to lift on ${square}`);
    this.hand.push(cell);
    this.cells[sq] = '.';
    this.send();
    return this;
  }

  /** Sets down the piece lifted last (or a given reading: 'x', 'r', 'b'). */
  place(square: string, after = 0, cell?: string): this {
    this.wait(after);
    const sq = at(square);
    const piece = cell ?? this.hand.pop();
    if (!piece) throw new Error('nothing in the hand');
    this.cells[sq] = piece;
    this.send();
    return this;
  }

  /** Lifts, then places after a hover. */
  move(from: string, to: string, hover = 200): this {
    return this.lift(from).place(to, hover);
  }

  /** The capturer and the captured swapped within one scan: only `from` changes reading. */
  swapCapture(from: string, to: string, hover = 300): this {
    this.lift(from);
    this.wait(hover);
    this.cells[at(to)] = this.hand.pop()!;
    this.send();
    return this;
  }

  /** One reading flickers for `ms`. */
  flicker(square: string, ms = 10): this {
    const sq = at(square);
    const steady = this.cells[sq]!;
    this.cells[sq] = steady === '.' ? 'x' : '.';
    this.send();
    this.wait(ms);
    this.cells[sq] = steady;
    this.send();
    return this;
  }

  /** The board's heartbeat: the same reading again. */
  heartbeat(): this {
    this.send();
    return this;
  }

  press(side: Color): this {
    this.tracker.send({ type: 'button', t: this.clock.now(), side });
    return this;
  }

  moves(): string[] {
    return this.game.moves.map((m) => m.iccs);
  }

  of<T extends TrackerEmitted['type']>(type: T): Extract<TrackerEmitted, { type: T }>[] {
    return this.events.filter((e): e is Extract<TrackerEmitted, { type: T }> => e.type === type);
  }

  lastState(): string | undefined {
    return this.of('state').at(-1)?.state;
  }
}
