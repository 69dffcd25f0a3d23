/** What every sub-command of `xqboard` provides. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Full `--help` text. */
  readonly help: string;
  /** Returns the exit status: 0 done, 1 failure at run time, 2 bad input. */
  run(args: string[], io: CliIo): Promise<number> | number;
}

/** Thrown by argument parsing; becomes exit status 2 with the message on standard error. */
export class UsageError extends Error {}

export const wantsHelp = (args: string[]): boolean => args.includes('--help') || args.includes('-h');
