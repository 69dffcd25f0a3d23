/**
 * The one retained feed of the controller: every board message of the MQTT contract made from the
 * bus, numbered by one `seq` per board, with the current state of each board kept for late viewers
 * (availability, position, state, result, PGN, the set of active alerts on `alerts`, and the record
 * of each move of the game on `moves/<ply>`). The MQTT bridge and the web page's event stream both
 * read it, so they carry the same messages with the same numbers.
 */
import type { AlertPayload, BoardPayloads, BoardTopic } from '../mqtt/contract.js';
import { followBus, type Unsequenced } from '../mqtt/payloads.js';
import type { Bus } from './bus.js';

export type FeedMessage = {
  [K in BoardTopic]: {
    readonly topic: K;
    readonly board: string;
    readonly seq: number;
    readonly payload: BoardPayloads[K];
    /** `moves`: the ply of the record (an empty payload clears it). */
    readonly ply?: number;
    /** Board state not published on MQTT (the PGN after a move, see `BoardMessage`); it takes no number. */
    readonly held?: boolean;
  };
}[BoardTopic];

type RetainedTopic = 'availability' | 'position' | 'state' | 'result' | 'pgn' | 'alerts';
const RETAINED: readonly BoardTopic[] = [
  'availability',
  'result',
  'position',
  'state',
  'pgn',
  'alerts',
  'moves',
];

/**
 * Keeps `m` in a board's retained messages if its topic is one of `topics`: by topic, a record by its
 * ply (`moves/<ply>`); a cleared record is dropped. The live feed and the delayed one both keep so.
 */
export function retain(retained: Map<string, FeedMessage>, m: FeedMessage, topics: readonly string[]): void {
  if (!topics.includes(m.topic)) return;
  if (m.topic !== 'moves') retained.set(m.topic, m);
  else if (m.payload === '') retained.delete(`moves/${m.ply}`);
  else retained.set(`moves/${m.ply}`, m);
}

interface BoardState {
  seq: number;
  readonly retained: Map<string, FeedMessage>;
  readonly alerts: Map<string, Omit<AlertPayload, 'seq'>>;
}

/** Adds a listener to a set; returns the unsubscribe. */
export function subscribeTo<T>(listeners: Set<T>, listener: T): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The retained messages of one board, or all, each board's in the order they were sent. */
export function retainedOf<B>(
  boards: ReadonlyMap<string, B>,
  messages: (b: B) => Iterable<FeedMessage>,
  board?: string,
): FeedMessage[] {
  const out: FeedMessage[] = [];
  for (const [id, b] of boards) {
    if (board === undefined || id === board) out.push(...[...messages(b)].sort((x, y) => x.seq - y.seq));
  }
  return out;
}

export class BoardFeed {
  private readonly boards = new Map<string, BoardState>();
  private readonly listeners = new Set<(m: FeedMessage) => void>();
  private unfollow: (() => void) | undefined;

  constructor(private readonly bus: Bus) {}

  start(): void {
    if (this.unfollow) return;
    this.unfollow = followBus(this.bus, (m) => {
      this.send(m.board, m.topic, m.body, m.ply, m.held);
      if (m.topic === 'alert') this.alertChanged(m.board, m.body as Omit<AlertPayload, 'seq'>);
      // A board's game has a retained set of alerts from the start, empty or not.
      else if (m.topic === 'position' && !this.board(m.board).retained.has('alerts')) {
        this.send(m.board, 'alerts', { active: [] });
      }
    });
  }

  stop(): void {
    this.unfollow?.();
    this.unfollow = undefined;
  }

  /** Every message from now on; returns the unsubscribe. */
  subscribe(listener: (m: FeedMessage) => void): () => void {
    return subscribeTo(this.listeners, listener);
  }

  /** The retained messages (of one board, or all), in the order they were sent. */
  retained(board?: string): FeedMessage[] {
    return retainedOf(this.boards, (b) => b.retained.values(), board);
  }

  /** A board's last retained payload of a topic. */
  last<K extends RetainedTopic>(board: string, topic: K): BoardPayloads[K] | undefined {
    return this.boards.get(board)?.retained.get(topic)?.payload as BoardPayloads[K] | undefined;
  }

  /** The alerts of a board active now. */
  activeAlerts(board: string): AlertPayload[] {
    return (this.last(board, 'alerts')?.active ?? []).map((a) => ({
      ...a,
      seq: this.seqOf(board, 'alerts'),
    }));
  }

  seqOf(board: string, topic: RetainedTopic): number {
    return this.boards.get(board)?.retained.get(topic)?.seq ?? 0;
  }

  private board(id: string): BoardState {
    let b = this.boards.get(id);
    if (!b) {
      b = { seq: 0, retained: new Map(), alerts: new Map() };
      this.boards.set(id, b);
    }
    return b;
  }

  private alertChanged(board: string, alert: Omit<AlertPayload, 'seq'>): void {
    const b = this.board(board);
    if (alert.active) b.alerts.set(alert.kind, alert);
    else b.alerts.delete(alert.kind);
    this.send(board, 'alerts', { active: [...b.alerts.values()] });
  }

  private send<K extends BoardTopic>(
    board: string,
    topic: K,
    body: Unsequenced<BoardPayloads[K]>,
    ply?: number,
    held?: boolean,
  ): void {
    const b = this.board(board);
    // A held message is not published: it takes no number (a viewer would see a gap).
    const seq = held ? b.seq : ++b.seq;
    const payload = (typeof body === 'string' ? body : { ...(body as object), seq }) as BoardPayloads[K];
    const message = {
      topic,
      board,
      seq,
      payload,
      ...(ply !== undefined ? { ply } : {}),
      ...(held ? { held } : {}),
    } as FeedMessage;
    retain(b.retained, message, RETAINED);
    for (const l of [...this.listeners]) l(message);
  }
}
