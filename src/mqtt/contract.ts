/**
 * The MQTT contract, all of it in one file: every topic the controller publishes or listens to,
 * its payload type, its QoS and whether it is retained, and the zod schemas that check every
 * request. zigbee2mqtt's conventions (`<base>/bridge/state` with a last will, requests on
 * `<base>/bridge/request/<x>` answered on `<base>/bridge/response/<x>`) so users find their way.
 *
 * aedes speaks MQTT 3.1.1: correlation ids (`transaction`) and sequence numbers (`seq`) travel in
 * the JSON payloads, never as MQTT 5 properties.
 */
import { z } from 'zod';
import type { StateDetail, TrackerState } from '../tracker/machine.js';

export type Qos = 0 | 1 | 2;

/** How a topic is published. */
export interface TopicSpec {
  readonly qos: Qos;
  readonly retain: boolean;
}

// ---------------------------------------------------------------------------------------------
// Topics

export const bridgeTopics = (base: string) => ({
  /** Retained `{"state":"online"}`; the last will makes it `{"state":"offline"}`. */
  state: `${base}/bridge/state`,
  /** Retained: version, boards, base topic, request names. */
  info: `${base}/bridge/info`,
  request: (name: string) => `${base}/bridge/request/${name}`,
  requestWildcard: `${base}/bridge/request/#`,
  response: (name: string) => `${base}/bridge/response/${name}`,
});

export const boardTopics = (base: string, board: string) => ({
  availability: `${base}/${board}/availability`,
  move: `${base}/${board}/move`,
  retract: `${base}/${board}/retract`,
  position: `${base}/${board}/position`,
  state: `${base}/${board}/state`,
  alert: `${base}/${board}/alert`,
  alerts: `${base}/${board}/alerts`,
  result: `${base}/${board}/result`,
  pgn: `${base}/${board}/pgn`,
  hint: `${base}/${board}/hint`,
  /**
   * Retained, one topic a ply: the record of move `<ply>` of the game now. A move taken back, and
   * the last game's moves when a new one starts, are cleared (empty retained payload).
   */
  moves: (ply: number) => `${base}/${board}/moves/${ply}`,
  movesWildcard: `${base}/${board}/moves/+`,
});

/** The board topics, as the controller's feed names its messages (`moves`: `moves/<ply>`). */
export type BoardTopic = Exclude<keyof ReturnType<typeof boardTopics>, 'movesWildcard'>;

/** The MQTT topic of a board message (`ply`: the record's, for `moves`). */
export function boardTopicOf(base: string, board: string, topic: BoardTopic, ply?: number): string {
  const topics = boardTopics(base, board);
  return topic === 'moves' ? topics.moves(ply ?? 0) : topics[topic];
}

/** QoS and retain of every board topic: what late viewers need is retained, events are not. */
export const BOARD_TOPIC_SPECS: Readonly<Record<BoardTopic, TopicSpec>> = {
  availability: { qos: 1, retain: true },
  move: { qos: 1, retain: false },
  retract: { qos: 1, retain: false },
  moves: { qos: 1, retain: true },
  position: { qos: 1, retain: true },
  state: { qos: 1, retain: true },
  alert: { qos: 1, retain: false },
  alerts: { qos: 1, retain: true },
  result: { qos: 1, retain: true },
  pgn: { qos: 1, retain: true },
  hint: { qos: 1, retain: false },
};

export const BRIDGE_STATE_SPEC: TopicSpec = { qos: 1, retain: true };
export const BRIDGE_INFO_SPEC: TopicSpec = { qos: 1, retain: true };
export const RESPONSE_SPEC: TopicSpec = { qos: 1, retain: false };
/** WLED subscribes at QoS 0 and keeps nothing: neither do we. */
export const WLED_SPEC: TopicSpec = { qos: 0, retain: false };
export const wledApiTopic = (topic: string): string => `${topic}/api`;
/** WLED publishes `online` / `offline` there (retained, with its last will). */
export const wledStatusTopic = (topic: string): string => `${topic}/status`;

/**
 * The public mirror, `<public>/<board>/…` (`<public>` is `broadcast.publicTopic`, default
 * `<base>/public`): what viewers may see, `broadcast.delayMinutes` late. No requests, responses,
 * alerts or sensor states: a bridge to a public broker forwards `<public>/#` and nothing else.
 * Each move is sent once, retained on its own topic, so a viewer arriving late has the whole game
 * and no message carries the whole game again.
 */
export const publicTopics = (pub: string, board: string) => ({
  /** Retained: the game's id, start position, metadata and result (sent when one of them changes). */
  game: `${pub}/${board}/game`,
  /** Retained, one topic a ply: the move. A move taken back is cleared (empty retained payload). */
  move: (ply: number) => `${pub}/${board}/moves/${ply}`,
  movesWildcard: `${pub}/${board}/moves/+`,
  /** Retained: where the game stands (ply, FEN, side to move, clocks), after every move. */
  status: `${pub}/${board}/status`,
  availability: `${pub}/${board}/availability`,
});

export const PUBLIC_SPEC: TopicSpec = { qos: 1, retain: true };

/** The public base topic of a configuration. */
export const publicBase = (baseTopic: string, publicTopic?: string): string =>
  publicTopic ?? `${baseTopic}/public`;

export interface PublicGamePayload {
  readonly game: string;
  readonly startFen: string;
  readonly meta: BoardMeta;
  readonly status: GameStatus;
  readonly result: string;
  readonly reason: string | null;
  /** The broadcast delay in ms (0: live). */
  readonly delayMs: number;
}

/** A move's record as the live `moves/<ply>` has it, without the live feed's `seq`. */
export type PublicMovePayload = Omit<MoveRecordPayload, 'seq'>;

export interface PublicStatusPayload {
  readonly game: string;
  /** Moves `1..ply` of this game are on `moves/<n>`. */
  readonly ply: number;
  readonly fen: string;
  readonly turn: 'red' | 'black';
  readonly check: boolean;
  readonly lastMove: string | null;
  readonly status: GameStatus;
  readonly result: string;
  readonly clock?: ClockView;
}

/**
 * Home Assistant MQTT discovery (`homeAssistant.enabled`): each board a device, its entities'
 * configs retained under `<prefix>/<component>/xqboard_<board>/<object>/config`, published again
 * when Home Assistant says `online` on `<prefix>/status`. The entities read the live contract's
 * retained topics (`position`, `result`, availability) and press requests (`game/new`, `game/hint`).
 */
export const haTopics = (prefix: string) => ({
  status: `${prefix}/status`,
  config: (component: string, board: string, object: string) =>
    `${prefix}/${component}/xqboard_${board}/${object}/config`,
});
export const HA_CONFIG_SPEC: TopicSpec = { qos: 1, retain: true };

// ---------------------------------------------------------------------------------------------
// Payloads published

export interface BridgeStatePayload {
  readonly state: 'online' | 'offline';
}

export interface BridgeInfoPayload {
  readonly version: string;
  readonly baseTopic: string;
  readonly boards: readonly { readonly id: string; readonly driver: string; readonly sensing: string }[];
  readonly requests: readonly RequestName[];
}

/**
 * Every board message carries `seq`: one counter per board over all its topics, +1 a message.
 * A viewer subscribed to `<base>/<board>/#` that sees a gap missed a message; the retained
 * `position` and `moves/<ply>` then hold the whole game. A message with no room for `seq` (the PGN
 * text, a cleared `moves/<ply>`) takes its number all the same. The counter starts again at 1 when
 * the controller restarts (`bridge/state` goes online again).
 */
export interface Sequenced {
  readonly seq: number;
}

export interface AvailabilityPayload extends Sequenced {
  readonly state: 'online' | 'offline';
  readonly reason?: string;
}

export interface MovePayload extends Sequenced {
  readonly game: string;
  readonly ply: number;
  readonly iccs: string;
  readonly wxf: string;
  readonly zh: string;
  readonly color: 'red' | 'black';
  readonly check: boolean;
  readonly capture: boolean;
  /** FEN after the move. */
  readonly fen: string;
  /** Game time of the move, ms since the game started. */
  readonly t: number;
}

/**
 * A move's record, retained on `moves/<ply>`: the `move` payload, with the mover's time left
 * when a clock runs (known for a move as it is played; for a game resumed, for its last move).
 */
export interface MoveRecordPayload extends MovePayload {
  readonly clock?: number;
}

export interface RetractPayload extends Sequenced {
  readonly game: string;
  /** The ply taken back. */
  readonly ply: number;
  readonly fen: string;
  readonly t: number;
}

export type GameStatus = 'setup' | 'playing' | 'over';

export interface ClockView {
  readonly red: number;
  readonly black: number;
  readonly running: 'red' | 'black' | null;
}

export interface PlayerMeta {
  readonly name: string;
  readonly rating?: number;
  readonly team?: string;
}

/** Event metadata of a board: from the configuration and the arbiters' `event/meta` requests. */
export interface BoardMeta {
  readonly event?: string;
  readonly site?: string;
  readonly round?: string;
  /** The board's number in the round. */
  readonly number?: number;
  readonly red?: PlayerMeta;
  readonly black?: PlayerMeta;
}

/**
 * Where the game stands, retained, after every move: small, whatever the game's length. Its moves
 * are on `moves/<ply>` (1..`ply`), each retained once; the PGN is on `pgn`.
 */
export interface PositionPayload extends Sequenced {
  /** Event, round, board number, players. */
  readonly meta?: BoardMeta;
  readonly game: string;
  readonly startFen: string;
  readonly fen: string;
  readonly ply: number;
  readonly lastMove: string | null;
  readonly turn: 'red' | 'black';
  readonly check: boolean;
  readonly status: GameStatus;
  readonly result: string;
  readonly reason: string | null;
  readonly clock?: ClockView;
}

export interface StatePayload extends Sequenced {
  readonly state: TrackerState;
  readonly detail: StateDetail;
  readonly t: number;
}

export interface AlertPayload extends Sequenced {
  readonly kind: string;
  /** true when raised, false when cleared. */
  readonly active: boolean;
  readonly message?: string;
  readonly reason?: string;
  readonly from?: string;
  readonly to?: string;
  readonly side?: 'red' | 'black';
  readonly legalTargets?: readonly string[];
  readonly corrections?: readonly unknown[];
  /** `ambiguous`: the lines the board still allows (ICCS), and for a dead-sensor doubt: */
  readonly candidates?: readonly (readonly string[])[];
  /** the points whose pieces to lift and set back to tell, */
  readonly check?: readonly string[];
  /** and the point each candidate takes for dead (`game/resolve` names the one played). */
  readonly sensors?: readonly string[];
  readonly t: number;
}

/**
 * The alerts active now (raised on `alert` and not ended), retained: a viewer who joins late sees
 * exactly these, and none that has ended. Sent again whenever the set changes.
 */
export interface AlertsPayload extends Sequenced {
  readonly active: readonly Omit<AlertPayload, 'seq'>[];
}

export interface ResultPayload extends Sequenced {
  readonly game: string;
  /** `*` while the game goes on. */
  readonly result: string;
  readonly reason: string | null;
  readonly detail?: string;
  /** false for an ending the players may still play past (repetition, move limit…). */
  readonly final: boolean;
  readonly ply: number;
}

export interface HintPayload extends Sequenced {
  readonly game: string;
  /** The ply the hint is for (the next one). */
  readonly ply: number;
  readonly iccs: string;
  readonly wxf: string;
  readonly zh: string;
  /** The engine's evaluation for the side to move, in centipawns (a soldier is 100); a forced
   * mate in n moves is ±(30000 − n). */
  readonly score: number;
  /** `hint`: asked for; `engine`: the engine's move in a game against it, to carry out on the board. */
  readonly kind: 'hint' | 'engine';
  /** Moves to mate (negative: the side to move is mated), when the engine sees one. */
  readonly mate?: number;
  /** Depth the engine reached. */
  readonly depth: number;
  /** The engine's name. */
  readonly engine: string;
  /** The move in the three notations, the evaluation (pawns or mate in N) and the depth, in words. */
  readonly message: string;
}

/**
 * The PGN topic carries the PGN text itself (lichess-style relays read it as is). Published when a
 * game is set up, starts or ends, its tags or result change, and again on every reconnect; not
 * after every move (the moves are on `moves/<ply>`, the live PGN over HTTP has every move).
 */
export type PgnPayload = string;

/** Every board topic's payload (the PGN is text, the rest JSON). */
export interface BoardPayloads {
  availability: AvailabilityPayload;
  move: MovePayload;
  retract: RetractPayload;
  /** Empty: the record is cleared (its move was taken back, or a new game started). */
  moves: MoveRecordPayload | '';
  position: PositionPayload;
  state: StatePayload;
  alert: AlertPayload;
  alerts: AlertsPayload;
  result: ResultPayload;
  pgn: PgnPayload;
  hint: HintPayload;
}

// ---------------------------------------------------------------------------------------------
// Requests: `<base>/bridge/request/<name>`, answered on `<base>/bridge/response/<name>`

const transaction = z.union([z.string().max(200), z.number()]).optional();
const boardRef = z.string().min(1).max(64).optional();
const side = z.enum(['red', 'black']);
const playerMeta = z.strictObject({
  name: z.string().min(1).max(100),
  rating: z.int().min(0).max(4000).optional(),
  team: z.string().min(1).max(100).optional(),
});

export const REQUEST_SCHEMAS = {
  /** Ends the current game (unfinished: `*`) and waits for the board to show the new one's position. */
  'game/new': z.strictObject({
    transaction,
    board: boardRef,
    fen: z.string().min(1).max(200).optional(),
    /**
     * Play against the engine: the side it plays and its strength (any of movetimeMs, depth,
     * nodes, skill 0–20); null: nobody plays the engine. It stays for the following games.
     */
    engine: z
      .union([
        z.null(),
        z.strictObject({
          side,
          movetimeMs: z.int().min(10).max(600_000).optional(),
          depth: z.int().min(1).max(64).optional(),
          nodes: z.int().min(1).optional(),
          skill: z.int().min(0).max(20).optional(),
        }),
      ])
      .optional(),
  }),
  /** `side` resigns (default: the side to move). */
  'game/resign': z.strictObject({ transaction, board: boardRef, side: side.optional() }),
  'game/draw': z.strictObject({
    transaction,
    board: boardRef,
    action: z.enum(['offer', 'accept', 'decline']),
    side: side.optional(),
  }),
  /** Changes take effect at once for the game being played. */
  'game/options': z
    .strictObject({
      transaction,
      board: boardRef,
      takebacks: z.boolean().optional(),
      illegalMovePolicy: z.enum(['casual', 'tournament']).optional(),
    })
    .refine((o) => o.takebacks !== undefined || o.illegalMovePolicy !== undefined, {
      message: 'give "takebacks" and/or "illegalMovePolicy"',
    }),
  /**
   * The players say which candidate of a standing dead-sensor doubt (the `ambiguous` alert with
   * `sensors`) was played: its index in the alert's `candidates`. It is recorded, and its point's
   * sensor named, at once. `sensor`, the point the alert's `sensors` gives that candidate, ties
   * the answer to that alert: one meant for a doubt that has since ended is refused (`stale`).
   */
  'game/resolve': z.strictObject({
    transaction,
    board: boardRef,
    candidate: z.int().min(0).max(63),
    sensor: z
      .string()
      .regex(/^[a-i][0-9]$/, 'a point, a0 to i9')
      .optional(),
  }),
  /**
   * The players put the record right: from ply `ply` on, the game was `moves` (ICCS), then the
   * moves recorded after those while still legal (a misread move; one read where a dead sensor
   * hid another). Journaled as takebacks and moves; the board is read against the new record.
   */
  'game/correct': z.strictObject({
    transaction,
    board: boardRef,
    ply: z.int().min(1).max(10_000),
    moves: z
      .array(z.string().regex(/^[a-i][0-9][a-i][0-9]$/, 'an ICCS move like h2e2'))
      .min(1)
      .max(4),
  }),
  /** A suggested move for the side to move, also published on `<base>/<board>/hint`. */
  'game/hint': z.strictObject({ transaction, board: boardRef }),
  /** The game as the `position` topic has it, with its moves (ICCS), for a client that wants it on demand. */
  'game/get': z.strictObject({ transaction, board: boardRef }),
  /**
   * Simulated boards only: plays a move (ICCS, WXF or Chinese) by lifting and placing the pieces
   * as a hand would, or puts the pieces in a position (`reset`: the start; `fen`).
   */
  'board/simulate': z
    .strictObject({
      transaction,
      board: boardRef,
      move: z.string().min(1).max(40).optional(),
      reset: z.boolean().optional(),
      fen: z.string().min(1).max(200).optional(),
    })
    .refine((o) => [o.move, o.reset, o.fen].filter((v) => v !== undefined).length === 1, {
      message: 'give exactly one of "move", "reset" or "fen"',
    }),
  /** Health of every board's sensor source. */
  'bridge/health': z.strictObject({ transaction }),
  /**
   * An arbiter names the event (`event`, `site`, `round`: every board of this controller) or a
   * board's number and players (with `board`, or the only board). `null` removes a player.
   */
  'event/meta': z
    .strictObject({
      transaction,
      board: boardRef,
      event: z.string().min(1).max(200).optional(),
      site: z.string().min(1).max(200).optional(),
      round: z.string().min(1).max(50).optional(),
      number: z.int().min(1).max(10_000).optional(),
      red: playerMeta.nullable().optional(),
      black: playerMeta.nullable().optional(),
    })
    .refine((o) => Object.keys(o).some((k) => k !== 'transaction' && k !== 'board'), {
      message: 'give at least one of "event", "site", "round", "number", "red", "black"',
    }),
} as const;

export type RequestName = keyof typeof REQUEST_SCHEMAS;
export const REQUEST_NAMES = Object.keys(REQUEST_SCHEMAS) as RequestName[];
export type RequestPayload<N extends RequestName> = z.output<(typeof REQUEST_SCHEMAS)[N]>;

export const isRequestName = (name: string): name is RequestName => Object.hasOwn(REQUEST_SCHEMAS, name);

export interface ResponsePayload {
  readonly data: unknown;
  readonly status: 'ok' | 'error';
  readonly error?: string;
  /** What went wrong, for programs: `bad_request`, `no_board`, `game_over`, `wrong_side`… */
  readonly code?: string;
  /** The request's `transaction`, or null when it had none (or could not be read). */
  readonly transaction: string | number | null;
}

/** Checks a request payload: the parsed request, or a message naming what is wrong and where. */
export function parseRequest<N extends RequestName>(
  name: N,
  payload: Uint8Array | string,
):
  | { ok: true; value: RequestPayload<N> }
  | { ok: false; message: string; transaction: string | number | null } {
  // Uint8Array (a Buffer from MQTT): the browser page type-checks this file without Node's types.
  const text = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  let json: unknown;
  if (text.trim() === '') json = {};
  else {
    try {
      json = JSON.parse(text);
    } catch (e) {
      return { ok: false, message: `payload is not JSON: ${(e as Error).message}`, transaction: null };
    }
  }
  const tx =
    typeof json === 'object' &&
    json !== null &&
    'transaction' in json &&
    (typeof json.transaction === 'string' || typeof json.transaction === 'number')
      ? json.transaction
      : null;
  const parsed = REQUEST_SCHEMAS[name].safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data as RequestPayload<N> };
  const message = parsed.error.issues
    .map((i) => {
      const path = i.path.map(String).join('.');
      const keys = i.code === 'unrecognized_keys' ? `: ${i.keys.map((k) => `"${k}"`).join(', ')}` : '';
      return `${path === '' ? 'payload' : `"${path}"`}: ${i.message}${keys}`;
    })
    .join('; ');
  return { ok: false, message, transaction: tx };
}
