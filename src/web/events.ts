/**
 * What the web page receives: the MQTT contract's payloads (src/mqtt/contract.ts), each named by
 * its board topic and sent with its board, over Server-Sent Events (`event:` is the topic, `data:`
 * is `{board, payload}`). GET /api/boards gives the retained ones at once, as an MQTT subscriber
 * gets retained messages. Types only: the browser bundle imports them too.
 */
import type {
  AlertPayload,
  AvailabilityPayload,
  HintPayload,
  MovePayload,
  PositionPayload,
  ResultPayload,
  RetractPayload,
  StatePayload,
} from '../mqtt/contract.js';

/** Topic → payload, as `boardTopics` names them (the PGN is left out: the page has the moves). */
export interface WebPayloads {
  availability: AvailabilityPayload;
  move: MovePayload;
  retract: RetractPayload;
  position: PositionPayload;
  state: StatePayload;
  alert: AlertPayload;
  result: ResultPayload;
  hint: HintPayload;
}

export type WebTopic = keyof WebPayloads;

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
  readonly state: StatePayload | null;
  readonly result: ResultPayload | null;
  /** Alerts raised and not cleared yet, by kind. */
  readonly alerts: readonly AlertPayload[];
}

export interface BoardsResponse {
  readonly version: string;
  readonly boards: readonly BoardSnapshot[];
}
