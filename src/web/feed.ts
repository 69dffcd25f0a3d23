/**
 * The bus as the web page sees it: every bus event becomes the MQTT contract's payload for its
 * topic, numbered by a `seq` per board (all topics together, as on MQTT), and the retained ones
 * (availability, position, state, result) plus the alerts still raised are kept for late viewers.
 */
import type { BoardSession } from '../controller/board-session.js';
import type { Bus } from '../controller/bus.js';
import type { AlertPayload, PositionPayload } from '../mqtt/contract.js';
import { followBus, positionPayload, type Unsequenced } from '../mqtt/payloads.js';
import type { BoardSnapshot, WebEvent, WebPayloads, WebTopic } from './events.js';

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
    // The page has the moves: it needs no PGN.
    this.unsubscribers.push(
      followBus(this.bus, (m) => {
        if (m.topic !== 'pgn')
          this.send(m.board, m.topic, m.body as Unsequenced<WebPayloads[typeof m.topic]>);
      }),
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
      position: { ...positionPayload(session.view()), seq },
      state: r?.state ?? null,
      result: r?.result ?? null,
      alerts: [...(r?.alerts.values() ?? [])],
    };
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
