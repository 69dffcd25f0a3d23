/**
 * The public MQTT mirror (`<public>/<board>/…`, see `publicTopics` in the contract), made from the
 * delayed feed: each move once, retained on its own topic; the game (id, start, metadata, result)
 * retained when it changes; where the game stands (ply, FEN, clocks) after every move. Whatever
 * the broker lost (a restart) is published again on every reconnect, as the public has it now.
 */
import type { ControllerContext, Extension, MqttPublisher } from '../controller/extension.js';
import type { FeedMessage } from '../controller/feed.js';
import {
  type MovePayload,
  type PositionPayload,
  PUBLIC_SPEC,
  type PublicGamePayload,
  type PublicMovePayload,
  type PublicStatusPayload,
  publicTopics,
} from '../mqtt/contract.js';
import { makeChinese, makeWxf } from '../notation/index.js';
import { makeFen } from '../rules/fen.js';
import { parseIccs } from '../rules/iccs.js';
import { Position } from '../rules/position.js';
import type { DelayedFeed } from './delay.js';

interface BoardState {
  game: string;
  startFen: string;
  moves: PublicMovePayload[];
  /** The position after `moves`. */
  pos: Position | undefined;
  gameText: string;
  statusText: string;
  availabilityText: string;
  /** The last `move` message, to take its time and notation. */
  lastMove: MovePayload | undefined;
}

export class PublicMirror implements Extension {
  readonly name = 'public-mirror';
  private readonly boards = new Map<string, BoardState>();
  private off: (() => void)[] = [];

  constructor(
    private readonly context: ControllerContext,
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
      b = {
        game: '',
        startFen: '',
        moves: [],
        pos: undefined,
        gameText: '',
        statusText: '',
        availabilityText: '',
        lastMove: undefined,
      };
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
    } else if (m.topic === 'move') b.lastMove = m.payload;
    else if (m.topic === 'position') this.position(m.board, b, m.payload);
  }

  private position(id: string, b: BoardState, p: PositionPayload): void {
    const topics = publicTopics(this.base, id);
    if (p.game !== b.game) {
      // A new game: the last one's moves are cleared (each move carries its game id anyway).
      for (let ply = b.moves.length; ply >= 1; ply--) this.send(topics.move(ply), '');
      Object.assign(b, { game: p.game, startFen: p.startFen, moves: [], pos: undefined });
    }
    let common = 0;
    while (common < b.moves.length && common < p.moves.length && b.moves[common]!.iccs === p.moves[common])
      common++;
    if (common < b.moves.length) {
      for (let ply = b.moves.length; ply > common; ply--) this.send(topics.move(ply), '');
      b.moves.length = common;
      b.pos = undefined;
    }
    if (!b.pos) {
      const start = Position.fromFen(b.startFen);
      b.pos = start.ok ? start.value : undefined;
      for (const m of b.moves) {
        const mv = parseIccs(m.iccs);
        if (mv.ok) b.pos?.play(mv.value);
      }
    }
    for (let i = common; i < p.moves.length; i++) {
      const entry = this.moveEntry(id, b, p, i);
      if (!entry) break;
      b.moves.push(entry);
      this.send(topics.move(entry.ply), JSON.stringify(entry));
    }
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
      ply: b.moves.length,
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

  /** Move `i` (0-based) of the position: the `move` message's when it is that move, else made here. */
  private moveEntry(id: string, b: BoardState, p: PositionPayload, i: number): PublicMovePayload | undefined {
    const iccs = p.moves[i]!;
    const move = parseIccs(iccs);
    const pos = b.pos;
    if (!move.ok || !pos?.isLegal(move.value)) {
      this.context.logger.warn(`public mirror: board ${id}: ply ${i + 1} '${iccs}' does not follow`);
      return undefined;
    }
    const color = pos.turn;
    const wxf = makeWxf(pos, move.value) ?? iccs;
    const zh = makeChinese(pos, move.value) ?? iccs;
    const captured = pos.play(move.value);
    const last = b.lastMove;
    const known = last && last.game === p.game && last.ply === i + 1 && last.iccs === iccs ? last : undefined;
    const clock = i === p.moves.length - 1 && p.clock ? p.clock[color] : undefined;
    return {
      game: p.game,
      ply: i + 1,
      iccs,
      wxf,
      zh,
      color,
      check: pos.isCheck(),
      capture: captured !== undefined,
      fen: makeFen(pos.toSetup()),
      ...(known ? { t: known.t } : {}),
      ...(clock !== undefined ? { clock } : {}),
    };
  }

  /** Everything retained again (the broker may have restarted and lost it). */
  private republish(): void {
    for (const [id, b] of this.boards) {
      const topics = publicTopics(this.base, id);
      if (b.availabilityText) this.send(topics.availability, b.availabilityText);
      if (b.gameText) this.send(topics.game, b.gameText);
      for (const m of b.moves) this.send(topics.move(m.ply), JSON.stringify(m));
      if (b.statusText) this.send(topics.status, b.statusText);
    }
  }
}
