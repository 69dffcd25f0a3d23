import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import { Controller } from '../../controller/controller.js';
import { TerminalView } from '../../controller/terminal.js';
import { createLogger, LOG_LEVELS, type LogLevel } from '../../util/log.js';
import { type Command, UsageError } from '../command.js';

const portOption = (text: string | undefined, name: string): number | undefined => {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`${name} must be a port number, got '${text}'`);
  return n;
};

export const startCommand: Command = {
  name: 'start',
  summary: 'run the controller: boards, MQTT broker or bridge, LEDs, web page (default: one simulated board)',
  help: `Usage: xqboard start [--config FILE] [--mqtt-port N] [--ws-port N] [--web-port N] [--archive DIR]
                     [--log-level LEVEL]

Runs the controller until Ctrl-C (SIGINT) or SIGTERM. Without --config it runs the
defaults (config/default.yaml): one simulated board and the MQTT broker inside the
controller on port 1883 (WebSocket 9001), the web page on http://localhost:8080/,
games archived in ./data/games.

  --config FILE    a configuration file (YAML; see config/default.yaml and config/examples)
  --mqtt-port N    the embedded broker's TCP port (overrides mqtt.port; 0: any free port)
  --ws-port N      the embedded broker's WebSocket port (overrides mqtt.wsPort; 0: none)
  --web-port N     the web page's port (overrides web.port; 0: any free port)
  --archive DIR    where games are recorded (overrides archive.dir)
  --log-level LEVEL  fatal, error, warn, info, debug, trace or silent (overrides log.level)

The service log goes to standard error: one JSON line per event (pino) when it is not a
terminal, as journald and log shippers take it; readable lines on a terminal. Every line
of a board carries its id ("board"). Errors that stop the command are plain text.

On a terminal, the boards are drawn as they change, and commands are read: a move
(h2e2, C2.5 or 炮二平五) plays it on a simulated board; 'help' lists the others.

The web page shows every board live and plays moves on simulated boards. Like the
embedded broker it listens on every network interface and has no password: on an
untrusted network set web.enabled: false (or block the port).

MQTT topics: see README.md ("MQTT topics"). Exit status 0 after a clean stop; 1 when the
controller cannot start (a port in use, …); 2 for a bad configuration or option.`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        config: { type: 'string' },
        'mqtt-port': { type: 'string' },
        'ws-port': { type: 'string' },
        'web-port': { type: 'string' },
        archive: { type: 'string' },
        'log-level': { type: 'string' },
      },
      allowPositionals: false,
    });
    if (positionals.length > 0) throw new UsageError('start takes no arguments (see xqboard start --help)');
    const loaded = loadConfig(values.config);
    if (!loaded.ok) {
      io.err(`xqboard start: ${loaded.error.message}`);
      return 2;
    }
    const level = values['log-level'] ?? loaded.value.log.level;
    if (!(LOG_LEVELS as readonly string[]).includes(level)) {
      throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got '${level}'`);
    }
    const mqttPort = portOption(values['mqtt-port'], '--mqtt-port');
    const wsPort = portOption(values['ws-port'], '--ws-port');
    const webPort = portOption(values['web-port'], '--web-port');
    const config: Config = {
      ...loaded.value,
      mqtt: {
        ...loaded.value.mqtt,
        ...(mqttPort !== undefined ? { port: mqttPort } : {}),
        ...(wsPort !== undefined ? { wsPort } : {}),
      },
      web: { ...loaded.value.web, ...(webPort !== undefined ? { port: webPort } : {}) },
      archive: values.archive !== undefined ? { dir: values.archive } : loaded.value.archive,
      log: { level: level as LogLevel },
    };
    const logger = createLogger({ level: config.log.level });

    let quit: () => void = () => {};
    const stopped = new Promise<string>((resolve) => {
      quit = () => resolve('quit');
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    const tty = process.stdin.isTTY === true && process.stdout.isTTY === true;
    const controller = new Controller({
      config,
      logger,
      extensions: (context) => [
        new TerminalView(context, {
          output: process.stdout,
          ...(tty ? { input: process.stdin } : {}),
          onQuit: () => quit(),
        }),
      ],
    });
    const started = await controller.start();
    if (!started.ok && (started.error.code === 'archive_locked' || started.error.code === 'lock_failed')) {
      io.err(`xqboard start: ${started.error.message}`);
      return 1;
    }
    if (!started.ok) {
      const e = started.error as Exclude<typeof started.error, { code: 'archive_locked' | 'lock_failed' }>;
      const flags: Record<string, string> = {
        'mqtt.port': '--mqtt-port',
        'mqtt.wsPort': '--ws-port',
        'web.port': '--web-port',
      };
      const flag = flags[e.key];
      io.err(
        `xqboard start: ${e.message}.\n` +
          `Stop the program that uses it, or choose another port${flag ? `: xqboard start ${flag} ${e.port + 1}` : ''}` +
          ` (or set ${e.key} in a configuration file given with --config; see config/default.yaml).`,
      );
      await controller.stop();
      return 1;
    }
    const { broker, mqttUrl, web } = started.value;
    const where = broker
      ? `MQTT broker on port ${broker.port}${broker.wsPort !== undefined ? ` (WebSocket ${broker.wsPort})` : ''}`
      : `MQTT broker ${mqttUrl}`;
    const boards = config.boards.map((b) => `${b.id} (${b.source.driver})`).join(', ');
    const page = web ? `; web page http://localhost:${web.port}/` : '';
    logger.info(
      `running. ${where}, topics under ${config.mqtt.baseTopic}/${page}; boards: ${boards}; games in ${config.archive.dir}. Ctrl-C stops.`,
      {
        ...(broker ? { mqttPort: broker.port } : { mqttUrl }),
        ...(web ? { webPort: web.port } : {}),
        boards: config.boards.map((b) => b.id),
      },
    );
    const why = await stopped;
    logger.info(`stopping (${why})`, { signal: why });
    await controller.stop();
    if (tty) process.stdin.pause();
    return 0;
  },
};
