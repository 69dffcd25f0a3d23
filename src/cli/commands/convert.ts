import { createReadStream, createWriteStream, statSync, type WriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  CHINESE_DEFAULT,
  type ChineseStyle,
  NOTATIONS,
  type NotationName,
  type NotationStyle,
  WXF_FULL_WIDTH,
  WXF_OFFICIAL,
} from '../../notation/index.js';
import { writePgn } from '../../record/pgn.js';
import { readPgnStream } from '../../record/stream.js';
import { type Command, UsageError } from '../command.js';

export function notationOption(value: string | undefined, fallback: NotationName): NotationName {
  if (value === undefined) return fallback;
  const n = value.toLowerCase() === 'zh' ? 'chinese' : value.toLowerCase();
  if (!(NOTATIONS as readonly string[]).includes(n)) {
    throw new UsageError(`unknown notation '${value}' (iccs, wxf or chinese)`);
  }
  return n as NotationName;
}

export function styleOption(wxfStyle: string | undefined, blackDigits: string | undefined): NotationStyle {
  if (wxfStyle !== undefined && wxfStyle !== 'official' && wxfStyle !== 'fullwidth') {
    throw new UsageError(`--wxf-style is official or fullwidth, not '${wxfStyle}'`);
  }
  if (blackDigits !== undefined && blackDigits !== 'fullwidth' && blackDigits !== 'ascii') {
    throw new UsageError(`--black-digits is fullwidth or ascii, not '${blackDigits}'`);
  }
  const chinese: ChineseStyle = blackDigits ? { blackDigits } : CHINESE_DEFAULT;
  return { wxf: wxfStyle === 'fullwidth' ? WXF_FULL_WIDTH : WXF_OFFICIAL, chinese };
}

/** Writes to a file, waiting for the stream when its buffer is full (memory stays flat). */
async function write(out: WriteStream, text: string, failed: () => Error | undefined): Promise<void> {
  if (out.write(text) || failed()) return;
  // A stream that fails never drains: its error ends the wait too.
  await new Promise<void>((resolve) => {
    out.once('drain', () => resolve());
    out.once('error', () => resolve());
  });
}

export const convertCommand: Command = {
  name: 'convert',
  summary: 'convert PGN files between ICCS, WXF and Chinese notation',
  help: `Usage: xqboard convert IN.pgn --to iccs|wxf|chinese [-o OUT.pgn] [options]

Reads every game of IN.pgn (UTF-8, GB2312/GBK or Big5, detected; moves in any of
the three notations, whatever the Format tag says; "-" reads standard input) and
writes it as PGN in the xqbase convention in the notation asked for: ICCS
(h2e2), WXF (C2.5) or Chinese (炮二平五). Large files are streamed.

  --to N             iccs (default), wxf or chinese (zh)
  -o, --output FILE  write there instead of standard output (UTF-8)
  --wxf-style S      official (C2.5, R+.3; default) or fullwidth (Ｃ２＝５, ＋Ｒ＝３)
  --black-digits D   Black's numbers in Chinese: fullwidth (１, default) or ascii

A game that cannot be read is reported on standard error with its number, its
players and the ply and text of the move; the other games are still converted.
Exit status 0 when every game converted, 2 when a game or the file could not be read.`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        to: { type: 'string' },
        output: { type: 'string', short: 'o' },
        'wxf-style': { type: 'string' },
        'black-digits': { type: 'string' },
      },
      allowPositionals: true,
    });
    if (positionals.length !== 1)
      throw new UsageError('convert takes one input file (see xqboard convert --help)');
    const notation = notationOption(values.to, 'iccs');
    const style = styleOption(values['wxf-style'], values['black-digits']);
    const input = positionals[0]!;
    if (input !== '-') {
      let isDir = false;
      try {
        isDir = statSync(input).isDirectory();
      } catch (e) {
        io.err(`xqboard convert: cannot read ${input}: ${(e as Error).message}`);
        return 2;
      }
      if (isDir) {
        io.err(`xqboard convert: cannot read ${input}: it is a directory (give a PGN file)`);
        return 2;
      }
    }
    const source = input === '-' ? process.stdin : createReadStream(input);
    const opened = new Promise<void>((resolve, reject) => {
      source.once('error', reject);
      if (source === process.stdin) resolve();
      else source.once('open', () => resolve());
    });
    try {
      await opened;
    } catch (e) {
      io.err(`xqboard convert: cannot read ${input}: ${(e as Error).message}`);
      return 2;
    }
    // The output is opened before anything is read: a path that cannot be written is said at once.
    let out: WriteStream | undefined;
    let outFailed: Error | undefined;
    if (values.output) {
      const stream = createWriteStream(values.output);
      stream.on('error', (e) => {
        outFailed ??= e;
      });
      try {
        await new Promise<void>((resolve, reject) => {
          stream.once('open', () => resolve());
          stream.once('error', reject);
        });
      } catch (e) {
        if (source !== process.stdin) (source as { destroy(): void }).destroy();
        io.err(`xqboard convert: cannot write ${values.output}: ${(e as Error).message}`);
        return 2;
      }
      out = stream;
    }
    let converted = 0;
    let failed = 0;
    let encoding = '';
    try {
      for await (const game of readPgnStream(source, (e) => {
        encoding = e;
      })) {
        if (outFailed) break;
        if (!game.ok) {
          failed++;
          io.err(`xqboard convert: ${input}: ${game.error.message}`);
          continue;
        }
        const text = writePgn(game.value, { notation, style });
        if (out) await write(out, (converted ? '\n' : '') + text, () => outFailed);
        else io.out((converted ? '\n' : '') + text.replace(/\n$/, ''));
        converted++;
      }
    } catch (e) {
      out?.destroy();
      io.err(`xqboard convert: cannot read ${input}: ${(e as Error).message}`);
      return 2;
    }
    if (out && !outFailed) {
      const stream = out;
      // Written to the end (finish) or failed (error): success is said only after the former.
      await new Promise<void>((resolve) => {
        stream.once('finish', () => resolve());
        stream.once('error', (e) => {
          outFailed ??= e;
          resolve();
        });
        stream.end();
      });
    }
    if (outFailed) {
      out?.destroy();
      io.err(`xqboard convert: cannot write ${values.output}: ${outFailed.message}`);
      return 2;
    }
    io.err(
      `converted ${converted} game(s) to ${notation}${failed ? `, ${failed} unreadable` : ''} (${input}: ${encoding || 'empty'})`,
    );
    return failed ? 2 : 0;
  },
};
