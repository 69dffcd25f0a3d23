/**
 * Text encodings of game files. New files are UTF-8; old Chinese files are GB2312/GBK (read as
 * GB18030, their superset) or Big5. Detection: valid UTF-8 first; otherwise the decoding that
 * yields the most characters a xiangqi record uses (pieces, moves, results) and the fewest
 * undecodable bytes wins.
 */
import iconv from 'iconv-lite';

export type TextEncodingName = 'utf-8' | 'gb18030' | 'big5';

/** Characters that xiangqi records are made of, simplified and traditional. */
const XIANGQI_CHARS = new Set(
  [
    '帅帥将將仕士相象马馬傌车車俥炮砲包兵卒',
    '进進退平前后後中',
    '一二三四五六七八九',
    '红紅黑先胜勝负負和局棋赛賽象棋杯届屆第轮輪全国國冠军軍锦標标',
  ].join(''),
);

function score(text: string): number {
  let s = 0;
  for (const ch of text) {
    if (XIANGQI_CHARS.has(ch)) s += 1;
    else if (ch === '\ufffd') s -= 5;
  }
  return s;
}

/** Is `bytes` valid UTF-8, allowing a multi-byte character cut at the end of a sample? */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Picks the encoding of a file from its first bytes (64 KiB is plenty). */
export function detectEncoding(sample: Uint8Array): TextEncodingName {
  if (isUtf8(sample)) return 'utf-8';
  const buf = Buffer.from(sample.buffer, sample.byteOffset, sample.byteLength);
  const gb = score(iconv.decode(buf, 'gb18030'));
  const big5 = score(iconv.decode(buf, 'big5'));
  return big5 > gb ? 'big5' : 'gb18030';
}

/** A whole file's bytes as text, with the encoding it was read in. A UTF-8 BOM is dropped. */
export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
  const encoding = detectEncoding(bytes);
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = encoding === 'utf-8' ? new TextDecoder('utf-8').decode(buf) : iconv.decode(buf, encoding);
  return { text: text.replace(/^\ufeff/, ''), encoding };
}

/** An incremental decoder: `write` chunks, then `end`. */
export interface ChunkDecoder {
  write(chunk: Uint8Array): string;
  end(): string;
}

export function chunkDecoder(encoding: TextEncodingName): ChunkDecoder {
  if (encoding === 'utf-8') {
    const d = new TextDecoder('utf-8');
    let first = true;
    return {
      write(chunk) {
        let s = d.decode(chunk, { stream: true });
        if (first && s.length > 0) {
          s = s.replace(/^\ufeff/, '');
          first = false;
        }
        return s;
      },
      end: () => d.decode(),
    };
  }
  const d = iconv.getDecoder(encoding);
  return {
    write: (chunk) => d.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)),
    end: () => d.end() ?? '',
  };
}
