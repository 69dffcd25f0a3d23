/** `xqboard`: the command line. Sub-commands live in ./commands, one a file. */
import { type CliIo, type Command, UsageError, wantsHelp } from './command.js';

/**
 * Each command is loaded only when it runs, so a script calling `xqboard perft` does not pay for
 * the serial stack or the broker. The list is the order of `xqboard --help`.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  convert: async () => (await import('./commands/convert.js')).convertCommand,
  game: async () => (await import('./commands/game.js')).gameCommand,
  games: async () => (await import('./commands/games.js')).gamesCommand,
  'mosquitto-acl': async () => (await import('./commands/mosquitto-acl.js')).mosquittoAclCommand,
  perft: async () => (await import('./commands/perft.js')).perftCommand,
  replay: async () => (await import('./commands/replay.js')).replayCommand,
  start: async () => (await import('./commands/start.js')).startCommand,
};

async function usage(): Promise<string> {
  const commands = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'Usage: xqboard <command> [options]   (xqboard <command> --help for more)',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

/** Output that ends quietly when the reader goes away (`xqboard convert … | head`). */
function streamIo(): CliIo {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  };
}

export async function main(argv: string[], io: CliIo = streamIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(await usage());
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.err(`xqboard: unknown command '${name}'\n\n${await usage()}`);
    return 2;
  }
  const command = await load();
  if (wantsHelp(rest)) {
    io.out(command.help);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`xqboard ${name}: ${(e as Error).message}`);
      return 2;
    }
    // Never a stack trace: a file the system refused (its errno code) is bad input; anything else
    // is a failure at run time.
    const code = (e as NodeJS.ErrnoException).code;
    io.err(`xqboard ${name}: ${(e as Error).message ?? String(e)}`);
    return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? 2 : 1;
  }
}
