/**
 * An external engine configured by path (the scripted fake-engine.mjs, a real process) behind a
 * controller: its hint reaches the bus with the three notations; a crash raises the `engine`
 * alert, the engine is started again (the alert ends) and the hint is still answered; an engine
 * that never answers raises the alert and the request fails with a reason, without a hang.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { BusEvents } from '../../src/controller/bus.js';
import { performRequest } from '../../src/controller/requests.js';
import { useControllerRig } from './rig.js';

const FAKE = fileURLToPath(new URL('./fake-engine.mjs', import.meta.url));

const rig = useControllerRig('xqboard-external-');

async function start(kind: 'uci' | 'ucci', behaviour: string, extra: Record<string, unknown> = {}) {
  const session = await rig.start({
    engine: {
      kind,
      path: process.execPath,
      args: [FAKE, kind, behaviour, join(rig.dir, 'commands.log'), join(rig.dir, 'crashed')],
      hint: { movetimeMs: 100 },
      ...extra,
    },
  });
  const controller = rig.controller!;
  const alerts: string[] = [];
  controller.bus.on('tracker.alert', (e) => alerts.push(`raised ${e.alert.kind}: ${e.alert.message}`));
  controller.bus.on('tracker.alertCleared', (e) => alerts.push(`ended ${e.kind}`));
  return { controller, session, alerts };
}

describe('an external engine by path', () => {
  it.each(['uci', 'ucci'] as const)(
    '%s: a hint over the request API, with the engine named',
    async (kind) => {
      const { controller } = await start(kind, 'normal');
      const hints: BusEvents['game.hint'][] = [];
      controller.bus.on('game.hint', (e) => hints.push(e));
      const { result } = await performRequest(controller.context, 'game/hint', { board: 'b1' });
      expect(result).toMatchObject({
        ok: true,
        data: { iccs: 'h2e2', wxf: 'C2.5', zh: '炮二平五', depth: 8 },
      });
      expect(hints[0]).toMatchObject({ kind: 'hint', engine: `fake ${kind} engine` });
      expect(hints[0]!.message).toMatch(/^h2e2 C2\.5 炮二平五, (mate in 3|\+0\.41 pawns), depth 8$/);
    },
  );

  it('a crash: the alert is raised, the engine is started again (the alert ends), the hint answered', async () => {
    const { session, alerts } = await start('uci', 'crash-once');
    const r = await session.hint();
    expect(r.ok && r.value.iccs).toBe('h2e2');
    expect(alerts[0]).toMatch(/^raised engine: .*stopped \(exit code 3\)/);
    expect(alerts).toContain('ended engine');
    expect(session.alerts().some((a) => a.kind === 'engine')).toBe(false);
  });

  it('an engine that never answers: the alert, and the request fails with a reason', async () => {
    const { controller, alerts } = await start('uci', 'silent', { graceMs: 300 });
    const { result } = await performRequest(controller.context, 'game/hint', { board: 'b1' });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'engine', message: expect.stringMatching(/did not answer/) },
    });
    expect(alerts.some((a) => /^raised engine: .*did not answer/.test(a))).toBe(true);
  });
});
