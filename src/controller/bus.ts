/**
 * The controller's typed event bus (zigbee2mqtt's pattern): board sessions announce what happens,
 * extensions (MQTT bridge, LEDs, terminal) listen. Delivery is synchronous and in order; a listener
 * that throws is reported and never stops the others, nor the session that emitted.
 */
import type { MovePayload, PositionPayload } from '../mqtt/contract.js';
import type { Alert, StateDetail, TrackerState } from '../tracker/machine.js';

/** An alert as the session announces it: the reader's kinds, and `record_failed` and `storage` of its own. */
export type SessionAlert = Omit<Alert, 'kind'> & { readonly kind: string };

/** The game of one board as everyone shows it: the retained `position` payload, and more. */
export interface GameView extends Omit<PositionPayload, 'seq'> {
  readonly board: string;
  /** The moves (ICCS), as `moves/<ply>` has them one by one. */
  readonly moves: readonly string[];
  /** Game time of each move (ms since the game started). */
  readonly times: readonly number[];
  readonly detail?: string;
  /** The ending may still be played past (repetition, move limit…): not final yet. */
  readonly final: boolean;
  /** The live PGN (ICCS). */
  readonly pgn: string;
}

/** A move as announced: the `move` payload without its game and number. */
export type MoveInfo = Omit<MovePayload, 'seq' | 'game'>;

export interface BusEvents {
  /** The board's link (sensor source) is up or down. */
  'board.availability': { board: string; online: boolean; reason?: string };
  /** A game is tracked: new (the board showed its position) or resumed; also a game waiting for setup. */
  'game.view': { board: string; view: GameView };
  /** A move, durable in the journal before this is emitted. */
  'game.move': { board: string; move: MoveInfo; view: GameView };
  'game.retract': { board: string; ply: number; t: number; view: GameView };
  'game.over': { board: string; view: GameView };
  'tracker.state': { board: string; state: TrackerState; detail: StateDetail; t: number };
  'tracker.alert': { board: string; alert: SessionAlert; t: number };
  'tracker.alertCleared': { board: string; kind: string; t: number };
  /** A hint, or the engine's move to carry out on the board (`kind: 'engine'`, play against the engine). */
  'game.hint': {
    board: string;
    game: string;
    ply: number;
    kind: 'hint' | 'engine';
    iccs: string;
    wxf: string;
    zh: string;
    score: number;
    mate?: number;
    depth: number;
    engine: string;
    message: string;
  };
  /** The sensors changed (the terminal redraws the simulated board). */
  'board.frame': { board: string; t: number };
}

export type BusEventName = keyof BusEvents;
type Listener<K extends BusEventName> = (payload: BusEvents[K]) => void;

export class Bus {
  private readonly listeners = new Map<BusEventName, Set<Listener<never>>>();

  constructor(private readonly onListenerError: (event: string, error: unknown) => void = () => {}) {}

  on<K extends BusEventName>(event: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return () => {
      set.delete(listener as Listener<never>);
    };
  }

  emit<K extends BusEventName>(event: K, payload: BusEvents[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const l of [...set]) {
      try {
        (l as Listener<K>)(payload);
      } catch (e) {
        this.onListenerError(event, e);
      }
    }
  }

  listenerCount(event: BusEventName): number {
    return this.listeners.get(event)?.size ?? 0;
  }
}
