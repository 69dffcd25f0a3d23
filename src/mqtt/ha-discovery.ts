/**
 * Home Assistant MQTT discovery: every board a device with its last move, side to move, in-check,
 * result and availability, and buttons for a new game and a hint (they publish the requests of
 * the contract). The configs are retained, sent on every connection and again whenever Home
 * Assistant comes online (`<prefix>/status` = `online`), as its documentation asks.
 */
import type { ControllerContext, Extension, MqttPublisher } from '../controller/extension.js';
import { boardTopics, bridgeTopics, HA_CONFIG_SPEC, haTopics } from './contract.js';

type Publisher = MqttPublisher & { onConnected(listener: () => void): () => void };

export interface HaEntity {
  readonly component: 'sensor' | 'binary_sensor' | 'button';
  readonly object: string;
  readonly config: Record<string, unknown>;
}

/** The discovery configs of one board (exported for the tests and the README). */
export function haEntities(base: string, board: string, version: string): HaEntity[] {
  const topics = boardTopics(base, board);
  const bridge = bridgeTopics(base);
  const id = `xqboard_${board}`;
  const common = {
    device: {
      identifiers: [id],
      name: `xqboard ${board}`,
      manufacturer: 'xqboard',
      model: 'xiangqi smart board',
      sw_version: version,
    },
    // Available while the controller runs and the board's sensors are linked.
    availability: [
      { topic: bridge.state, value_template: '{{ value_json.state }}' },
      { topic: topics.availability, value_template: '{{ value_json.state }}' },
    ],
    availability_mode: 'all',
  };
  const entity = (
    component: HaEntity['component'],
    object: string,
    name: string,
    config: Record<string, unknown>,
  ): HaEntity => ({
    component,
    object,
    config: { ...common, name, unique_id: `${id}_${object}`, object_id: `${id}_${object}`, ...config },
  });
  return [
    entity('sensor', 'last_move', 'Last move', {
      state_topic: topics.position,
      value_template: "{{ value_json.lastMove or 'none' }}",
      json_attributes_topic: topics.position,
      json_attributes_template:
        '{{ {"fen": value_json.fen, "ply": value_json.ply, "game": value_json.game} | tojson }}',
      icon: 'mdi:chess-rook',
    }),
    entity('sensor', 'turn', 'Side to move', {
      state_topic: topics.position,
      value_template: '{{ value_json.turn }}',
      icon: 'mdi:swap-vertical',
    }),
    entity('binary_sensor', 'check', 'In check', {
      state_topic: topics.position,
      value_template: "{{ 'ON' if value_json.check else 'OFF' }}",
      icon: 'mdi:alert',
    }),
    entity('sensor', 'result', 'Result', {
      state_topic: topics.result,
      value_template: '{{ value_json.result }}',
      json_attributes_topic: topics.result,
      icon: 'mdi:trophy',
    }),
    entity('button', 'new_game', 'New game', {
      command_topic: bridge.request('game/new'),
      payload_press: JSON.stringify({ board }),
      icon: 'mdi:restart',
    }),
    entity('button', 'hint', 'Hint', {
      command_topic: bridge.request('game/hint'),
      payload_press: JSON.stringify({ board }),
      icon: 'mdi:lightbulb-on',
    }),
  ];
}

export class HomeAssistantDiscovery implements Extension {
  readonly name = 'home-assistant';
  private off: (() => void)[] = [];

  constructor(
    private readonly context: ControllerContext,
    private readonly mqtt: Publisher,
    private readonly options: {
      readonly prefix: string;
      readonly baseTopic: string;
      readonly version: string;
    },
  ) {}

  async start(): Promise<void> {
    const ha = haTopics(this.options.prefix);
    this.off.push(this.mqtt.onConnected(() => this.announce()));
    this.off.push(
      this.mqtt.subscribe(ha.status, (payload) => {
        if (payload.toString().trim() === 'online') this.announce();
      }),
    );
  }

  async stop(): Promise<void> {
    for (const u of this.off.splice(0)) u();
  }

  private announce(): void {
    const ha = haTopics(this.options.prefix);
    for (const board of this.context.config.boards) {
      for (const e of haEntities(this.options.baseTopic, board.id, this.options.version)) {
        this.mqtt.publish(
          ha.config(e.component, board.id, e.object),
          JSON.stringify(e.config),
          HA_CONFIG_SPEC,
        );
      }
    }
  }
}
