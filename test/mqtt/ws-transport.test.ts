/**
 * The embedded broker's WebSocket path sends each MQTT message as one WebSocket frame (aedes
 * writes a packet in several writes): counted on a raw WebSocket client that speaks MQTT itself.
 */
import { connect } from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { EmbeddedBroker } from '../../src/mqtt/broker.js';

let broker: EmbeddedBroker | undefined;
afterEach(async () => {
  await broker?.stop();
  broker = undefined;
});

describe('embedded broker over WebSocket', () => {
  it('sends each published message in one frame, whole', async () => {
    broker = new EmbeddedBroker({ port: 0, wsPort: 0, host: '127.0.0.1' });
    const started = await broker.start();
    if (!started.ok) throw new Error(started.error.message);
    const { port, wsPort } = started.value;

    const ws = new WebSocket(`ws://127.0.0.1:${wsPort}`, 'mqtt');
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const frames: Buffer[] = [];
    const packets: mqttPacket.Packet[] = [];
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    parser.on('packet', (p) => packets.push(p));
    ws.on('message', (data: Buffer) => {
      frames.push(data);
      parser.parse(data);
    });
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
      expect(check()).toBe(true);
    };
    ws.send(
      mqttPacket.generate({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clientId: 'raw',
        clean: true,
        keepalive: 30,
      }),
    );
    await until(() => packets.some((p) => p.cmd === 'connack'));
    ws.send(
      mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'x/#', qos: 0 }] }),
    );
    await until(() => packets.some((p) => p.cmd === 'suback'));

    const publisher = connect(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
    await new Promise((r) => publisher.once('connect', r));
    const before = frames.length;
    const payloads = ['{"ply":1,"iccs":"h2e2"}', 'x'.repeat(5000), '{"ply":3}'];
    for (const [i, text] of payloads.entries()) {
      await publisher.publishAsync(`x/move/${i}`, text, { qos: 0 });
      await until(() => packets.filter((p) => p.cmd === 'publish').length === i + 1);
      // One frame for the message, and that frame is the whole PUBLISH packet.
      expect(frames.length - before).toBe(i + 1);
      const frame = frames.at(-1)!;
      const one = mqttPacket.parser({ protocolVersion: 4 });
      const inFrame: mqttPacket.Packet[] = [];
      one.on('packet', (p) => inFrame.push(p));
      one.parse(frame);
      expect(inFrame).toHaveLength(1);
      expect((inFrame[0] as mqttPacket.IPublishPacket).payload.toString()).toBe(text);
    }
    await publisher.endAsync();
    ws.close();
  });
});
