/**
 * What the web page receives: the MQTT contract's payloads (src/mqtt/contract.ts), each named by
 * its board topic and sent with its board, over Server-Sent Events (`event:` is the topic, `data:`
 * is `{board, payload}`). GET /api/boards gives the retained ones at once, as an MQTT subscriber
 * gets retained messages. Types only: the browser bundle imports them too.
 */
import type {
  AlertPayload,
  AvailabilityPayload,
  BoardPayloads,
  BoardTopic,
  PositionPayload,
  ResultPayload,
  StatePayload,
} from '../mqtt/contract.js';

/**
 * The board topics the page gets: all but the PGN and the moves' records (the page keeps its move
 * list from the snapshot and the `move` and `retract` events).
 */
export type WebTopic = Exclude<BoardTopic, 'pgn' | 'moves'>;

/** Topic → payload, as the contract has them. */
export type WebPayloads = { [K in WebTopic]: BoardPayloads[K] };

export type WebEvent = {
  [K in WebTopic]: { readonly topic: K; readonly board: string; readonly payload: WebPayloads[K] };
}[WebTopic];

export const WEB_TOPICS: readonly WebTopic[] = [
  'availability',
  'move',
  'retract',
  'position',
  'state',
  'alert',
  'alerts',
  'result',
  'hint',
];

/** One board as GET /api/boards gives it: its configuration and its retained payloads. */
export interface BoardSnapshot {
  readonly id: string;
  readonly driver: string;
  readonly sensing: string;
  /** The page may play moves on it (POST /api/boards/:id/simulate). */
  readonly simulated: boolean;
  readonly availability: AvailabilityPayload | null;
  readonly position: PositionPayload;
  /** The game's moves (ICCS), 1..`position.ply`. */
  readonly moves: readonly string[];
  readonly state: StatePayload | null;
  readonly result: ResultPayload | null;
  /** Alerts raised and not cleared yet, by kind. */
  readonly alerts: readonly AlertPayload[];
}

export interface BoardsResponse {
  readonly version: string;
  readonly boards: readonly BoardSnapshot[];
}
