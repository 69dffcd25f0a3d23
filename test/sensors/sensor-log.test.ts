import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultSetup, INITIAL_FEN, parseFen } from '../../src/rules/index.js';
import {
  makeSensorLog,
  makeSensorLogLines,
  parseSensorLog,
  readSensorLogLines,
  readSensorLogLinesSync,
  type SensorLogEvent,
  type SensorLogHeader,
  SensorLogWriter,
} from '../../src/sensors/sensor-log.js';
import { cellsOf, EMPTY_CELLS, makeOcc } from '../../src/sensors/snapshot.js';
import { readShared } from '../helpers/shared.js';

const EXAMPLES = ['example-occupancy', 'example-occupancy-2', 'example-colour-buttons'] as const;
const START_OCC = makeOcc(cellsOf(defaultSetup().board, 'occupancy'));
const START_COLOUR = makeOcc(cellsOf(defaultSetup().board, 'colour'));

describe('the example logs', () => {
  for (const name of EXAMPLES) {
    it(`${name} parses, with times that never decrease`, () => {
      const text = readShared(`data/sensor-logs/${name}.jsonl`);
      const log = parseSensorLog(text);
      if (!log.ok) throw new Error(log.error.message);
      const { header, events } = log.value;
      expect(log.value.hasHeader).toBe(true);
      expect(header.sensing).toBe(name.includes('colour') ? 'colour' : 'occupancy');
      expect(log.value.lines).toBe(text.trimEnd().split('\n').length);
      expect(events.length).toBe(log.value.lines - 1);
      for (let i = 1; i < events.length; i++) expect(events[i]!.t).toBeGreaterThanOrEqual(events[i - 1]!.t);
      // Every frame is a full board of the log's alphabet.
      for (const e of events) {
        if (e.type === 'snapshot')
          expect(e.cells).toMatch(header.sensing === 'colour' ? /^[.rb]{90}$/ : /^[.x]{90}$/);
      }
    });

    it(`${name} writes back to the same text`, () => {
      const text = readShared(`data/sensor-logs/${name}.jsonl`);
      const log = parseSensorLog(text);
      if (!log.ok) throw new Error(log.error.message);
      expect(makeSensorLog(log.value.header, log.value.events)).toBe(text);
    });
  }

  it('the colour example has clock buttons, alternating sides', () => {
    const log = parseSensorLog(readShared('data/sensor-logs/example-colour-buttons.jsonl'));
    if (!log.ok) throw new Error(log.error.message);
    const sides = log.value.events.flatMap((e) => (e.type === 'button' ? [e.side] : []));
    expect(sides.length).toBeGreaterThan(10);
    sides.forEach((s, i) => {
      expect(s).toBe(i % 2 === 0 ? 'red' : 'black');
    });
  });

  it('square indices follow ICCS: the first frame of example-occupancy is the start position', () => {
    const log = parseSensorLog(readShared('data/sensor-logs/example-occupancy.jsonl'));
    if (!log.ok) throw new Error(log.error.message);
    const first = log.value.events[0]!;
    expect(first.type === 'snapshot' && first.cells).toBe(cellsOf(defaultSetup().board, 'occupancy'));
  });
});

describe('reading', () => {
  it('a log without a header is occupancy sensing, standard start', () => {
    const log = parseSensorLog(`{"t":0,"occ":"${START_OCC}"}\n{"t":5,"button":"black"}\n`);
    expect(log.ok && log.value).toMatchObject({
      hasHeader: false,
      header: { version: 1, sensing: 'occupancy' },
      lines: 2,
      events: [
        { type: 'snapshot', t: 0, line: 1 },
        { type: 'button', t: 5, side: 'black', line: 2 },
      ],
    });
  });

  it('ignores unknown header keys and lines of unknown type, counting them', () => {
    const text = [
      `{"type":"header","version":1,"sensing":"colour","fen":"${INITIAL_FEN}","board":"b7","firmware":"2.1"}`,
      `{"type":"note","text":"hello"}`,
      `{"t":3,"occ":"${START_COLOUR}"}`,
      `{"type":"link","t":1,"up":false}`,
    ].join('\n');
    const log = parseSensorLog(text);
    expect(log.ok && log.value).toMatchObject({
      header: { version: 1, sensing: 'colour', fen: INITIAL_FEN, board: 'b7' },
      ignoredLines: 2,
      lines: 4,
    });
    expect(log.ok && 'firmware' in log.value.header).toBe(false);
  });

  it('tolerates CRLF, a byte-order mark and blank lines', () => {
    const text = `\ufeff{"type":"header","version":1}\r\n\r\n{"t":0,"occ":"${START_OCC}"}\r\n`;
    const log = parseSensorLog(text);
    expect(log.ok && log.value.events).toEqual([
      { type: 'snapshot', t: 0, cells: cellsOf(defaultSetup().board, 'occupancy'), line: 3 },
    ]);
  });

  it('an empty file is an empty log', () => {
    expect(parseSensorLog('')).toEqual({
      ok: true,
      value: {
        header: { version: 1, sensing: 'occupancy' },
        hasHeader: false,
        events: [],
        ignoredLines: 0,
        lines: 0,
      },
    });
  });

  const HEADER = '{"type":"header","version":1,"sensing":"occupancy"}';
  const COLOUR_HEADER = '{"type":"header","version":1,"sensing":"colour"}';
  const FRAME = `{"t":10,"occ":"${START_OCC}"}`;
  const BAD: [string, string[], string, number][] = [
    ['not JSON', [HEADER, FRAME, '{"t":11,"occ":'], 'not_json', 3],
    ['a JSON array', [HEADER, '[1,2]'], 'not_object', 2],
    ['a JSON string', ['"hello"'], 'not_object', 1],
    ['type not a string', [HEADER, '{"type":3,"t":1}'], 'bad_type', 2],
    ['t missing', [HEADER, `{"occ":"${START_OCC}"}`], 'bad_time', 2],
    ['t a string', [HEADER, `{"t":"10","occ":"${START_OCC}"}`], 'bad_time', 2],
    ['t fractional', [HEADER, `{"t":10.5,"occ":"${START_OCC}"}`], 'bad_time', 2],
    ['t negative', [HEADER, `{"t":-1,"button":"red"}`], 'bad_time', 2],
    ['t decreasing', [HEADER, FRAME, FRAME, `{"t":9,"button":"red"}`], 'time_decreasing', 4],
    ['occ with 9 rows', [HEADER, `{"t":1,"occ":"${START_OCC.slice(10)}"}`], 'bad_occ', 2],
    ['occ with a short row', [HEADER, `{"t":1,"occ":"${START_OCC.slice(1)}"}`], 'bad_occ', 2],
    ['occ not a string', [HEADER, '{"t":1,"occ":90}'], 'bad_occ', 2],
    ['colour letters under occupancy sensing', [HEADER, `{"t":1,"occ":"${START_COLOUR}"}`], 'bad_occ', 2],
    ['x under colour sensing', [COLOUR_HEADER, FRAME], 'bad_occ', 2],
    ['colour letters without a header', [`{"t":1,"occ":"${START_COLOUR}"}`], 'bad_occ', 1],
    ['unknown button', [HEADER, '{"t":1,"button":"white"}'], 'bad_button', 2],
    ['button in upper case', [HEADER, '{"t":1,"button":"RED"}'], 'bad_button', 2],
    ['neither occ nor button', [HEADER, '{"t":1}'], 'unknown_record', 2],
    ['both occ and button', [HEADER, `{"t":1,"button":"red","occ":"${START_OCC}"}`], 'unknown_record', 2],
    ['header not on line 1', [FRAME, HEADER], 'header_not_first', 2],
    ['two headers', [HEADER, HEADER], 'header_not_first', 2],
    ['version 2', ['{"type":"header","version":2}'], 'unsupported_version', 1],
    ['version missing', ['{"type":"header","sensing":"colour"}'], 'unsupported_version', 1],
    ['version a string', ['{"type":"header","version":"1"}'], 'unsupported_version', 1],
    ['sensing "color"', ['{"type":"header","version":1,"sensing":"color"}'], 'bad_sensing', 1],
    ['fen not a FEN', ['{"type":"header","version":1,"fen":"rnbakabnr/9 w"}'], 'bad_header', 1],
    ['fen a number', ['{"type":"header","version":1,"fen":1}'], 'bad_header', 1],
    ['board a number', ['{"type":"header","version":1,"board":7}'], 'bad_header', 1],
  ];

  for (const [what, lines, code, line] of BAD) {
    it(`rejects ${what}: ${code} at line ${line}`, async () => {
      const r = parseSensorLog(lines.join('\n'));
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe(code);
      expect(r.error.line).toBe(line);
      expect(r.error.message).toMatch(new RegExp(`^line ${line}: `));
      // The streaming readers stop at the same error.
      const streamed = [];
      for await (const rec of readSensorLogLines(lines)) streamed.push(rec);
      expect(streamed.at(-1)).toEqual(r);
      expect(streamed.slice(0, -1).every((x) => x.ok)).toBe(true);
      expect([...readSensorLogLinesSync(lines)].at(-1)).toEqual(r);
    });
  }

  it('error messages say what is wrong', () => {
    const r = parseSensorLog(`${HEADER}\n{"t":20,"occ":"${START_OCC}"}\n{"t":19,"button":"red"}`);
    expect(!r.ok && r.error.message).toBe(`line 3: "t" 19 is before the previous line's 20`);
    const occ = parseSensorLog(`${HEADER}\n{"t":1,"occ":"${START_COLOUR}"}`);
    expect(!occ.ok && occ.error.message).toBe(
      `line 2: occ row 10 (rank 0) 'rrrrrrrrr' must be 9 of '.' and 'x' (occupancy sensing)`,
    );
  });

  it('streams from an async iterable of lines', async () => {
    async function* lines() {
      yield HEADER;
      yield FRAME;
      yield '{"t":12,"button":"red"}';
    }
    const out = [];
    for await (const r of readSensorLogLines(lines())) out.push(r.ok ? r.value.type : r.error.code);
    expect(out).toEqual(['header', 'snapshot', 'button']);
  });
});

describe('writing', () => {
  it('writes exactly the format of the spec', () => {
    const lines = makeSensorLogLines({ sensing: 'occupancy', fen: INITIAL_FEN, board: 'board1' }, [
      { type: 'snapshot', t: 1532, cells: cellsOf(defaultSetup().board, 'occupancy') },
      { type: 'button', t: 2210, side: 'red' },
    ]);
    expect(lines).toEqual([
      `{"type":"header","version":1,"sensing":"occupancy","fen":"${INITIAL_FEN}","board":"board1"}`,
      '{"t":1532,"occ":"xxxxxxxxx/........./.x.....x./x.x.x.x.x/........./........./x.x.x.x.x/.x.....x./........./xxxxxxxxx"}',
      '{"t":2210,"button":"red"}',
    ]);
  });

  it('rounds times, clamps them so they never go back, and subtracts the origin', () => {
    const w = new SensorLogWriter({}, { origin: 1000 });
    expect(w.line({ type: 'button', t: 1500.4, side: 'red' })).toBe('{"t":500,"button":"red"}');
    expect(w.line({ type: 'button', t: 1499, side: 'black' })).toBe('{"t":500,"button":"black"}');
    expect(w.line({ type: 'link', t: 1600, up: false, reason: 'unplugged' })).toBe(
      '{"type":"link","t":600,"up":false,"reason":"unplugged"}',
    );
  });

  it('reduces colour readings to occupancy in an occupancy log, and refuses x in a colour log', () => {
    const colour = cellsOf(defaultSetup().board, 'colour');
    expect(
      new SensorLogWriter({ sensing: 'occupancy' }).line({ type: 'snapshot', t: 0, cells: colour }),
    ).toBe(`{"t":0,"occ":"${START_OCC}"}`);
    const occ = cellsOf(defaultSetup().board, 'occupancy');
    expect(() =>
      new SensorLogWriter({ sensing: 'colour' }).line({ type: 'snapshot', t: 0, cells: occ }),
    ).toThrow(TypeError);
    expect(() => new SensorLogWriter().line({ type: 'snapshot', t: 0, cells: EMPTY_CELLS.slice(1) })).toThrow(
      TypeError,
    );
  });

  it('round trip: what is written reads back the same (property)', () => {
    const sensingArb = fc.constantFrom('occupancy' as const, 'colour' as const);
    const fenArb = fc.option(fc.constantFrom(INITIAL_FEN, '4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1'), {
      nil: undefined,
    });
    const boardArb = fc.option(fc.string({ maxLength: 12 }), { nil: undefined });
    const logArb = sensingArb.chain((sensing) => {
      const cellArb = fc
        .array(fc.constantFrom(...(sensing === 'occupancy' ? ['.', 'x'] : ['.', 'r', 'b'])), {
          minLength: 90,
          maxLength: 90,
        })
        .map((cs) => cs.join(''));
      const eventArb = fc.oneof(
        fc.record({ type: fc.constant('snapshot' as const), dt: fc.nat(5000), cells: cellArb }),
        fc.record({
          type: fc.constant('button' as const),
          dt: fc.nat(5000),
          side: fc.constantFrom('red', 'black'),
        }),
      );
      return fc.record({
        sensing: fc.constant(sensing),
        withHeader: sensing === 'colour' ? fc.constant(true) : fc.boolean(),
        fen: fenArb,
        board: boardArb,
        events: fc.array(eventArb, { maxLength: 40 }),
      });
    });
    fc.assert(
      fc.property(logArb, ({ sensing, withHeader, fen, board, events }) => {
        let t = 0;
        const timed = events.map((e) => {
          t += e.dt;
          return e.type === 'snapshot'
            ? { type: 'snapshot' as const, t, cells: e.cells }
            : { type: 'button' as const, t, side: e.side as 'red' | 'black' };
        });
        const header: Partial<SensorLogHeader> | undefined = withHeader ? { sensing, fen, board } : undefined;
        const text = makeSensorLog(header, timed);
        const log = parseSensorLog(text);
        if (!log.ok) throw new Error(log.error.message);
        expect(log.value.hasHeader).toBe(withHeader);
        expect(log.value.header).toEqual(
          withHeader
            ? { version: 1, sensing, ...(fen ? { fen } : {}), ...(board !== undefined ? { board } : {}) }
            : { version: 1, sensing: 'occupancy' },
        );
        const stripped = log.value.events.map(({ line: _line, ...e }) => e);
        expect(stripped).toEqual(timed);
        expect(log.value.events.map((e: SensorLogEvent) => e.line)).toEqual(
          timed.map((_, i) => i + (withHeader ? 2 : 1)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('a FEN of the header is kept verbatim', () => {
    const fen = '4k4/9/9/9/9/9/9/9/9/4K4 b - - 3 40';
    expect(parseFen(fen).ok).toBe(true);
    const log = parseSensorLog(makeSensorLog({ fen }, []));
    expect(log.ok && log.value.header.fen).toBe(fen);
  });
});
