/**
 * Home Assistant discovery on the embedded broker: each board a device whose entity configs are
 * retained under homeassistant/…/config, read the contract's retained topics (the fields their
 * templates use exist), are sent again when Home Assistant comes online, and whose buttons
 * publish requests the controller answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import { HINT_ANSWER_MS, Recorder } from './support.js';

const running: { controller: Controller; dir: string }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.controller.stop();
    rmSync(r.dir, { recursive: true, force: true });
  }
});

const HOME_ASSISTANT = { name: 'homeassistant', password: 'h4ss', role: 'arbiter' } as const;

describe('Home Assistant discovery', () => {
  it('announces each board as a device, again when Home Assistant comes online; its buttons work', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xqboard-ha-'));
    const config = configSchema.parse({
      boards: [
        { id: 'b1', source: { driver: 'simulator', heartbeatMs: 0 } },
        { id: 'b2', source: { driver: 'simulator', heartbeatMs: 0 } },
      ],
      mqtt: { wsPort: 0, baseTopic: 'hq' },
      archive: { dir },
      web: { enabled: false },
      homeAssistant: { enabled: true },
      // Home Assistant's account: it reads the discovery topics and presses the buttons.
      access: { users: [HOME_ASSISTANT] },
      // The hint button's request is what is tested, not the engine's play: a depth-1 search.
      engine: { hint: { depth: 1 } },
    });
    const controller = new Controller({ config, handMs: 40, listen: { mqttPort: 0 } });
    running.push({ controller, dir });
    const started = await controller.start();
    if (!started.ok) throw new Error(started.error.message);
    await controller.sessions.get('b1')!.untilPlaying(3000);
    const url = `mqtt://127.0.0.1:${started.value.broker!.port}`;

    const ha = await Recorder.connect(
      url,
      ['homeassistant/#', 'hq/b1/position', 'hq/b1/result', 'hq/bridge/response/#'],
      { username: HOME_ASSISTANT.name, password: HOME_ASSISTANT.password },
    );
    const objects = [
      'sensor/last_move',
      'sensor/turn',
      'binary_sensor/check',
      'sensor/result',
      'button/new_game',
      'button/hint',
    ];
    const topic = (board: string, o: string) => {
      const [component, object] = o.split('/');
      return `homeassistant/${component}/xqboard_${board}/${object}/config`;
    };
    await ha.until('every config of both boards', () =>
      ['b1', 'b2'].every((b) => objects.every((o) => ha.on(topic(b, o)).length > 0)),
    );
    for (const o of objects) expect(ha.on(topic('b1', o))[0]!.retain).toBe(true);
    const lastMove = ha.json(topic('b1', 'sensor/last_move'))[0]!;
    expect(lastMove).toMatchObject({
      name: 'Last move',
      unique_id: 'xqboard_b1_last_move',
      state_topic: 'hq/b1/position',
      device: { identifiers: ['xqboard_b1'], name: 'xqboard b1' },
      availability_mode: 'all',
      availability: [{ topic: 'hq/bridge/state' }, { topic: 'hq/b1/availability' }],
    });
    // What the templates read is in the payloads they read.
    await ha.until(
      'a retained position and result',
      () => ha.on('hq/b1/position').length > 0 && ha.on('hq/b1/result').length > 0,
    );
    const position = ha.json('hq/b1/position').at(-1)!;
    for (const field of ['lastMove', 'turn', 'check', 'fen', 'ply']) expect(position).toHaveProperty(field);
    expect(ha.json('hq/b1/result').at(-1)).toHaveProperty('result');
    expect(String(ha.json(topic('b1', 'binary_sensor/check'))[0]!.value_template)).toContain(
      'value_json.check',
    );

    // Home Assistant restarts: it says online, the configs come again.
    const before = ha.on(topic('b2', 'button/hint')).length;
    await ha.client.publishAsync('homeassistant/status', 'online');
    await ha.until('the configs again', () => ha.on(topic('b2', 'button/hint')).length > before);

    // Its buttons publish the contract's requests.
    const hint = ha.json(topic('b1', 'button/hint'))[0]!;
    await ha.client.publishAsync(hint.command_topic as string, hint.payload_press as string);
    await ha.until(
      'the hint answered',
      () => ha.json('hq/bridge/response/game/hint').length > 0,
      HINT_ANSWER_MS,
    );
    expect(ha.json('hq/bridge/response/game/hint')[0]).toMatchObject({ status: 'ok' });
    const fresh = ha.json(topic('b2', 'button/new_game'))[0]!;
    expect(fresh.command_topic).toBe('hq/bridge/request/game/new');
    await ha.client.publishAsync(fresh.command_topic as string, fresh.payload_press as string);
    await ha.until('the new game answered', () => ha.json('hq/bridge/response/game/new').length > 0);
    expect(ha.json('hq/bridge/response/game/new')[0]).toMatchObject({ status: 'ok' });
    await ha.end();
  });
});
