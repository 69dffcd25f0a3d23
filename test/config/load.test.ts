import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig, formatKeyPath, loadConfig, parseConfig } from '../../src/config/load.js';
import { scratchDir } from '../helpers/scratch.js';

const CONFIG_DIR = new URL('../../config/', import.meta.url).pathname;

describe('the shipped configuration files', () => {
  it('default.yaml is exactly the defaults', () => {
    const r = loadConfig(`${CONFIG_DIR}default.yaml`);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value).toEqual(defaultConfig());
  });

  it('with no file: one simulated board, the embedded broker, the web page', () => {
    const r = loadConfig();
    expect(r.ok && r.value).toMatchObject({
      boards: [{ id: 'board1', source: { driver: 'simulator', sensing: 'occupancy' } }],
      mqtt: { embedded: true, port: 1883, baseTopic: 'xqboard' },
      game: { takebacks: true, illegalMovePolicy: 'casual', moveLimitPlies: 120 },
      archive: { dir: './data/games' },
      web: { enabled: true },
    });
    expect(r.ok && r.value.boards).toHaveLength(1);
  });

  it('the venue example has four serial boards with WLED and an external broker', () => {
    const r = loadConfig(`${CONFIG_DIR}examples/venue-four-boards.yaml`);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.boards.map((b) => b.id)).toEqual(['table1', 'table2', 'table3', 'table4']);
    for (const b of r.value.boards) {
      expect(b.source).toMatchObject({ driver: 'serial', sensing: 'colour', baudRate: 115200 });
      expect(b.leds).toMatchObject({ driver: 'wled', topic: `wled/${b.id}` });
    }
    expect(r.value.mqtt).toMatchObject({ embedded: false, url: 'mqtt://127.0.0.1:1883' });
    expect(r.value.game).toMatchObject({ takebacks: false, illegalMovePolicy: 'tournament' });
    expect(r.value.game.clock?.periods).toEqual([
      { moves: 40, minutes: 90, incrementSeconds: 30 },
      { minutes: 30, incrementSeconds: 30 },
    ]);
  });

  it('the serial and johnny-five examples load', () => {
    const serial = loadConfig(`${CONFIG_DIR}examples/serial-board.yaml`);
    expect(serial.ok && serial.value.boards[0]!.source).toEqual({
      driver: 'serial',
      port: '/dev/ttyACM0',
      baudRate: 115200,
      sensing: 'colour',
    });
    const j5 = loadConfig(`${CONFIG_DIR}examples/johnny-five.yaml`);
    expect(j5.ok && j5.value.boards[0]!.source).toEqual({
      driver: 'johnny-five',
      port: '/dev/ttyUSB0',
      baudRate: 57600,
      sensing: 'occupancy',
      addresses: [0x20, 0x21, 0x22, 0x23, 0x24, 0x25],
      buttons: { red: 2, black: 3 },
      heartbeatMs: 1000,
    });
  });
});

describe('good files', () => {
  it('an empty file is the defaults', () => {
    expect(parseConfig('')).toEqual({ ok: true, value: defaultConfig() });
    expect(parseConfig('# nothing\n')).toEqual({ ok: true, value: defaultConfig() });
  });

  it('fills defaults inside what is given', () => {
    const r = parseConfig(
      'boards:\n  - id: r1\n    source: { driver: replay, file: game.jsonl }\nweb: { port: 9000 }\n',
    );
    expect(r.ok && r.value.boards[0]!.source).toEqual({ driver: 'replay', file: 'game.jsonl', speed: 1 });
    expect(r.ok && r.value.web).toEqual({ enabled: true, port: 9000 });
  });

  it('accepts a simulator starting from a FEN or empty', () => {
    const r = parseConfig(
      'boards:\n  - { id: a, source: { driver: simulator, position: empty } }\n' +
        '  - { id: b, source: { driver: simulator, sensing: colour, position: "4k4/9/9/9/9/9/9/9/9/4K4 w" } }\n',
    );
    expect(r.ok && r.value.boards.map((b) => b.source)).toEqual([
      { driver: 'simulator', sensing: 'occupancy', heartbeatMs: 1000, position: 'empty' },
      { driver: 'simulator', sensing: 'colour', heartbeatMs: 1000, position: '4k4/9/9/9/9/9/9/9/9/4K4 w' },
    ]);
  });
});

describe('bad files: the error names the file, the line and the key', () => {
  const BAD: { what: string; yaml: string; code: string; line?: number; path: string; message: RegExp }[] = [
    {
      what: 'an unknown top-level key',
      yaml: 'web:\n  port: 8080\nmqqt:\n  port: 1\n',
      code: 'invalid',
      line: 3,
      path: 'mqqt',
      message: /unknown key "mqqt"/,
    },
    {
      what: 'an unknown nested key',
      yaml: 'boards:\n  - id: a\n    source:\n      driver: serial\n      port: /dev/x\n      baud: 9600\n',
      code: 'invalid',
      line: 6,
      path: 'boards[0].source.baud',
      message: /unknown key "baud"/,
    },
    {
      what: 'a missing required key',
      yaml: 'boards:\n  - id: a\n    source:\n      driver: serial\n',
      code: 'invalid',
      line: 3,
      path: 'boards[0].source.port',
      message: /is required/,
    },
    {
      what: 'an unknown driver',
      yaml: 'boards:\n  - id: a\n    source:\n      driver: bluetooth\n',
      code: 'invalid',
      line: 4,
      path: 'boards[0].source.driver',
      message: /must be one of "simulator", "serial", "johnny-five", "replay"/,
    },
    {
      what: 'a bad sensing kind',
      yaml: 'boards:\n  - id: a\n    source: { driver: simulator, sensing: color }\n',
      code: 'invalid',
      line: 3,
      path: 'boards[0].source.sensing',
      message: /must be "occupancy" or "colour", got "color"/,
    },
    {
      what: 'a value of the wrong type',
      yaml: 'mqtt:\n  embedded: yes please\n',
      code: 'invalid',
      line: 2,
      path: 'mqtt.embedded',
      message: /expected a boolean, got "yes please"/,
    },
    {
      what: 'a port out of range',
      yaml: 'web:\n  port: 70000\n',
      code: 'invalid',
      line: 2,
      path: 'web.port',
      message: /65535/,
    },
    {
      what: 'a list where a mapping belongs',
      yaml: 'game:\n  - takebacks\n',
      code: 'invalid',
      line: 1,
      path: 'game',
      message: /expected a mapping, got a list/,
    },
    {
      what: 'duplicate board ids',
      yaml: 'boards:\n  - { id: t1, source: { driver: simulator } }\n  - { id: t1, source: { driver: simulator } }\n',
      code: 'invalid',
      line: 3,
      path: 'boards[1].id',
      message: /board id "t1" is already used by boards\[0\]/,
    },
    {
      what: 'two boards on one serial port',
      yaml:
        'boards:\n  - { id: a, source: { driver: serial, port: /dev/ttyACM0 } }\n' +
        '  - { id: b, source: { driver: serial, port: /dev/ttyACM0 } }\n',
      code: 'invalid',
      line: 3,
      path: 'boards[1].source.port',
      message: /already used by boards\[0\]/,
    },
    {
      what: 'a board id unfit for MQTT topics',
      yaml: 'boards:\n  - { id: "table/1", source: { driver: simulator } }\n',
      code: 'invalid',
      line: 2,
      path: 'boards[0].id',
      message: /letters, digits/,
    },
    {
      what: 'no boards',
      yaml: 'boards: []\n',
      code: 'invalid',
      line: 1,
      path: 'boards',
      message: /at least 1|>=1/,
    },
    {
      what: 'an external broker without a url',
      yaml: 'mqtt:\n  embedded: false\n',
      code: 'invalid',
      line: 1,
      path: 'mqtt.url',
      message: /is required when the broker is not embedded/,
    },
    {
      what: 'sudden death before the last period',
      yaml: 'game:\n  clock:\n    periods:\n      - minutes: 5\n      - { moves: 40, minutes: 90 }\n',
      code: 'invalid',
      line: 4,
      path: 'game.clock.periods[0].moves',
      message: /only the last period may be sudden death/,
    },
    {
      what: 'an unknown illegal-move policy',
      yaml: 'game:\n  illegalMovePolicy: strict\n',
      code: 'invalid',
      line: 2,
      path: 'game.illegalMovePolicy',
      message: /must be "casual" or "tournament", got "strict"/,
    },
    {
      what: 'a simulator position that is not a FEN',
      yaml: 'boards:\n  - id: a\n    source: { driver: simulator, position: "rnbakabnr/9" }\n',
      code: 'invalid',
      line: 3,
      path: 'boards[0].source.position',
      message: /must be "empty" or a FEN/,
    },
    {
      what: 'YAML that does not parse',
      yaml: 'web:\n  port: [8080\n',
      code: 'yaml',
      line: 3,
      path: '',
      message: /not valid YAML/,
    },
    {
      what: 'a key given twice',
      yaml: 'web:\n  port: 1\n  port: 2\n',
      code: 'yaml',
      line: 3,
      path: '',
      message: /not valid YAML: Map keys must be unique/,
    },
  ];

  const dir = scratchDir('xqboard-config-');
  for (const c of BAD) {
    it(`${c.what}: ${c.code} at line ${c.line} ${c.path}`, () => {
      const file = join(dir, `${c.what.replaceAll(' ', '-')}.yaml`);
      writeFileSync(file, c.yaml);
      const r = loadConfig(file);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe(c.code);
      expect(r.error.file).toBe(file);
      const issue = r.error.issues[0]!;
      expect(issue.line).toBe(c.line);
      expect(issue.path.length === 0 ? '' : formatKeyPath(issue.path)).toBe(c.path);
      expect(issue.message).toMatch(c.message);
      const prefix = `${file}:${c.line}: ${c.path === '' ? '' : `${c.path}: `}`;
      expect(r.error.message.split('\n')[0]!.startsWith(prefix)).toBe(true);
    });
  }

  it('lists every problem, not only the first', () => {
    const r = parseConfig('web: { port: x }\nmqtt: { wsPort: -1, extra: 1 }\n', 'many.yaml');
    expect(!r.ok && r.error.message.split('\n')).toEqual([
      'many.yaml:1: web.port: expected a number, got "x"',
      expect.stringMatching(/^many\.yaml:2: mqtt\.wsPort: /),
      'many.yaml:2: mqtt.extra: unknown key "extra"',
    ]);
  });

  it('a file that cannot be read', () => {
    const r = loadConfig(join(dir, 'nope.yaml'));
    expect(!r.ok && r.error).toMatchObject({ code: 'unreadable', file: join(dir, 'nope.yaml') });
    expect(!r.ok && r.error.message).toMatch(/nope\.yaml: cannot read the file/);
  });
});

describe('YAML conveniences', () => {
  it('x- keys hold anchors that boards merge with <<', () => {
    const r = parseConfig(
      'x-board: &b { driver: serial, sensing: colour }\nboards:\n  - id: t1\n    source: { <<: *b, port: /dev/a }\n',
    );
    expect(r.ok && r.value.boards[0]!.source).toEqual({
      driver: 'serial',
      port: '/dev/a',
      baudRate: 115200,
      sensing: 'colour',
    });
  });
});
