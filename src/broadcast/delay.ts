/**
 * The broadcast delay: the public part of the controller's feed (availability, moves and their
 * records, takebacks, positions, results, PGN; never alerts, sensor states or hints), each message
 * handed on `delayMs` after the live feed had it, in order, with the retained state as the public
 * may see it now. The public MQTT mirror, the live PGN and the viewer page read this; arbiters and the boards
 * read the live feed.
 */
import { type BoardFeed, type FeedMessage, retain, retainedOf, subscribeTo } from '../controller/feed.js';
import type { BoardPayloads, BoardTopic } from '../mqtt/contract.js';

export const PUBLIC_FEED_TOPICS: readonly BoardTopic[] = [
  'availability',
  'move',
  'moves',
  'retract',
  'position',
  'result',
  'pgn',
];
type Retained = 'availability' | 'position' | 'result' | 'pgn';
const RETAINED: readonly BoardTopic[] = ['availability', 'position', 'result', 'pgn', 'moves'];

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

const systemTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  now: () => performance.now(),
};

export class DelayedFeed {
  private readonly queue: { due: number; m: FeedMessage }[] = [];
  private head = 0;
  private timer: unknown;
  private readonly state = new Map<string, Map<string, FeedMessage>>();
  private readonly listeners = new Set<(m: FeedMessage) => void>();
  private unfollow: (() => void) | undefined;

  constructor(
    private readonly live: BoardFeed,
    readonly delayMs: number,
    private readonly timers: Timers = systemTimers,
  ) {}

  start(): void {
    if (this.unfollow) return;
    // What the live feed already holds goes out as if it had just come.
    for (const m of this.live.retained()) this.take(m);
    this.unfollow = this.live.subscribe((m) => this.take(m));
  }

  stop(): void {
    this.unfollow?.();
    this.unfollow = undefined;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  subscribe(listener: (m: FeedMessage) => void): () => void {
    return subscribeTo(this.listeners, listener);
  }

  /** The retained public messages as the public sees them now (of one board, or all). */
  retained(board?: string): FeedMessage[] {
    return retainedOf(this.state, (b) => b.values(), board);
  }

  last<K extends Retained>(board: string, topic: K): BoardPayloads[K] | undefined {
    return this.state.get(board)?.get(topic)?.payload as BoardPayloads[K] | undefined;
  }

  /** The boards the public has seen. */
  boards(): string[] {
    return [...this.state.keys()];
  }

  /** Messages still held back. */
  get pending(): number {
    return this.queue.length - this.head;
  }

  private take(m: FeedMessage): void {
    if (!PUBLIC_FEED_TOPICS.includes(m.topic)) return;
    if (this.delayMs <= 0) {
      this.deliver(m);
      return;
    }
    this.queue.push({ due: this.timers.now() + this.delayMs, m });
    if (this.timer === undefined) this.schedule();
  }

  private schedule(): void {
    const next = this.queue[this.head];
    if (!next) {
      this.queue.length = 0;
      this.head = 0;
      return;
    }
    this.timer = this.timers.setTimeout(
      () => {
        this.timer = undefined;
        const now = this.timers.now();
        while (this.head < this.queue.length && this.queue[this.head]!.due <= now) {
          this.deliver(this.queue[this.head++]!.m);
        }
        // Compact now and then: the queue holds at most `delayMs` of messages.
        if (this.head > 1024 && this.head * 2 > this.queue.length) {
          this.queue.splice(0, this.head);
          this.head = 0;
        }
        this.schedule();
      },
      Math.max(0, next.due - this.timers.now()),
    );
  }

  private deliver(m: FeedMessage): void {
    let b = this.state.get(m.board);
    if (!b) {
      b = new Map();
      this.state.set(m.board, b);
    }
    retain(b, m, RETAINED);
    for (const l of [...this.listeners]) l(m);
  }
}
