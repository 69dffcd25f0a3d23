/**
 * The controller's configuration: what `config/*.yaml` may say, with its defaults. Every object
 * is strict (an unknown key is an error, so a typo never passes silently). With no file at all
 * the defaults run one simulated board with the embedded MQTT broker and the web page.
 */
import { z } from 'zod';
import { parseFen } from '../rules/fen.js';

const sensing = z.enum(['occupancy', 'colour']);
const port = z.int().min(1).max(65535);
const ms = z.int().min(0);

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
  username: z.string().optional(),
  password: z.string().optional(),
  /** Embedded broker: run it in a worker thread of its own, so its fan-out never holds up the move reader's timers. */
  brokerThread: z.boolean().default(false),
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
export type PlayerConfig = z.output<typeof playerSchema>;
export type EventConfig = Config['event'];
