/**
 * The public MQTT mirror (`<public>/<board>/…`, see `publicTopics` in the contract), made from the
 * delayed feed: each move once, retained on its own topic (the live feed's record of it, made by
 * src/mqtt/move-record.ts); the game (id, start, metadata, result) retained when it changes; where
 * the game stands (ply, FEN, clocks) after every move. Whatever the broker lost (a restart) is
 * published again on every reconnect, as the public has it now.
 */
import type { Extension, MqttPublisher } from '../controller/extension.js';
import type { FeedMessage } from '../controller/feed.js';
import {
  type MoveRecordPayload,
  type PositionPayload,
  PUBLIC_SPEC,
  type PublicGamePayload,
  type PublicStatusPayload,
  publicTopics,
} from '../mqtt/contract.js';
import { publicRecord } from '../mqtt/move-record.js';
import type { DelayedFeed } from './delay.js';

interface BoardState {
  gameText: string;
  statusText: string;
  availabilityText: string;
}

/** A record as the public has it: without `seq`; empty, cleared. */
const recordText = (payload: MoveRecordPayload | ''): string =>
  payload === '' ? '' : JSON.stringify(publicRecord(payload));

export class PublicMirror implements Extension {
  readonly name = 'public-mirror';
  private readonly boards = new Map<string, BoardState>();
  private off: (() => void)[] = [];

  constructor(
    private readonly feed: DelayedFeed,
    private readonly mqtt: MqttPublisher & { onConnected(listener: () => void): () => void },
    private readonly base: string,
  ) {}

  async start(): Promise<void> {
    for (const m of this.feed.retained()) this.take(m);
    this.off.push(this.feed.subscribe((m) => this.take(m)));
    this.off.push(this.mqtt.onConnected(() => this.republish()));
  }

  async stop(): Promise<void> {
    for (const u of this.off.splice(0)) u();
  }

  private board(id: string): BoardState {
    let b = this.boards.get(id);
    if (!b) {
      b = { gameText: '', statusText: '', availabilityText: '' };
      this.boards.set(id, b);
    }
    return b;
  }

  private send(topic: string, text: string): void {
    this.mqtt.publish(topic, text, PUBLIC_SPEC);
  }

  private take(m: FeedMessage): void {
    const b = this.board(m.board);
    const topics = publicTopics(this.base, m.board);
    if (m.topic === 'availability') {
      const { seq: _, ...rest } = m.payload;
      b.availabilityText = JSON.stringify(rest);
      this.send(topics.availability, b.availabilityText);
    } else if (m.topic === 'moves' && m.ply !== undefined) {
      // The live feed's records (src/mqtt/move-record.ts), cleared ones too, as they come.
      this.send(topics.move(m.ply), recordText(m.payload));
    } else if (m.topic === 'position') this.position(m.board, b, m.payload);
  }

  private position(id: string, b: BoardState, p: PositionPayload): void {
    const topics = publicTopics(this.base, id);
    const game: PublicGamePayload = {
      game: p.game,
      startFen: p.startFen,
      meta: p.meta ?? {},
      status: p.status,
      result: p.result,
      reason: p.reason,
      delayMs: this.feed.delayMs,
    };
    const gameText = JSON.stringify(game);
    if (gameText !== b.gameText) {
      b.gameText = gameText;
      this.send(topics.game, gameText);
    }
    const status: PublicStatusPayload = {
      game: p.game,
      ply: p.ply,
      fen: p.fen,
      turn: p.turn,
      check: p.check,
      lastMove: p.lastMove,
      status: p.status,
      result: p.result,
      ...(p.clock ? { clock: p.clock } : {}),
    };
    const statusText = JSON.stringify(status);
    if (statusText !== b.statusText) {
      b.statusText = statusText;
      this.send(topics.status, statusText);
    }
  }

  /** Everything retained again (the broker may have restarted and lost it). */
  private republish(): void {
    for (const [id, b] of this.boards) {
      const topics = publicTopics(this.base, id);
      if (b.availabilityText) this.send(topics.availability, b.availabilityText);
      if (b.gameText) this.send(topics.game, b.gameText);
      for (const m of this.feed.retained(id)) {
        if (m.topic === 'moves' && m.ply !== undefined) this.send(topics.move(m.ply), recordText(m.payload));
      }
      if (b.statusText) this.send(topics.status, b.statusText);
    }
  }
}
