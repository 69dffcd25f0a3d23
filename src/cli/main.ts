/** `xqboard`: the command line. Sub-commands live in ./commands, one a file. */
import { type CliIo, type Command, UsageError, wantsHelp } from './command.js';
import { convertCommand } from './commands/convert.js';
import { gameCommand } from './commands/game.js';
import { gamesCommand } from './commands/games.js';
import { perftCommand } from './commands/perft.js';
import { replayCommand } from './commands/replay.js';

const COMMANDS: readonly Command[] = [convertCommand, gameCommand, gamesCommand, perftCommand, replayCommand];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: xqboard <command> [options]   (xqboard <command> --help for more)',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
};

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`xqboard: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
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
    throw e;
  }
}
