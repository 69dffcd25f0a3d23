/**
 * The bus as the web page sees it: every bus event becomes the MQTT contract's payload for its
 * topic, numbered by a `seq` per board (all topics together, as on MQTT), and the retained ones
 * (availability, position, state, result) plus the alerts still raised are kept for late viewers.
 */
import type { BoardSession } from '../controller/board-session.js';
import type { Bus, GameView } from '../controller/bus.js';
import type { AlertPayload, PositionPayload, ResultPayload } from '../mqtt/contract.js';
import type { BoardSnapshot, WebEvent, WebPayloads, WebTopic } from './events.js';

type Unsequenced<T> = T extends unknown ? Omit<T, 'seq'> : never;

interface Retained {
  availability?: WebPayloads['availability'];
  position?: WebPayloads['position'];
  state?: WebPayloads['state'];
  result?: WebPayloads['result'];
  alerts: Map<string, AlertPayload>;
}

export class WebFeed {
  private readonly seq = new Map<string, number>();
  private readonly retained = new Map<string, Retained>();
  private readonly listeners = new Set<(e: WebEvent) => void>();
  private unsubscribers: (() => void)[] = [];

  constructor(private readonly bus: Bus) {}

  start(): void {
    const { bus } = this;
    this.unsubscribers.push(
      bus.on('board.availability', (e) =>
        this.send(e.board, 'availability', {
          state: e.online ? 'online' : 'offline',
          ...(e.reason ? { reason: e.reason } : {}),
        }),
      ),
      bus.on('game.view', (e) => this.game(e.board, e.view)),
      bus.on('game.move', (e) => {
        this.send(e.board, 'move', { game: e.view.game, ...e.move });
        this.game(e.board, e.view);
      }),
      bus.on('game.retract', (e) => {
        this.send(e.board, 'retract', { game: e.view.game, ply: e.ply, fen: e.view.fen, t: Math.round(e.t) });
        this.game(e.board, e.view);
      }),
      bus.on('game.over', (e) => this.game(e.board, e.view)),
      bus.on('tracker.state', (e) =>
        this.send(e.board, 'state', { state: e.state, detail: e.detail, t: Math.round(e.t) }),
      ),
      bus.on('tracker.alert', (e) =>
        this.send(e.board, 'alert', { ...e.alert, active: true, t: Math.round(e.t) }),
      ),
      bus.on('tracker.alertCleared', (e) =>
        this.send(e.board, 'alert', { kind: e.kind, active: false, t: Math.round(e.t) }),
      ),
      bus.on('game.hint', ({ board, ...hint }) => this.send(board, 'hint', hint)),
    );
  }

  stop(): void {
    for (const u of this.unsubscribers.splice(0)) u();
    this.listeners.clear();
  }

  /** Every event from now on; returns the unsubscribe. */
  subscribe(listener: (e: WebEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The retained events of every board, in the order they were sent, as a late viewer gets them first. */
  retainedEvents(): WebEvent[] {
    const out: WebEvent[] = [];
    for (const [board, r] of this.retained) {
      const mine: WebEvent[] = [];
      if (r.availability) mine.push({ topic: 'availability', board, payload: r.availability });
      if (r.result) mine.push({ topic: 'result', board, payload: r.result });
      if (r.position) mine.push({ topic: 'position', board, payload: r.position });
      if (r.state) mine.push({ topic: 'state', board, payload: r.state });
      for (const a of r.alerts.values()) mine.push({ topic: 'alert', board, payload: a });
      out.push(...mine.sort((a, b) => a.payload.seq - b.payload.seq));
    }
    return out;
  }

  /** A board's snapshot; its position is the session's game now (sequenced as last published). */
  snapshot(session: BoardSession, driver: string, sensing: string): BoardSnapshot {
    const r = this.retained.get(session.id);
    const seq = r?.position?.seq ?? 0;
    return {
      id: session.id,
      driver,
      sensing,
      simulated: session.simulator !== undefined,
      availability: r?.availability ?? null,
      position: { ...positionOf(session.view()), seq },
      state: r?.state ?? null,
      result: r?.result ?? null,
      alerts: [...(r?.alerts.values() ?? [])],
    };
  }

  private game(board: string, view: GameView): void {
    const result = resultOf(view);
    const last = this.retained.get(board)?.result;
    if (
      !last ||
      last.game !== result.game ||
      last.result !== result.result ||
      last.reason !== result.reason ||
      last.final !== result.final
    )
      this.send(board, 'result', result);
    this.send(board, 'position', positionOf(view));
  }

  private send<K extends WebTopic>(board: string, topic: K, body: Unsequenced<WebPayloads[K]>): void {
    const seq = (this.seq.get(board) ?? 0) + 1;
    this.seq.set(board, seq);
    const payload = { ...body, seq } as unknown as WebPayloads[K];
    let r = this.retained.get(board);
    if (!r) {
      r = { alerts: new Map() };
      this.retained.set(board, r);
    }
    // A new game: what the last one left raised is gone with its reader.
    if (topic === 'position' && r.position && r.position.game !== (payload as PositionPayload).game)
      r.alerts.clear();
    switch (topic) {
      case 'availability':
      case 'position':
      case 'state':
      case 'result':
        (r as unknown as Record<string, unknown>)[topic] = payload;
        break;
      case 'alert': {
        const a = payload as AlertPayload;
        if (a.active) r.alerts.set(a.kind, a);
        else r.alerts.delete(a.kind);
        break;
      }
    }
    const event = { topic, board, payload } as WebEvent;
    for (const l of [...this.listeners]) l(event);
  }
}

/** The `position` payload of a game (the MQTT bridge's, field for field). */
export function positionOf(view: GameView): Omit<PositionPayload, 'seq'> {
  return {
    game: view.game,
    startFen: view.startFen,
    fen: view.fen,
    ply: view.ply,
    moves: view.moves,
    lastMove: view.lastMove,
    turn: view.turn,
    check: view.check,
    status: view.status,
    result: view.result,
    reason: view.reason,
    ...(view.clock ? { clock: view.clock } : {}),
  };
}

/** The `result` payload of a game (the MQTT bridge's, field for field). */
export function resultOf(view: GameView): Omit<ResultPayload, 'seq'> {
  return {
    game: view.game,
    result: view.result,
    reason: view.reason,
    ...(view.detail ? { detail: view.detail } : {}),
    final: view.status === 'over' ? view.final : false,
    ply: view.ply,
  };
}
