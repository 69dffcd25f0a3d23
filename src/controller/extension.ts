/** What every part the controller runs beside the boards provides (zigbee2mqtt's extensions). */
import type { DelayedFeed } from '../broadcast/delay.js';
import type { EventMetadata } from '../broadcast/metadata.js';
import type { Config } from '../config/schema.js';
import type { Logger } from '../util/log.js';
import type { BoardSession } from './board-session.js';
import type { Bus } from './bus.js';
import type { BoardFeed } from './feed.js';

export interface Extension {
  readonly name: string;
  /** Everything happens here, nothing in the constructor. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** What extensions see of the controller. */
export interface ControllerContext {
  readonly bus: Bus;
  readonly sessions: ReadonlyMap<string, BoardSession>;
  /** Every board's messages and retained state, one `seq` per board (MQTT and the page read it). */
  readonly feed: BoardFeed;
  readonly config: Config;
  readonly logger: Logger;
  /** Event metadata (`event/meta` changes it). */
  readonly metadata?: EventMetadata;
  /** The feed as the public sees it: the broadcast delay late, public topics only. */
  readonly publicFeed?: DelayedFeed;
}

/** Publishing, as the MQTT bridge offers it to other extensions (the LEDs' WLED commands). */
export interface MqttPublisher {
  publish(topic: string, payload: string, spec: { qos: 0 | 1 | 2; retain: boolean }): void;
  /** Listens to a topic (no wildcards), subscribed again after every reconnect; returns the unsubscribe. */
  subscribe(topic: string, handler: (payload: Buffer) => void): () => void;
  /** Called on every (re)connect (now too, if connected); returns the unsubscribe. */
  onConnected?(listener: () => void): () => void;
}
