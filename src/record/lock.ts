/**
 * One controller per archive folder: `xqboard.lock` in the folder names the process that holds it
 * (pid, host, since when). A second controller on the same folder is refused with that name
 * instead of resuming the first one's live game and appending to its journal. A lock left by a
 * process that is gone (on this host) is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import { writeAll } from './journal.js';

export const LOCK_FILE = 'xqboard.lock';

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

export interface ArchiveLockError extends CodedError<'archive_locked' | 'lock_failed'> {
  readonly holder?: LockHolder;
}

export interface ArchiveLock {
  readonly path: string;
  release(): void;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, owned by someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function readHolder(path: string): LockHolder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    return typeof h.pid === 'number'
      ? { pid: h.pid, host: String(h.host ?? '?'), since: String(h.since ?? '?') }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the folder's lock (creating the folder), or says who holds it. */
export function lockArchive(dir: string): Result<ArchiveLock, ArchiveLockError> {
  const path = join(dir, LOCK_FILE);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    return err({ code: 'lock_failed', message: `cannot create ${dir}: ${(e as Error).message}` });
  }
  const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        return err({ code: 'lock_failed', message: `cannot lock ${dir}: ${(e as Error).message}` });
      }
      const holder = readHolder(path);
      const stale = holder !== undefined && holder.host === me.host && !alive(holder.pid);
      // A lock being written right now has no holder yet: it is held.
      if (!stale) {
        const who = holder
          ? `process ${holder.pid} on ${holder.host} (since ${holder.since})`
          : 'another process';
        return err({
          code: 'archive_locked',
          message: `the archive ${dir} is in use by ${who}: one controller per archive (stop it, or give this one another archive.dir / --archive)`,
          ...(holder ? { holder } : {}),
        });
      }
      rmSync(path, { force: true });
      continue;
    }
    try {
      writeAll(fd, `${JSON.stringify(me)}\n`);
    } catch (e) {
      // A lock that names nobody (a full disk) would be taken for one being written: none is left.
      closeSync(fd);
      rmSync(path, { force: true });
      return err({ code: 'lock_failed', message: `cannot lock ${dir}: ${(e as Error).message}` });
    }
    closeSync(fd);
    let held = true;
    return ok({
      path,
      release() {
        if (!held) return;
        held = false;
        // Only our own lock is removed (never one taken over after we were thought gone).
        if (readHolder(path)?.pid === me.pid && readHolder(path)?.since === me.since)
          rmSync(path, { force: true });
      },
    });
  }
  return err({ code: 'lock_failed', message: `cannot lock ${dir}` });
}
