/**
 * The controller: the embedded MQTT broker (or an external one), a board session per configured
 * board, and the extensions (MQTT bridge, LEDs, and whatever the caller adds, e.g. the terminal),
 * all on one typed bus, with one retained feed (feed.ts) that MQTT and the web page read and one
 * request API (requests.ts) that MQTT, the web page and the terminal call. One board's fault never
 * stops another: a source that cannot be made is reported and the others run; one that fails to
 * start is retried. One controller per archive folder: the folder is locked first.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DelayedFeed } from '../broadcast/delay.js';
import { EventMetadata } from '../broadcast/metadata.js';
import { PublicMirror } from '../broadcast/public.js';
import type { Config } from '../config/schema.js';
import { LedsExtension } from '../leds/extension.js';
import { AccessList } from '../mqtt/access.js';
import { MqttBridge } from '../mqtt/bridge.js';
import { type BrokerAddress, type BrokerError, EmbeddedBroker } from '../mqtt/broker.js';
import { ThreadedBroker } from '../mqtt/broker-thread.js';
import { publicBase } from '../mqtt/contract.js';
import { HomeAssistantDiscovery } from '../mqtt/ha-discovery.js';
import { type ArchiveLock, type ArchiveLockError, lockArchive } from '../record/lock.js';
import { createSources, type SourceContext, type SourceError } from '../sensors/registry.js';
import type { Clock } from '../util/clock.js';
import { type Logger, silentLogger } from '../util/log.js';
import { err, ok, type Result } from '../util/result.js';
import { type WebAddress, WebServer, type WebServerError } from '../web/server.js';
import { BoardSession } from './board-session.js';
import { Bus } from './bus.js';
import type { ControllerContext, Extension } from './extension.js';
import { BoardFeed } from './feed.js';
import { EngineService } from './hint.js';
import { RateLimiter } from './limits.js';

export const VERSION = '0.1.0';

export interface ControllerOptions {
  readonly config: Config;
  readonly logger?: Logger;
  /** The clock of sources and sessions (tests: a manual one). */
  readonly clock?: Clock;
  readonly sourceContext?: SourceContext;
  /** More extensions (the terminal view…), started after the built-in ones. */
  readonly extensions?: (context: ControllerContext) => Extension[];
  /** Embedded broker and web page interface (default: `mqtt.host` and `web.host`; absent: all). */
  readonly host?: string;
  /** Pace of the simulated hand (`board/simulate`). */
  readonly handMs?: number;
  /**
   * Ports that override the configuration, 0 for any free one (read back from `start`): tests
   * bind port 0 and never guess a free port. `wsPort` 0 here is a WebSocket on any free port.
   */
  readonly listen?: {
    readonly mqttPort?: number;
    readonly wsPort?: number;
    readonly webPort?: number;
    /** The embedded broker's TLS and secure WebSocket ports (`mqtt.tls`). */
    readonly tlsPort?: number;
    readonly wssPort?: number;
  };
}

export interface RunningController {
  /** The broker's ports when embedded (0 in the config gives a free port: this says which). */
  readonly broker?: BrokerAddress;
  /** The web page's port when `web.enabled` (0 in the config gives a free port: this says which). */
  readonly web?: WebAddress;
  /** The URL the bridge connected to. */
  readonly mqttUrl: string;
  /** Boards whose source could not be made. */
  readonly failed: readonly SourceError[];
}

export class Controller {
  readonly bus: Bus;
  readonly feed: BoardFeed;
  /** What the public sees: the feed, the broadcast delay late. */
  readonly publicFeed: DelayedFeed;
  readonly metadata: EventMetadata;
  readonly sessions = new Map<string, BoardSession>();
  private readonly logger: Logger;
  private engine: EngineService | undefined;
  private lock: ArchiveLock | undefined;
  private broker: EmbeddedBroker | ThreadedBroker | undefined;
  private extensions: Extension[] = [];
  private running = false;

  constructor(private readonly options: ControllerOptions) {
    this.logger = options.logger ?? silentLogger;
    this.bus = new Bus((event, e) =>
      this.logger.error(`a listener of ${event} failed`, { event, err: (e as Error).stack ?? String(e) }),
    );
    this.feed = new BoardFeed(this.bus);
    this.feed.start();
    const { config } = options;
    this.metadata = new EventMetadata(config.event, config.boards);
    this.metadata.onChange((board, meta) => this.sessions.get(board)?.setMeta(meta));
    this.publicFeed = new DelayedFeed(this.feed, config.broadcast.delayMinutes * 60_000);
    this.publicFeed.start();
  }

  get context(): ControllerContext {
    return {
      bus: this.bus,
      sessions: this.sessions,
      feed: this.feed,
      config: this.options.config,
      logger: this.logger,
      metadata: this.metadata,
      publicFeed: this.publicFeed,
    };
  }

  extension<T extends Extension>(name: string): T | undefined {
    return this.extensions.find((e) => e.name === name) as T | undefined;
  }

  async start(): Promise<Result<RunningController, BrokerError | WebServerError | ArchiveLockError>> {
    const { config } = this.options;
    const lock = lockArchive(config.archive.dir);
    if (!lock.ok) return err(lock.error);
    this.lock = lock.value;
    this.running = true;
    let url = config.mqtt.url ?? '';
    let address: BrokerAddress | undefined;
    // The bridge's own login: the configured one, or (embedded broker) one made up now.
    const login =
      config.mqtt.username !== undefined
        ? { username: config.mqtt.username, password: config.mqtt.password ?? '' }
        : config.mqtt.embedded
          ? { username: 'xqboard-controller', password: randomBytes(18).toString('base64url') }
          : undefined;
    const access = new AccessList(config.access, config.mqtt.embedded ? login : undefined);
    const limiter = new RateLimiter(config.access.rateLimit.burst, config.access.rateLimit.perMinute);
    if (config.mqtt.embedded) {
      const listen = this.options.listen ?? {};
      const wsPort = listen.wsPort ?? (config.mqtt.wsPort !== 0 ? config.mqtt.wsPort : undefined);
      const host = this.options.host ?? config.mqtt.host;
      const tls = readTls(config.mqtt.tls, listen);
      if (!tls.ok) {
        this.running = false;
        this.releaseLock();
        return err(tls.error);
      }
      // Home Assistant's birth message, which its (arbiter) account may publish.
      const homeAssistantStatus = config.homeAssistant.enabled
        ? `${config.homeAssistant.prefix}/status`
        : undefined;
      const common = {
        port: listen.mqttPort ?? config.mqtt.port,
        ...(wsPort !== undefined ? { wsPort } : {}),
        ...(host !== undefined ? { host } : {}),
        ...(tls.value ? { tls: tls.value } : {}),
      };
      this.broker = config.mqtt.brokerThread
        ? new ThreadedBroker(
            {
              ...common,
              guard: {
                access: config.access,
                controller: login,
                baseTopic: config.mqtt.baseTopic,
                homeAssistantStatus,
              },
            },
            this.logger,
          )
        : new EmbeddedBroker({
            ...common,
            guard: {
              access,
              baseTopic: config.mqtt.baseTopic,
              limiter,
              logger: this.logger,
              homeAssistantStatus,
            },
          });
      const started = await this.broker.start();
      if (!started.ok) {
        this.broker = undefined;
        this.running = false;
        this.releaseLock();
        return err(started.error);
      }
      address = started.value;
      url = `mqtt://127.0.0.1:${address.port}`;
      this.logger.info(
        `MQTT broker on port ${address.port}${address.wsPort !== undefined ? `, WebSocket on port ${address.wsPort}` : ''}` +
          `${address.tlsPort !== undefined ? `, TLS on port ${address.tlsPort}` : ''}` +
          `${address.wssPort !== undefined ? `, secure WebSocket on port ${address.wssPort}` : ''}`,
      );
    }

    let web: WebServer | undefined;
    let webAddress: WebAddress | undefined;
    if (config.web.enabled) {
      const host = this.options.host ?? config.web.host;
      web = new WebServer(this.context, {
        port: this.options.listen?.webPort ?? config.web.port,
        version: VERSION,
        access,
        limiter,
        ...(host !== undefined ? { host } : {}),
        viewer: {
          base: publicBase(config.mqtt.baseTopic, config.broadcast.publicTopic),
          ...(address?.wsPort !== undefined ? { wsPort: address.wsPort } : {}),
        },
      });
      const listening = await web.listen();
      if (!listening.ok) {
        await this.broker?.stop();
        this.broker = undefined;
        this.running = false;
        this.releaseLock();
        return err(listening.error);
      }
      webAddress = listening.value;
      this.logger.info(`web page on http://localhost:${webAddress.port}/`);
      const arbiters = config.access.users.some((u) => u.role === 'arbiter');
      this.logger.info(
        `web controls (new game, hint, simulate, options): open http://localhost:${webAddress.port}/#token=${web.token}` +
          (arbiters ? " or log in with an arbiter's name and password" : ' (a new link at every start)'),
      );
    }

    const { sources, errors } = await createSources(config.boards, {
      ...this.options.sourceContext,
      ...(this.options.clock ? { clock: this.options.clock } : {}),
    });
    for (const e of errors) this.logger.child({ board: e.board }).error(e.message);
    // One engine for every board, started on its first search.
    const engine = new EngineService(config.engine);
    this.engine = engine;
    for (const board of config.boards) {
      const source = sources.get(board.id);
      if (!source) continue;
      this.sessions.set(
        board.id,
        new BoardSession({
          board,
          source,
          game: config.game,
          tracker: config.tracker,
          archiveDir: config.archive.dir,
          bus: this.bus,
          logger: this.logger,
          engine,
          boardMeta: this.metadata.of(board.id),
          ...(this.options.clock ? { clock: this.options.clock } : {}),
          ...(this.options.handMs !== undefined ? { handMs: this.options.handMs } : {}),
        }),
      );
    }

    let ca: Buffer | undefined;
    if (!config.mqtt.embedded && config.mqtt.ca !== undefined) {
      try {
        ca = readFileSync(config.mqtt.ca);
      } catch (e) {
        this.logger.error(`mqtt.ca: cannot read ${config.mqtt.ca}: ${(e as Error).message}`);
      }
    }
    const local = this.broker?.localClient();
    const bridge = new MqttBridge(this.context, {
      url,
      ...(local ? { local } : {}),
      baseTopic: config.mqtt.baseTopic,
      version: VERSION,
      ...(login ? { username: login.username, password: login.password } : {}),
      ...(ca ? { ca } : {}),
      ...(config.mqtt.embedded ? {} : { protocolVersion: 5 as const, limiter }),
    });
    this.extensions = [
      bridge,
      new LedsExtension(this.context, {
        mqtt: bridge,
        ...(this.options.clock ? { clock: this.options.clock } : {}),
      }),
      new PublicMirror(
        this.publicFeed,
        bridge,
        publicBase(config.mqtt.baseTopic, config.broadcast.publicTopic),
      ),
      ...(config.homeAssistant.enabled
        ? [
            new HomeAssistantDiscovery(this.context, bridge, {
              prefix: config.homeAssistant.prefix,
              baseTopic: config.mqtt.baseTopic,
              version: VERSION,
            }),
          ]
        : []),
      ...(web ? [web] : []),
      ...(this.options.extensions?.(this.context) ?? []),
    ];
    for (const ext of this.extensions) await ext.start();
    for (const e of errors) {
      this.bus.emit('board.availability', { board: e.board, online: false, reason: e.message });
    }
    await Promise.all(
      [...this.sessions.values()].map(async (s) => {
        try {
          await s.start();
        } catch (e) {
          this.logger.child({ board: s.id }).error((e as Error).message);
        }
      }),
    );
    return ok({
      ...(address ? { broker: address } : {}),
      ...(webAddress ? { web: webAddress } : {}),
      mqttUrl: url,
      failed: errors,
    });
  }

  /** Boards first (their offline states still go out), then extensions, then the broker. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await Promise.all([...this.sessions.values()].map((s) => s.stop()));
    for (const ext of [...this.extensions].reverse()) {
      try {
        await ext.stop();
      } catch (e) {
        this.logger.warn(`stopping ${ext.name}: ${(e as Error).message}`);
      }
    }
    this.extensions = [];
    await this.broker?.stop();
    this.broker = undefined;
    await this.engine?.close();
    this.engine = undefined;
    this.publicFeed.stop();
    this.releaseLock();
  }

  private releaseLock(): void {
    this.lock?.release();
    this.lock = undefined;
  }
}

/** The embedded broker's TLS key and certificate, read from their files. */
function readTls(
  tls: Config['mqtt']['tls'],
  listen: { readonly tlsPort?: number; readonly wssPort?: number },
): Result<{ key: string; cert: string; port: number; wsPort?: number } | undefined, BrokerError> {
  if (!tls) return ok(undefined);
  const files: string[] = [];
  for (const key of ['key', 'cert'] as const) {
    try {
      files.push(readFileSync(tls[key], 'utf8'));
    } catch (e) {
      return err({
        code: 'listen_failed',
        port: tls.port,
        key: 'mqtt.tls.port',
        message: `mqtt.tls.${key}: cannot read ${tls[key]}: ${(e as Error).message}`,
      });
    }
  }
  return ok({
    key: files[0]!,
    cert: files[1]!,
    port: listen.tlsPort ?? tls.port,
    // Configured 0: no secure WebSocket; given 0 (tests): any free port.
    ...(listen.wssPort !== undefined
      ? { wsPort: listen.wssPort }
      : tls.wsPort !== 0
        ? { wsPort: tls.wsPort }
        : {}),
  });
}
