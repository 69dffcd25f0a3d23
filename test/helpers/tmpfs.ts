/** A small tmpfs to fill up (the tests run as root in CI): a real full disk, ENOSPC and short writes. */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function mountTmpfs(dir: string, bytes = 256 * 1024): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

export function unmount(dir: string): void {
  execFileSync('umount', ['-l', dir]);
}

/** Whether this process may mount a tmpfs (tried once, on a scratch folder). */
export function canMountTmpfs(): boolean {
  const probe = mkdtempSync(join(tmpdir(), 'xqboard-tmpfs-probe-'));
  const can = mountTmpfs(probe);
  if (can) unmount(probe);
  rmSync(probe, { recursive: true, force: true });
  return can;
}

/**
 * Takes every free byte of the tmpfs mounted on `mnt` with a filler file; `free()` gives them
 * back. What is left in the last page of each open file can still be written.
 */
export function fillTmpfs(mnt: string): { free(): void } {
  const path = join(mnt, 'filler');
  const fd = openSync(path, 'a');
  const page = Buffer.alloc(4096, 0x78);
  for (const size of [4096, 1]) {
    try {
      for (;;) writeSync(fd, page, 0, size);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
    }
  }
  closeSync(fd);
  return { free: () => rmSync(path, { force: true }) };
}
