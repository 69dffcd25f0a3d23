/**
 * The service log (pino behind src/util/log.ts): JSON lines off a terminal, readable lines on one,
 * the level obeyed, every line of a board with its id, nothing lost at once after a write.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { createLogger } from '../../src/util/log.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-log-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Logs through a logger on a file and reads the file back at once (no flush, no wait). */
function written(
  options: Parameters<typeof createLogger>[0],
  log: (l: ReturnType<typeof createLogger>) => void,
) {
  const file = join(dir, 'log.txt');
  const fd = openSync(file, 'w');
  try {
    log(createLogger({ ...options, fd }));
    return readFileSync(file, 'utf8');
  } finally {
    closeSync(fd);
  }
}

describe('createLogger', () => {
  it('writes one JSON line per event, with the board of a child logger and the fields given', () => {
    const text = written({ level: 'info' }, (log) => {
      log.info('MQTT broker on port 1883', { port: 1883 });
      log.child({ board: 'board1' }).warn('link down; retrying in 500 ms');
      log.debug('below the level');
    });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((l) => JSON.parse(l));
    expect(first).toMatchObject({ level: 30, msg: 'MQTT broker on port 1883', port: 1883, pid: process.pid });
    expect(typeof first.time).toBe('number');
    expect(second).toMatchObject({ level: 40, board: 'board1', msg: 'link down; retrying in 500 ms' });
  });

  it('obeys the level: warn drops info and debug, debug keeps them', () => {
    const lines = (level: 'warn' | 'debug') =>
      written({ level }, (log) => {
        log.debug('d');
        log.info('i');
        log.error('e');
      })
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).msg);
    expect(lines('warn')).toEqual(['e']);
    expect(lines('debug')).toEqual(['d', 'i', 'e']);
  });

  it('writes readable lines when asked (a terminal): level, board and message, no JSON', () => {
    const text = written({ level: 'info', pretty: true }, (log) => {
      log.child({ board: 'board2' }).error('cannot resume the journal');
    });
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] ERROR: board board2: cannot resume the journal\n$/);
  });
});

describe('log.level in the configuration', () => {
  it('defaults to info and refuses a level pino does not have, naming the key', () => {
    const defaults = loadConfig(undefined);
    expect(defaults.ok && defaults.value.log.level).toBe('info');
    const file = join(dir, 'c.yaml');
    writeFileSync(file, 'log:\n  level: loud\n');
    const bad = loadConfig(file);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error.message).toMatch(/c\.yaml:2: log\.level/);
  });
});
