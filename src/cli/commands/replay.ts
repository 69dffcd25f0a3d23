import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/load.js';
import type { GameOptions } from '../../game/game.js';
import { CASUAL } from '../../game/policy.js';
import { NotationFollower } from '../../notation/follower.js';
import { writePgn } from '../../record/pgn.js';
import { readSensorLogFile } from '../../sensors/replay.js';
import { DEFAULT_TRACKER_OPTIONS, type TrackerOptions } from '../../tracker/machine.js';
import { runSensorEvents } from '../../tracker/run.js';
import { type Command, UsageError } from '../command.js';

const FORMATS = ['iccs', 'json', 'pgn'] as const;
type Format = (typeof FORMATS)[number];

export const replayCommand: Command = {
  name: 'replay',
  summary: 'run a sensor log through the move reader and print the recorded game',
  help: `Usage: xqboard replay LOG [--format iccs|json|pgn] [--config FILE]

Runs a sensor log (../shared/spec/sensor-log.md) through the same move reader and game
model as live play, in the log's own time: no waiting, no network, no hardware.

  --format iccs   the moves of the recorded game, one a line (default)
  --format json   JSON Lines: every move, retraction, alert and the result, in order
  --format pgn    the recorded game as PGN
  --config FILE   take the game and tracker settings from a configuration file

Exit status 0 when the log was read to its end; 2 for a file that cannot be read or
does not follow the format (the message names the line).`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { format: { type: 'string', default: 'iccs' }, config: { type: 'string' } },
      allowPositionals: true,
    });
    if (positionals.length !== 1)
      throw new UsageError('replay takes one LOG file (see xqboard replay --help)');
    const format = values.format as Format;
    if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
    const file = positionals[0]!;

    let tracker: Omit<TrackerOptions, 'sensing'> = DEFAULT_TRACKER_OPTIONS;
    let gameOptions: GameOptions = {};
    if (values.config !== undefined) {
      const config = loadConfig(values.config);
      if (!config.ok) throw new UsageError(config.error.message);
      const c = config.value;
      const tournament = c.game.illegalMovePolicy === 'tournament';
      tracker = {
        bounceMs: c.tracker.bounceMs,
        settleMs: c.tracker.settleMs,
        outOfSyncMs: c.tracker.outOfSyncMs,
        takebacks: c.game.takebacks,
        foulAfterMs: tournament ? c.game.foulCorrectionMs : 0,
      };
      gameOptions = {
        moveLimit: c.game.moveLimitPlies,
        policy: tournament
          ? { kind: 'tournament', correctionMs: c.game.foulCorrectionMs, foulsToLose: 3 }
          : CASUAL,
      };
    }

    const read = await readSensorLogFile(file);
    if (!read.ok) {
      io.err(`xqboard replay: ${file}: ${read.error.message}`);
      return 2;
    }
    const log = read.value;
    const out: Record<string, unknown>[] = [];
    let names: NotationFollower | undefined;
    const run = runSensorEvents(log.header.fen, log.events, {
      sensing: log.header.sensing,
      tracker,
      game: gameOptions,
      onEvent: (e, reader) => {
        names ??= new NotationFollower(reader.game.startPosition);
        if (e.type === 'move') {
          out.push({ type: 'move', ply: e.ply, iccs: e.iccs, ...names.play(e.move), t: e.t });
        } else if (e.type === 'retract') {
          names.retract();
          out.push({ type: 'retract', ply: e.ply, t: e.t });
        } else if (e.type === 'alert') {
          out.push({ type: 'alert', ...e.alert, t: e.t });
        } else if (e.type === 'gameStart') {
          out.push({ type: 'start', fen: reader.game.fen, t: e.t });
        } else if (e.type === 'gameOver') {
          out.push({
            type: 'result',
            result: e.result,
            reason: e.reason,
            ...(e.detail ? { detail: e.detail } : {}),
            t: e.t,
          });
        }
      },
    });
    if (!run.ok) {
      io.err(`xqboard replay: ${file}: line 1: header fen: ${run.error.message}`);
      return 2;
    }
    const game = run.value.game;
    if (format === 'iccs') {
      for (const m of game.moves) io.out(m.iccs);
    } else if (format === 'json') {
      for (const e of out) io.out(JSON.stringify(e));
    } else {
      const outcome = game.outcome;
      io.out(
        writePgn({
          tags: { Event: 'xqboard replay', Site: log.header.board ?? 'board', Red: '?', Black: '?' },
          fen: game.startFen,
          moves: game.moves.map((m) => ({ move: m.move, iccs: m.iccs })),
          result: outcome?.result ?? '*',
        }),
      );
    }
    return 0;
  },
};
