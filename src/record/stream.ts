/**
 * Streaming PGN reader for large files: games come one at a time from an async iterator while the
 * file is read in chunks, so memory stays flat whatever the file's size. The encoding is detected
 * from the first 64 KiB.
 */
import { createReadStream } from 'node:fs';
import type { Result } from '../util/result.js';
import { chunkDecoder, detectEncoding, type TextEncodingName } from './encoding.js';
import { GameSplitter, type PgnError, type PgnGame, parseGame } from './pgn.js';

const SNIFF_BYTES = 64 * 1024;
/** No PGN has a line or a game this long: a device or a binary file given by mistake (`/dev/zero`). */
export const MAX_LINE_CHARS = 1024 * 1024;
export const MAX_GAME_CHARS = 8 * 1024 * 1024;

/** Lines of a byte stream in a detected encoding. */
async function* decodedLines(
  source: AsyncIterable<Uint8Array>,
  onEncoding?: (e: TextEncodingName) => void,
): AsyncGenerator<string> {
  let head: Uint8Array[] = [];
  let headBytes = 0;
  let decoder: ReturnType<typeof chunkDecoder> | undefined;
  let pending = '';
  const start = (): string => {
    const all = Buffer.concat(head);
    head = [];
    const encoding = detectEncoding(all);
    onEncoding?.(encoding);
    decoder = chunkDecoder(encoding);
    return decoder.write(all);
  };
  for await (const chunk of source) {
    let text: string;
    if (decoder) text = decoder.write(chunk);
    else {
      head.push(chunk);
      headBytes += chunk.byteLength;
      if (headBytes < SNIFF_BYTES) continue;
      text = start();
    }
    pending += text;
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? '';
    if (pending.length > MAX_LINE_CHARS) {
      throw new Error(`a line longer than ${MAX_LINE_CHARS} characters: not a PGN file`);
    }
    yield* lines;
  }
  if (!decoder) pending += start();
  pending += decoder!.end();
  yield* pending.split(/\r?\n/);
}

/** Games of a PGN byte stream, each read on its own (one bad game does not stop the rest). */
export async function* readPgnStream(
  source: AsyncIterable<Uint8Array>,
  onEncoding?: (e: TextEncodingName) => void,
): AsyncGenerator<Result<PgnGame, PgnError>> {
  const splitter = new GameSplitter();
  let index = 0;
  let size = 0;
  for await (const line of decodedLines(source, onEncoding)) {
    const done = splitter.push(line);
    size = done === undefined ? size + line.length + 1 : line.length + 1;
    if (size > MAX_GAME_CHARS) {
      throw new Error(`game ${index + 1} is longer than ${MAX_GAME_CHARS} characters: not a PGN game`);
    }
    if (done !== undefined) yield parseGame(done, ++index);
  }
  const last = splitter.end();
  if (last !== undefined) yield parseGame(last, ++index);
}

/** Games of a PGN file, streamed. */
export const readPgnFile = (
  path: string,
  onEncoding?: (e: TextEncodingName) => void,
): AsyncGenerator<Result<PgnGame, PgnError>> =>
  readPgnStream(createReadStream(path, { highWaterMark: 64 * 1024 }), onEncoding);
