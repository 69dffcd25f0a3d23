/**
 * The controller: the embedded MQTT broker (or an external one), a board session per configured
 * board, and the extensions (MQTT bridge, LEDs, and whatever the caller adds, e.g. the terminal),
 * all on one typed bus, with one retained feed (feed.ts) that MQTT and the web page read and one
 * request API (requests.ts) that MQTT, the web page and the terminal call. One board's fault never
 * stops another: a source that cannot be made is reported and the others run; one that fails to
 * start is retried. One controller per archive folder: the folder is locked first.
 */
import { DelayedFeed } from '../broadcast/delay.js';
import { EventMetadata } from '../broadcast/metadata.js';
import { PublicMirror } from '../broadcast/public.js';
import type { Config } from '../config/schema.js';
import { HintEngine } from '../engine/hints.js';
import { LedsExtension } from '../leds/extension.js';
import { MqttBridge } from '../mqtt/bridge.js';
import { type BrokerAddress, type BrokerError, EmbeddedBroker } from '../mqtt/broker.js';
import { ThreadedBroker } from '../mqtt/broker-thread.js';
import { publicBase } from '../mqtt/contract.js';
import { HomeAssistantDiscovery } from '../mqtt/ha-discovery.js';
import { type ArchiveLock, type ArchiveLockError, lockArchive } from '../record/lock.js';
import { err, ok, type Result } from '../rules/types.js';
import type { Clock } from '../sensors/clock.js';
import { createSources, type SourceContext, type SourceError } from '../sensors/registry.js';
import { type WebAddress, WebServer, type WebServerError } from '../web/server.js';
import { BoardSession } from './board-session.js';
import { Bus, type Logger, silentLogger } from './bus.js';
import type { ControllerContext, Extension } from './extension.js';
import { BoardFeed } from './feed.js';

export const VERSION = '0.1.0';

export interface ControllerOptions {
  readonly config: Config;
  readonly logger?: Logger;
  /** The clock of sources and sessions (tests: a manual one). */
  readonly clock?: Clock;
  readonly sourceContext?: SourceContext;
  /** More extensions (the terminal view…), started after the built-in ones. */
  readonly extensions?: (context: ControllerContext) => Extension[];
  /** Embedded broker and web page interface (default: all). */
  readonly host?: string;
  /** Pace of the simulated hand (`board/simulate`). */
  readonly handMs?: number;
  /**
   * Ports that override the configuration, 0 for any free one (read back from `start`): tests
   * bind port 0 and never guess a free port. `wsPort` 0 here is a WebSocket on any free port.
   */
  readonly listen?: { readonly mqttPort?: number; readonly wsPort?: number; readonly webPort?: number };
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
  private readonly hints = new HintEngine();
  private lock: ArchiveLock | undefined;
  private broker: EmbeddedBroker | ThreadedBroker | undefined;
  private extensions: Extension[] = [];
  private running = false;

  constructor(private readonly options: ControllerOptions) {
    this.logger = options.logger ?? silentLogger;
    this.bus = new Bus((event, e) =>
      this.logger.error(`a listener of ${event} failed: ${(e as Error).stack ?? String(e)}`),
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
    if (config.mqtt.embedded) {
      const listen = this.options.listen ?? {};
      const wsPort = listen.wsPort ?? (config.mqtt.wsPort !== 0 ? config.mqtt.wsPort : undefined);
      const Broker = config.mqtt.brokerThread ? ThreadedBroker : EmbeddedBroker;
      this.broker = new Broker({
        port: listen.mqttPort ?? config.mqtt.port,
        ...(wsPort !== undefined ? { wsPort } : {}),
        ...(this.options.host !== undefined ? { host: this.options.host } : {}),
        ...(config.mqtt.username !== undefined ? { username: config.mqtt.username } : {}),
        ...(config.mqtt.password !== undefined ? { password: config.mqtt.password } : {}),
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
        `MQTT broker on port ${address.port}${address.wsPort !== undefined ? `, WebSocket on port ${address.wsPort}` : ''}`,
      );
    }

    let web: WebServer | undefined;
    let webAddress: WebAddress | undefined;
    if (config.web.enabled) {
      web = new WebServer(this.context, {
        port: this.options.listen?.webPort ?? config.web.port,
        version: VERSION,
        ...(this.options.host !== undefined ? { host: this.options.host } : {}),
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
    }

    const { sources, errors } = await createSources(config.boards, {
      ...this.options.sourceContext,
      ...(this.options.clock ? { clock: this.options.clock } : {}),
    });
    for (const e of errors) this.logger.error(e.message);
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
          hints: this.hints,
          boardMeta: this.metadata.of(board.id),
          ...(this.options.clock ? { clock: this.options.clock } : {}),
          ...(this.options.handMs !== undefined ? { handMs: this.options.handMs } : {}),
        }),
      );
    }

    const inProcess = this.broker?.instance;
    const bridge = new MqttBridge(this.context, {
      url,
      ...(inProcess ? { inProcess } : {}),
      baseTopic: config.mqtt.baseTopic,
      version: VERSION,
      ...(config.mqtt.username !== undefined ? { username: config.mqtt.username } : {}),
      ...(config.mqtt.password !== undefined ? { password: config.mqtt.password } : {}),
    });
    this.extensions = [
      bridge,
      new LedsExtension(this.context, {
        mqtt: bridge,
        ...(this.options.clock ? { clock: this.options.clock } : {}),
      }),
      new PublicMirror(
        this.context,
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
          this.logger.error(`board ${s.id}: ${(e as Error).message}`);
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
    await this.hints.close();
    this.publicFeed.stop();
    this.releaseLock();
  }

  private releaseLock(): void {
    this.lock?.release();
    this.lock = undefined;
  }
}
