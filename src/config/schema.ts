/**
 * The controller's configuration: what `config/*.yaml` may say, with its defaults. Every object
 * is strict (an unknown key is an error, so a typo never passes silently). With no file at all
 * the defaults run one simulated board with the embedded MQTT broker and the web page.
 */
import { z } from 'zod';
import { parseFen } from '../rules/index.js';
import { LOG_LEVELS } from '../util/log-level.js';

const sensing = z.enum(['occupancy', 'colour']);
const port = z.int().min(1).max(65535);
/** Milliseconds: Node's timers take at most 2^31 - 1 (about 24.8 days); more would fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
const ms = z.int().min(0).max(MAX_TIMER_MS, `at most ${MAX_TIMER_MS} ms (about 24.8 days)`);

/** Used in MQTT topics and file names: no `/`, `+`, `#` or spaces. */
const boardId = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
    'must be 1–64 letters, digits, "-" or "_", starting with a letter or digit',
  );

const fenOrEmpty = z.string().refine((s) => s === 'empty' || parseFen(s).ok, {
  message: 'must be "empty" or a FEN',
});

export const simulatorSourceSchema = z.strictObject({
  driver: z.literal('simulator'),
  sensing: sensing.default('occupancy'),
  /** A full snapshot this often when nothing changes. */
  heartbeatMs: ms.default(1000),
  /** The pieces on the board at start: "empty" or a FEN; default the start position. */
  position: fenOrEmpty.optional(),
});

export const serialSourceSchema = z.strictObject({
  driver: z.literal('serial'),
  /** e.g. /dev/ttyACM0, /dev/serial/by-id/…, COM3. */
  port: z.string().min(1),
  baudRate: z.int().positive().default(115200),
  /** What the board is expected to report; its handshake says what it does. */
  sensing: sensing.default('occupancy'),
  /** Waits between attempts to reopen the port after an unplug: from initialMs, doubling up to maxMs. */
  reconnect: z.strictObject({ initialMs: ms.default(250), maxMs: ms.default(10_000) }).optional(),
});

export const johnnyFiveSourceSchema = z.strictObject({
  driver: z.literal('johnny-five'),
  /** Serial port of the Arduino running StandardFirmata. */
  port: z.string().min(1),
  baudRate: z.int().positive().default(57600),
  /** Reed switches read presence only. */
  sensing: z.literal('occupancy').default('occupancy'),
  /** I2C addresses of the MCP23017 expanders, in wiring order. */
  addresses: z.array(z.int().min(0x20).max(0x27)).min(6).max(8).default([0x20, 0x21, 0x22, 0x23, 0x24, 0x25]),
  /** Clock buttons on plain Arduino pins (to ground). */
  buttons: z.strictObject({ red: z.int().min(0), black: z.int().min(0) }).optional(),
  heartbeatMs: ms.default(1000),
});

export const replaySourceSchema = z.strictObject({
  driver: z.literal('replay'),
  /** A sensor log (.jsonl); its header says the sensing kind. Relative to the working directory. */
  file: z.string().min(1),
  /** Checked against the log's header when given. */
  sensing: sensing.optional(),
  /** Real time (1), faster (> 1); 0 plays it as fast as possible. */
  speed: z.number().min(0).default(1),
});

export const sourceSchema = z.discriminatedUnion('driver', [
  simulatorSourceSchema,
  serialSourceSchema,
  johnnyFiveSourceSchema,
  replaySourceSchema,
]);

export const ledsSchema = z.discriminatedUnion('driver', [
  z.strictObject({ driver: z.literal('none') }),
  /** WLED on the network, driven over MQTT (`<topic>/api`). */
  z.strictObject({
    driver: z.literal('wled'),
    topic: z.string().min(1),
    brightness: z.int().min(0).max(255).default(128),
    /** LED index of intersection a0, and whether the strip snakes back on every other rank. */
    offset: z.int().min(0).default(0),
    serpentine: z.boolean().default(false),
  }),
  /**
   * LEDs on the board's own microcontroller, through the serial protocol's LED frame. Full scale by
   * default: the firmware applies its own brightness limit (LED_BRIGHTNESS) on top.
   */
  z.strictObject({ driver: z.literal('serial'), brightness: z.int().min(0).max(255).default(255) }),
]);

/** A player of a board (event metadata: PGN tags, the retained `position`, the page). */
export const playerSchema = z.strictObject({
  name: z.string().min(1).max(100),
  rating: z.int().min(0).max(4000).optional(),
  team: z.string().min(1).max(100).optional(),
});

export const boardSchema = z.strictObject({
  id: boardId,
  source: sourceSchema,
  leds: ledsSchema.optional(),
  /** The board's number in the round (overview order; PGN `BoardNumber`). */
  number: z.int().min(1).max(10_000).optional(),
  red: playerSchema.optional(),
  black: playerSchema.optional(),
});

export const mqttSchema = z.strictObject({
  /** Run the broker inside the controller (aedes); false: connect to `url`. */
  embedded: z.boolean().default(true),
  /** External broker, e.g. mqtt://broker.local:1883 (required when not embedded). */
  url: z.string().min(1).optional(),
  /** Embedded broker: TCP and WebSocket ports (wsPort 0: no WebSocket listener). */
  port: port.default(1883),
  wsPort: z.int().min(0).max(65535).default(9001),
  baseTopic: z
    .string()
    .regex(/^[^#+]+$/, 'must not contain MQTT wildcards (# or +)')
    .default('xqboard'),
  /**
   * The controller's own login: on an external broker the account it connects with (give it the
   * `controller` role there); on the embedded broker the `controller` account its bridge uses
   * (absent: one made up at every start).
   */
  username: z.string().optional(),
  password: z.string().optional(),
  /** Interface the embedded broker listens on (absent: every interface, so WLED and tablets reach it). */
  host: z.string().min(1).optional(),
  /** Embedded broker: MQTT over TLS and secure WebSocket, with this key and certificate (PEM files). */
  tls: z
    .strictObject({
      key: z.string().min(1),
      cert: z.string().min(1),
      /** MQTT over TLS (mqtts://). */
      port: port.default(8883),
      /** Secure WebSocket (wss://); 0: none. */
      wsPort: z.int().min(0).max(65535).default(8884),
    })
    .optional(),
  /** External broker over mqtts:// or wss://: the CA certificate (PEM) that signed its certificate. */
  ca: z.string().min(1).optional(),
  /** Embedded broker in a worker thread of its own, so its fan-out never holds up the move reader's timers. */
  brokerThread: z.boolean().default(false),
});

const side = z.enum(['red', 'black']);

/** Who may do what, on the embedded broker, in Mosquitto's generated files and on the web page. */
export const userSchema = z
  .strictObject({
    /** The MQTT username (and the web login's). */
    name: z.string().regex(/^[A-Za-z0-9._@-]{1,64}$/, 'must be 1–64 letters, digits, ".", "_", "@" or "-"'),
    /** The password as is, or `passwordHash`: Mosquitto's `$7$` form (mosquitto_passwd's). */
    password: z.string().min(1).optional(),
    passwordHash: z
      .string()
      .regex(/^\$7\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/, 'must be a mosquitto_passwd hash ($7$…)')
      .optional(),
    /**
     * viewer: reads the boards; player: a viewer that may ask hints, offer/answer draws and resign
     * on its board (for its side); arbiter: every request on every board; led: its WLED topic only;
     * controller: writes everything (an xqboard controller on an external broker).
     */
    role: z.enum(['viewer', 'player', 'arbiter', 'led', 'controller']),
    /** player: its board. */
    board: boardId.optional(),
    /** player: the side it plays (absent: both sides of its board). */
    side: side.optional(),
    /** led: its WLED device's MQTT topic. */
    topic: z
      .string()
      .regex(/^[^#+$][^#+]*$/, 'must be a topic without wildcards')
      .optional(),
  })
  .superRefine((u, ctx) => {
    if ((u.password === undefined) === (u.passwordHash === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['password'],
        message: 'give "password" or "passwordHash" (one)',
      });
    }
    if (u.role === 'player' && u.board === undefined) {
      ctx.addIssue({ code: 'custom', path: ['board'], message: 'a player needs its "board"' });
    }
    if (u.role === 'led' && u.topic === undefined) {
      ctx.addIssue({ code: 'custom', path: ['topic'], message: 'a led account needs its WLED "topic"' });
    }
  });

export const accessSchema = z.strictObject({
  /** What a client without a login may do: viewer, none (log in to read), or arbiter (a trusted network). */
  anonymous: z.enum(['none', 'viewer', 'arbiter']).default('viewer'),
  users: z.array(userSchema).default([]),
  /** Requests a client may make: `burst` at once, then `perMinute`. */
  rateLimit: z
    .strictObject({ burst: z.int().min(1).default(30), perMinute: z.int().min(1).default(120) })
    .prefault({}),
});

const periodSchema = z.strictObject({
  /** Moves to make in this period; absent: the rest of the game (sudden death). */
  moves: z.int().min(1).optional(),
  minutes: z.number().positive(),
  incrementSeconds: z.number().min(0).default(0),
});

export const clockSchema = z
  .strictObject({
    periods: z.array(periodSchema).min(1),
    /** When the last period has a move count: play it again and again (otherwise it is the last). */
    repeatLast: z.boolean().default(false),
  })
  .superRefine((clock, ctx) => {
    clock.periods.forEach((p, i) => {
      if (p.moves === undefined && i < clock.periods.length - 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['periods', i, 'moves'],
          message: 'only the last period may be sudden death (without "moves")',
        });
      }
    });
    const last = clock.periods.at(-1);
    if (clock.repeatLast && last?.moves === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['repeatLast'],
        message: 'a sudden-death period cannot repeat: give the last period "moves"',
      });
    }
  });

export const gameSchema = z.strictObject({
  /** The mover may put the position back (rule model 7); false: a takeback is an alert. */
  takebacks: z.boolean().default(true),
  /** casual: an illegal move is an alert; tournament: uncorrected, it is a foul (the third loses). */
  illegalMovePolicy: z.enum(['casual', 'tournament']).default('casual'),
  /** Tournament: time to correct an illegal move before it counts as a foul. */
  foulCorrectionMs: ms.default(5000),
  /** Natural move limit (rule 4.2.4): plies without a capture before a draw. */
  moveLimitPlies: z.int().min(1).default(120),
  clock: clockSchema.optional(),
});

export const trackerSchema = z.strictObject({
  /** A piece that could still go further is committed after the board is unchanged this long (a slide rests at most 120 ms on each intersection). */
  settleMs: ms.default(130),
  /** A reading must hold this long to be believed: sensors bounce for up to 30 ms. */
  bounceMs: ms.default(35),
  /** A board that no explanation fits raises the out-of-sync alert this long after it stopped fitting. */
  outOfSyncMs: ms.default(1000),
});

export const archiveSchema = z.strictObject({
  /** Where games, their PGN and their sensor logs are written. Relative to the working directory. */
  dir: z.string().min(1).default('./data/games'),
});

export const webSchema = z.strictObject({
  enabled: z.boolean().default(true),
  port: port.default(8080),
  /** Interface to listen on (absent: every interface, so a tablet beside the board shows the page). */
  host: z.string().min(1).optional(),
});

export const logSchema = z.strictObject({
  /** The least severe lines written: fatal, error, warn, info, debug, trace or silent (`--log-level` overrides). */
  level: z.enum(LOG_LEVELS).default('info'),
});

/** How hard the engine thinks: any of time, depth, nodes (the first reached ends the search), Skill Level. */
export const strengthSchema = z.strictObject({
  movetimeMs: z.int().min(10).max(600_000).optional(),
  depth: z.int().min(1).max(64).optional(),
  nodes: z.int().min(1).optional(),
  /** UCI `Skill Level` 0–20 (Fairy-Stockfish, Pikafish); 20 is full strength. */
  skill: z.int().min(0).max(20).optional(),
});

/** The engine behind hints and play against the engine, shared by every board of the controller. */
export const engineSchema = z
  .strictObject({
    /** fairy: the embedded Fairy-Stockfish (WebAssembly, started on first use); uci / ucci: a native engine. */
    kind: z.enum(['fairy', 'uci', 'ucci']).default('fairy'),
    /** uci / ucci: the engine program. Relative to the working directory. */
    path: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    /** Engine options sent after the handshake, e.g. { EvalFile: /opt/pikafish.nnue, Threads: 2, Hash: 64 }. */
    options: z.record(z.string().min(1), z.union([z.string(), z.number(), z.boolean()])).default({}),
    /** uci: how the engine writes ranks (auto: 1–10 for Fairy-Stockfish, ICCS 0–9 otherwise). */
    squares: z.enum(['auto', 'iccs', 'ranks1']).default('auto'),
    /** Strength of a hint. */
    hint: strengthSchema.default({ movetimeMs: 1000 }),
    /** A gesture on the board that asks for a hint: none, or both clock buttons within gestureMs. */
    hintGesture: z.enum(['none', 'both-buttons']).default('both-buttons'),
    gestureMs: ms.default(500),
    /** Every new game gives this side to the engine, at this strength (default: nobody plays the engine). */
    play: z
      .strictObject({
        side: z.enum(['red', 'black']),
        strength: strengthSchema.default({ movetimeMs: 1000 }),
      })
      .optional(),
    /** A search that has not answered this long after its movetime (or in searchMs without one) is cut. */
    graceMs: ms.default(5000),
    searchMs: ms.default(60_000),
  })
  .refine((e) => e.kind === 'fairy' || e.path !== undefined, {
    message: 'an external engine (kind uci or ucci) needs "path"',
    path: ['path'],
  });
/** The event the boards are played in (PGN `Event`, `Site`, `Round`); an arbiter may change it (`event/meta`). */
export const eventSchema = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  site: z.string().min(1).max(200).optional(),
  round: z.string().min(1).max(50).optional(),
});

export const broadcastSchema = z.strictObject({
  /** Everything public (the public MQTT topics, the live PGN, the viewer page) this many minutes late. */
  delayMinutes: z
    .number()
    .min(0)
    .max(24 * 60)
    .default(0),
  /** Base of the public topics (default: `<mqtt.baseTopic>/public`): a bridge forwards only these. */
  publicTopic: z
    .string()
    .regex(/^[^#+]+$/, 'must not contain MQTT wildcards (# or +)')
    .optional(),
});

export const homeAssistantSchema = z.strictObject({
  /** Publish Home Assistant MQTT discovery (retained `<prefix>/…/config`). */
  enabled: z.boolean().default(false),
  prefix: z.string().min(1).default('homeassistant'),
});

const DEFAULT_BOARDS = [{ id: 'board1', source: { driver: 'simulator' as const } }];

export const configSchema = z
  .strictObject({
    boards: z.array(boardSchema).min(1).prefault(DEFAULT_BOARDS),
    mqtt: mqttSchema.prefault({}),
    game: gameSchema.prefault({}),
    tracker: trackerSchema.prefault({}),
    archive: archiveSchema.prefault({}),
    web: webSchema.prefault({}),
    log: logSchema.prefault({}),
    access: accessSchema.prefault({}),
    engine: engineSchema.prefault({}),
    event: eventSchema.prefault({}),
    broadcast: broadcastSchema.prefault({}),
    homeAssistant: homeAssistantSchema.prefault({}),
  })
  .superRefine((config, ctx) => {
    const ids = new Map<string, number>();
    const ports = new Map<string, number>();
    config.boards.forEach((board, i) => {
      // `<base>/bridge/…` and the public mirror share the board topics' level.
      if (board.id === 'bridge' || board.id === 'public') {
        ctx.addIssue({
          code: 'custom',
          path: ['boards', i, 'id'],
          message: `"${board.id}" is a reserved topic level: choose another board id`,
        });
      }
      const first = ids.get(board.id);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['boards', i, 'id'],
          message: `board id "${board.id}" is already used by boards[${first}]`,
        });
      } else ids.set(board.id, i);
      const src = board.source;
      if (src.driver === 'serial' || src.driver === 'johnny-five') {
        const other = ports.get(src.port);
        if (other !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: ['boards', i, 'source', 'port'],
            message: `port ${src.port} is already used by boards[${other}]`,
          });
        } else ports.set(src.port, i);
      }
    });
    if (!config.mqtt.embedded && config.mqtt.url === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['mqtt', 'url'],
        message: 'is required when the broker is not embedded (mqtt.embedded: false)',
      });
    }
    const names = new Set<string>();
    config.access.users.forEach((u, i) => {
      if (names.has(u.name) || u.name === config.mqtt.username) {
        ctx.addIssue({
          code: 'custom',
          path: ['access', 'users', i, 'name'],
          message: `"${u.name}" is used twice`,
        });
      }
      names.add(u.name);
      if (u.board !== undefined && !ids.has(u.board)) {
        ctx.addIssue({
          code: 'custom',
          path: ['access', 'users', i, 'board'],
          message: `no board "${u.board}"`,
        });
      }
    });
    if (config.web.enabled && config.mqtt.embedded && config.web.port === config.mqtt.port) {
      ctx.addIssue({ code: 'custom', path: ['web', 'port'], message: 'is the same as mqtt.port' });
    }
  });

export type Config = z.output<typeof configSchema>;
/** What a file may say (everything optional that has a default). */
export type ConfigInput = z.input<typeof configSchema>;
export type BoardConfig = Config['boards'][number];
export type SourceConfig = BoardConfig['source'];
export type SimulatorSourceConfig = z.output<typeof simulatorSourceSchema>;
export type SerialSourceConfig = z.output<typeof serialSourceSchema>;
export type JohnnyFiveSourceConfig = z.output<typeof johnnyFiveSourceSchema>;
export type ReplaySourceConfig = z.output<typeof replaySourceSchema>;
export type LedsConfig = z.output<typeof ledsSchema>;
export type MqttConfig = Config['mqtt'];
export type GameConfig = Config['game'];
export type ClockConfig = z.output<typeof clockSchema>;
export type TrackerConfig = Config['tracker'];
export type AccessConfig = Config['access'];
export type UserConfig = AccessConfig['users'][number];
export type EngineConfig = Config['engine'];
export type Strength = z.output<typeof strengthSchema>;
export type PlayerConfig = z.output<typeof playerSchema>;
export type EventConfig = Config['event'];
