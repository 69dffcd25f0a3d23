/**
 * `xqboard replay` (../shared/spec/cli.md): the real built command line for the first log's moves
 * and for a log that does not follow the format (its exit status and streams), the command's own
 * `main` in this process for the rest.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPgn } from '../../src/record/pgn.js';
import { Position } from '../../src/rules/index.js';
import { makeSensorLog } from '../../src/sensors/sensor-log.js';
import { physicalPlay } from '../../src/simulation/physical-play.js';
import { xqboard, xqboardHere } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';
import { sharedPath } from '../helpers/shared.js';
import { randomGame } from '../tracker/physical-support.js';

const LOGS = ['example-occupancy', 'example-occupancy-2', 'example-colour-buttons'];
const tmp = scratchDir('xqboard-replay-');

describe('xqboard replay', () => {
  for (const [n, name] of LOGS.entries()) {
    const log = sharedPath(`data/sensor-logs/${name}.jsonl`);
    const expected = readFileSync(sharedPath(`data/sensor-logs/${name}.expected.iccs`), 'utf8')
      .trim()
      .split('\n');

    it(`${name}: the recorded moves, one ICCS a line, and nothing else`, async () => {
      const r = n === 0 ? xqboard('replay', log) : await xqboardHere('replay', log);
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.lines).toEqual(expected);
      expect((await xqboardHere('replay', log, '--format', 'iccs')).stdout).toBe(r.stdout);
    });

    it(`${name}: JSON Lines events with the contract's fields`, async () => {
      const r = await xqboardHere('replay', log, '--format', 'json');
      expect(r.status).toBe(0);
      const events = r.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const e of events) expect(typeof e.type).toBe('string');
      // Moves and retractions, applied in order, leave the recorded game.
      const game: string[] = [];
      for (const e of events) {
        if (e.type === 'move') {
          expect(e.ply).toBe(game.length + 1);
          expect(typeof e.wxf).toBe('string');
          expect(typeof e.zh).toBe('string');
          expect(Number.isInteger(e.t)).toBe(true);
          game.push(e.iccs as string);
        } else if (e.type === 'retract') {
          expect(e.ply).toBe(game.length);
          game.pop();
        }
      }
      expect(game).toEqual(expected);
      const moves = events.filter((e) => e.type === 'move');
      const times = events.map((e) => e.t as number);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect(moves[0]).toMatchObject({ iccs: expected[0] });
    });

    it(`${name}: PGN that reads back to the same moves`, async () => {
      const r = await xqboardHere('replay', log, '--format', 'pgn');
      expect(r.status).toBe(0);
      const [game] = readPgn(r.stdout);
      expect(game?.ok).toBe(true);
      if (!game?.ok) return;
      expect(game.value.moves.map((m) => m.iccs)).toEqual(expected);
      expect(r.stdout).toContain('[Game "Chinese Chess"]');
    });
  }

  it('the first move of the colour log is h2e2 as 炮二平五 and C2.5', async () => {
    const r = await xqboardHere(
      'replay',
      sharedPath('data/sensor-logs/example-colour-buttons.jsonl'),
      '--format',
      'json',
    );
    const first = r.lines.map((l) => JSON.parse(l)).find((e) => e.type === 'move');
    expect(first).toMatchObject({ ply: 1, iccs: 'h2e2', wxf: 'C2.5', zh: '炮二平五' });
  });

  it('reports retractions, illegal-move alerts and the result of a generated game', async () => {
    const start = Position.default();
    const moves = randomGame(start, 200, 42);
    const play = physicalPlay(start, moves, {
      sensing: 'occupancy',
      seed: 7,
      rates: { takeback: 0.1, illegal_placement: 0.1 },
    });
    const file = join(tmp, 'generated.jsonl');
    writeFileSync(file, makeSensorLog({ version: 1, sensing: 'occupancy' }, play.events));
    const r = await xqboardHere('replay', file, '--format', 'json');
    expect(r.status).toBe(0);
    const events = r.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.filter((e) => e.type === 'retract')).toHaveLength(play.takebacks);
    expect(
      events.filter((e) => e.type === 'alert' && e.kind === 'illegal_move').length,
    ).toBeGreaterThanOrEqual(play.illegalPlacements);
    const iccs = (await xqboardHere('replay', file)).lines;
    expect(iccs).toHaveLength(moves.length);
    if (moves.length < 200) {
      // The random game ended by the rules: a result event says how.
      expect(events.at(-1)).toMatchObject({ type: 'result' });
    }
  });

  it('exit status 2 and the line, for a log that does not follow the format', () => {
    const file = join(tmp, 'bad.jsonl');
    writeFileSync(file, '{"type":"header","version":1,"sensing":"occupancy"}\n{"t":0,"occ":"xxxxxxxxx/9"}\n');
    const r = xqboard('replay', file);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/line 2/);
  });

  it('exit status 2 for a file that cannot be read', async () => {
    const r = await xqboardHere('replay', join(tmp, 'missing.jsonl'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/missing\.jsonl/);
  });

  it('--config: takebacks forbidden in the configuration', async () => {
    const start = Position.default();
    const moves = randomGame(start, 40, 4);
    const play = physicalPlay(start, moves, { sensing: 'colour', seed: 3, rates: { takeback: 0.3 } });
    expect(play.takebacks).toBeGreaterThan(0);
    const file = join(tmp, 'takebacks.jsonl');
    writeFileSync(file, makeSensorLog({ version: 1, sensing: 'colour' }, play.events));
    const config = join(tmp, 'tournament.yaml');
    writeFileSync(config, 'game:\n  takebacks: false\n');
    const events = (await xqboardHere('replay', file, '--format', 'json', '--config', config)).lines.map(
      (l) => JSON.parse(l),
    );
    expect(events.filter((e) => e.type === 'retract')).toHaveLength(0);
    expect(events.filter((e) => e.type === 'alert' && e.kind === 'takeback_forbidden')).toHaveLength(
      play.takebacks,
    );
  });

  it('--help', async () => {
    const r = await xqboardHere('replay', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: xqboard replay LOG/);
  });
});
