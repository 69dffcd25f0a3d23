/**
 * Reads a whole file that a person named (a configuration, a sensor log), with a size cap: a device
 * that never ends (`/dev/zero`) or a huge file given by mistake is refused instead of filling memory.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The bytes, or `undefined` when there are more than `limit`. Throws what the system says. */
export function readFileCapped(path: string, limit: number): Buffer | undefined {
  const fd = openSync(path, 'r');
  try {
    if (fstatSync(fd).isDirectory()) throw Object.assign(new Error('it is a directory'), { code: 'EISDIR' });
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, limit + 1 - size));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) return Buffer.concat(chunks, size);
      chunks.push(chunk.subarray(0, n));
      size += n;
      if (size > limit) return undefined;
    }
  } finally {
    closeSync(fd);
  }
}
