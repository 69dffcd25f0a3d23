/**
 * Fuzzing the readers of files people hand us: the PGN reader (whole text and streamed, any
 * encoding), the configuration loader (YAML + schema), the sensor-log reader, and the journal
 * reader (a journal is read at every start, to resume its game). Inputs are random
 * (bytes, text, soup of the formats' own tokens) and real files from ../shared/data and config/
 * mutated (cut, spliced, duplicated, bytes flipped, tokens inserted). Every input runs in a worker
 * thread with a time limit: a reader that loops is terminated and the test names the input. A
 * reader must answer with a result (ok or an error with a message), never throw.
 *
 * `fuzzTheReaders(runs)` declares the tests: test/record/fuzz.test.ts (unit) runs 100 inputs a
 * reader, test/record/fuzz-long.test.ts (oracle) 2,000; FUZZ_RUNS sets either.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32, encodeRecord } from '../../src/record/journal.js';
import { ROOT } from '../helpers/cli.js';
import { sharedPath } from '../helpers/shared.js';

/** Per input; generous, as the machine is shared (a real input takes milliseconds). */
const LIMIT_MS = 5000;

type Kind = 'pgn' | 'config' | 'sensorLog' | 'journal';

const WORKER = `
import { parentPort } from 'node:worker_threads';
import { decodeText } from './src/record/encoding.ts';
import { readPgn } from './src/record/pgn.ts';
import { readPgnStream } from './src/record/stream.ts';
import { parseConfig } from './src/config/load.ts';
import { parseSensorLog } from './src/sensors/sensor-log.ts';
import { parseJournal } from './src/record/journal.ts';
import { gameOfJournal, pgnOfJournal } from './src/record/archive.ts';
import { main } from './src/cli/main.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Commands run on a folder holding this one file: exit 0 or 2, never a crash (1). */
async function inFolder(name, bytes, commands) {
  const dir = mkdtempSync(join(tmpdir(), 'xqboard-fuzz-'));
  try {
    writeFileSync(join(dir, name), bytes);
    const io = { out() {}, err() {} };
    for (const args of commands(join(dir, name), dir)) {
      const code = await main(args, io);
      if (code !== 0 && code !== 2) return args.join(' ') + ': exit ' + code;
    }
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The archive commands on a folder holding this one journal. */
const archiveCommands = (bytes) =>
  inFolder('fuzz.journal.jsonl', bytes, (_, dir) => [
    ['games', 'list', '--dir', dir],
    ['games', 'list', '--json', '--dir', dir],
    ['games', 'export', '--all', '--dir', dir],
    ['games', 'show', '2', '--dir', dir],
  ]);

const isResult = (r) => r !== null && typeof r === 'object' && typeof r.ok === 'boolean' &&
  (r.ok || (typeof r.error?.message === 'string' && r.error.message.length > 0));

async function* chunks(bytes, size) {
  for (let k = 0; k < bytes.length; k += size) yield bytes.subarray(k, k + size);
}

async function run(kind, bytes) {
  const results = [];
  if (kind === 'pgn') {
    results.push(...readPgn(decodeText(bytes).text));
    for await (const r of readPgnStream(chunks(bytes, 997))) results.push(r);
  } else if (kind === 'config') {
    results.push(parseConfig(Buffer.from(bytes).toString('utf8'), 'fuzz.yaml'));
  } else if (kind === 'journal') {
    // Read as at a start (resuming) and by games list/show/export.
    const state = parseJournal(bytes, 'fuzz.journal.jsonl');
    results.push(state);
    if (state.ok) {
      results.push(gameOfJournal(state.value), pgnOfJournal(state.value));
      const s = state.value.start;
      [s.id.localeCompare('x'), s.startedAt.slice(0, 16), Object.values(s.meta).join()];
    }
  } else {
    const log = parseSensorLog(Buffer.from(bytes).toString('utf8'));
    results.push(log);
    // A log that reads is replayed through the move reader, as xqboard replay does: exit 0 or 2.
    if (log.ok) {
      const problem = await inFolder('fuzz.sensor.jsonl', bytes, (path) => [['replay', path, '--format', 'json']]);
      if (problem) return problem;
    }
  }
  if (kind === 'journal') {
    const problem = await archiveCommands(bytes);
    if (problem) return problem;
  }
  const bad = results.find((r) => !isResult(r));
  return bad === undefined ? undefined : 'not a result: ' + JSON.stringify(bad).slice(0, 200);
}

parentPort.on('message', async ({ kind, bytes }) => {
  try {
    parentPort.postMessage({ problem: await run(kind, Buffer.from(bytes)) });
  } catch (e) {
    parentPort.postMessage({ problem: 'threw: ' + (e && e.stack ? e.stack : String(e)) });
  }
});
`;

let workerFile: string;
let worker: Worker | undefined;

/** Runs one input; a problem (thrown, not a result, or over the time limit) is returned. */
function check(kind: Kind, bytes: Uint8Array): Promise<string | undefined> {
  worker ??= new Worker(workerFile);
  const w = worker;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      w.removeAllListeners('message');
      void w.terminate();
      worker = undefined;
      resolve(`no answer within ${LIMIT_MS} ms (a hang)`);
    }, LIMIT_MS);
    w.once('message', (m: { problem?: string }) => {
      clearTimeout(timer);
      w.removeAllListeners('error');
      resolve(m.problem);
    });
    // The worker itself failed (it could not load): said, not taken for a hang.
    w.once('error', (e) => {
      clearTimeout(timer);
      w.removeAllListeners('message');
      worker = undefined;
      resolve(`the worker failed: ${e.message}`);
    });
    w.postMessage({ kind, bytes });
  });
}

const TOKENS = [
  '{',
  '}',
  '(',
  ')',
  ';',
  '[',
  ']',
  '"',
  '\\',
  '\n',
  '\r\n',
  '\t',
  ' ',
  ':',
  '- ',
  '---',
  '...',
  '&a ',
  '*a',
  '<<: *a',
  '!!binary ',
  '!!js/function ',
  '%YAML 1.2\n',
  '? ',
  '|',
  '>',
  '0',
  '-1',
  '1e309',
  '2147483648',
  '9007199254740993',
  'NaN',
  'null',
  'true',
  '{}',
  '[]',
  '\u0000',
  '\ufeff',
  '\ud800',
  '炮二平五',
  '１',
  '＝',
  '进',
  '1.',
  '1-0',
  '*',
  '$1',
  '[%clk 0:00:01]',
  '[Game "Chinese Chess"]',
  '[FEN "',
  '[Format "WXF"]',
  'h2e2',
  'C2.5',
  'R+.3',
  '{"type":"header","version":1}',
  '{"t":',
  '"occ":"',
  '"col":"',
  '"button":"red"',
  '"t":-5',
  'boards:',
  'source:',
  'driver: serial',
  'heartbeatMs: ',
  'settleMs: ',
  'mqtt:',
  'x-a: &a',
];

/** A journal as the controller writes it: start, sensor lines, moves, a takeback, the end. */
function sampleJournal(): Uint8Array {
  const records = [
    {
      type: 'start',
      v: 1,
      id: '20261201-100000-abcd',
      fen: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
      meta: { Board: 'board1', Red: 'Ann' },
      startedAt: '2026-12-01T10:00:00.000Z',
    },
    { type: 'sensor', lines: ['{"type":"header","version":1}'] },
    { type: 'move', ply: 1, iccs: 'h2e2', t: 1000 },
    { type: 'move', ply: 2, iccs: 'h9g7', t: 2000, clock: 59000 },
    { type: 'retract', ply: 2, t: 2500 },
    { type: 'move', ply: 2, iccs: 'b9c7', t: 3000 },
    { type: 'end', result: '1-0', reason: 'resignation', t: 4000 },
    { type: 'archived', pgn: 'x.pgn', sensorLog: null },
  ];
  return Buffer.from(records.map((r) => encodeRecord(r as never)).join(''));
}

/** The whole lines of the first `bytes` bytes of a file. */
const lines = (file: Uint8Array, bytes: number): Uint8Array =>
  file.subarray(0, Buffer.from(file).lastIndexOf(10, bytes) + 1);
const real = (rel: string): Uint8Array => readFileSync(rel.startsWith('/') ? rel : sharedPath(rel));
const CORPUS: Record<Kind, Uint8Array[]> = {
  pgn: [
    real('data/games/sample15-iccs.pgn'),
    real('data/games/sample15-wxf.pgn'),
    real('data/games/sample15-chinese.pgn'),
    lines(real('data/games/liu-dahua-1125-iccs.pgn'), 16_000),
  ],
  config: [
    'config/default.yaml',
    'config/examples/serial-board.yaml',
    'config/examples/venue-four-boards.yaml',
  ].map((p) => real(join(ROOT, p))),
  journal: [sampleJournal()],
  sensorLog: [
    real('data/sensor-logs/example-occupancy.jsonl'),
    lines(real('data/sensor-logs/example-colour-buttons.jsonl'), 12_000),
  ],
};

const tokenBytes = fc.oneof(
  fc.constantFrom(...TOKENS).map((t) => Buffer.from(t)),
  fc.string({ maxLength: 12 }).map((t) => Buffer.from(t)),
  fc.uint8Array({ maxLength: 8 }),
);

/** One edit of a file; positions are fractions of its length. */
const edit = fc.oneof(
  fc.record({
    op: fc.constant('delete' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    len: fc.nat(400),
  }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    bytes: tokenBytes,
  }),
  fc.record({
    op: fc.constant('dup' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    len: fc.nat(300),
    to: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    op: fc.constant('flip' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    byte: fc.nat(255),
  }),
);
type Edit = typeof edit extends fc.Arbitrary<infer E> ? E : never;

function apply(file: Uint8Array, edits: readonly Edit[]): Uint8Array {
  let b = Buffer.from(file);
  for (const e of edits) {
    const at = Math.floor(e.at * b.length);
    if (e.op === 'delete') b = Buffer.concat([b.subarray(0, at), b.subarray(at + e.len)]);
    else if (e.op === 'insert') b = Buffer.concat([b.subarray(0, at), e.bytes, b.subarray(at)]);
    else if (e.op === 'dup') {
      const to = Math.floor(e.to * b.length);
      b = Buffer.concat([b.subarray(0, to), b.subarray(at, at + e.len), b.subarray(to)]);
    } else if (e.op === 'truncate') b = b.subarray(0, at);
    else if (at < b.length) {
      b = Buffer.from(b);
      b[at] = e.byte;
    }
  }
  return b;
}

/** Every line that has a tab gets the right CRC-32 after its last tab. */
function signLines(bytes: Uint8Array): Uint8Array {
  const lines = Buffer.from(bytes).toString('utf8').split('\n');
  return Buffer.from(
    lines
      .map((l) => {
        const tab = l.lastIndexOf('\t');
        if (tab < 0) return l;
        const json = l.slice(0, tab);
        return `${json}\t${crc32(Buffer.from(json)).toString(16).padStart(8, '0')}`;
      })
      .join('\n'),
  );
}

/** Records of any JSON: a start record first (with any values), then the rest as they come. */
function jsonRecords(values: readonly unknown[]): Uint8Array {
  const [first, ...rest] = values;
  const start =
    typeof first === 'object' && first !== null && !Array.isArray(first)
      ? { type: 'start', ...first }
      : first;
  return Buffer.from([start, ...rest].map((v) => `${JSON.stringify(v)}\t0\n`).join(''));
}

/** A field as the controller writes it, mostly; now and then any JSON at all. */
const field = <T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 5, arbitrary: good }, { weight: 1, arbitrary: fc.jsonValue() });
const journalRecords: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    fc.record({
      type: fc.constant('start'),
      v: field(fc.constant(1)),
      id: field(fc.constantFrom('g1', '20261201-100000-abcd')),
      fen: field(
        fc.constantFrom('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1', 'x'),
      ),
      meta: field(
        fc.dictionary(fc.constantFrom('Board', 'Red', 'Black', 'Event'), fc.string({ maxLength: 5 })),
      ),
      startedAt: field(fc.constantFrom('2026-12-01T10:00:00.000Z', '')),
    }),
    fc.array(
      fc.oneof(
        fc.record(
          {
            type: fc.constant('move'),
            ply: field(fc.integer({ min: 1, max: 4 })),
            iccs: field(fc.constantFrom('h2e2', 'h9g7', 'b0c2', 'i9h9', 'zz99')),
            t: field(fc.nat(10_000)),
            clock: field(fc.nat(60_000)),
          },
          { requiredKeys: ['type', 'ply', 'iccs', 't'] },
        ),
        fc.record({
          type: fc.constant('retract'),
          ply: field(fc.integer({ min: 1, max: 4 })),
          t: field(fc.nat(10_000)),
        }),
        fc.record({
          type: fc.constant('end'),
          result: field(fc.constantFrom('1-0', '0-1', '1/2-1/2', '*')),
          reason: field(fc.constantFrom('resignation', null)),
          t: field(fc.nat(10_000)),
        }),
        fc.record({
          type: fc.constant('sensor'),
          lines: field(fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 })),
        }),
        fc.record({
          type: fc.constant('archived'),
          pgn: field(fc.constant('x.pgn')),
          sensorLog: field(fc.constant(null)),
        }),
      ),
      { maxLength: 8 },
    ),
  )
  .map(([start, rest]) => Buffer.from([start, ...rest].map((r) => encodeRecord(r as never)).join('')));

/**
 * A real sensor log edited line by line (lines dropped, doubled, swapped, times and squares
 * changed): mostly still readable, so the move reader behind `xqboard replay` gets odd play.
 */
const lineEdit = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ op: fc.constant('dup' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    op: fc.constant('swap' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    to: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({
    op: fc.constant('time' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    t: fc.oneof(fc.integer({ min: -1000, max: 1_000_000 }), fc.constantFrom(1e12, 2 ** 53, -0.5, 1.5)),
  }),
  fc.record({
    op: fc.constant('square' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    pos: fc.nat(110),
    c: fc.constantFrom('.', 'x', 'r', 'b', '/', '?'),
  }),
);
const sensorLogLines: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.constantFrom(...CORPUS.sensorLog), fc.array(lineEdit, { minLength: 1, maxLength: 10 }))
  .map(([file, edits]) => {
    const lines = Buffer.from(file).toString('utf8').split('\n');
    for (const e of edits) {
      const i = Math.floor(e.at * lines.length);
      const line = lines[i] ?? '';
      if (e.op === 'drop') lines.splice(i, 1);
      else if (e.op === 'dup') lines.splice(i, 0, line);
      else if (e.op === 'swap') {
        const j = Math.floor(e.to * lines.length);
        [lines[i], lines[j]] = [lines[j] ?? '', line];
      } else if (e.op === 'time') lines[i] = line.replace(/"t":-?[\d.e+]+/, `"t":${e.t}`);
      else {
        const k = line.indexOf('"occ":"') + 7 + e.pos;
        if (k > 7 && k < line.length - 2) lines[i] = line.slice(0, k) + e.c + line.slice(k + 1);
      }
    }
    return Buffer.from(lines.join('\n'));
  });

const inputs = (kind: Kind): fc.Arbitrary<Uint8Array> =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...CORPUS[kind]), fc.array(edit, { minLength: 1, maxLength: 6 }))
        .map(([f, es]) => apply(f, es)),
    },
    // A journal's lines carry a checksum: the edited lines are signed again, so that the reader
    // gets past the checksum to records that are wrong inside (a start whose id is a number…).
    ...(kind === 'journal'
      ? [
          {
            weight: 3,
            arbitrary: fc
              .tuple(fc.constantFrom(...CORPUS[kind]), fc.array(edit, { minLength: 1, maxLength: 6 }))
              .map(([f, es]) => signLines(apply(f, es))),
          },
          {
            weight: 2,
            arbitrary: fc.array(fc.jsonValue(), { maxLength: 8 }).map((vs) => signLines(jsonRecords(vs))),
          },
          { weight: 4, arbitrary: journalRecords },
        ]
      : []),
    ...(kind === 'sensorLog' ? [{ weight: 4, arbitrary: sensorLogLines }] : []),
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 3000 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 2000 }).map((s) => Buffer.from(s)) },
    { weight: 2, arbitrary: fc.array(tokenBytes, { maxLength: 200 }).map((ts) => Buffer.concat(ts)) },
  );

/** The fuzzing tests, `runs` random inputs a reader (FUZZ_RUNS instead, when it is set). */
export function fuzzTheReaders(wanted: number): void {
  const runs = Number(process.env.FUZZ_RUNS ?? wanted);
  beforeAll(async () => {
    workerFile = join(tmpdir(), `xqboard-fuzz-worker-${process.pid}.mjs`);
    await build({
      stdin: { contents: WORKER, resolveDir: ROOT, loader: 'js', sourcefile: 'fuzz-worker.js' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: workerFile,
      logLevel: 'error',
      // CommonJS dependencies bundled into ESM need a require.
      banner: {
        js: "import { createRequire as xqCreateRequire } from 'node:module'; const require = xqCreateRequire(import.meta.url);",
      },
    });
  });
  afterAll(async () => {
    await worker?.terminate();
    if (workerFile) rmSync(workerFile, { force: true });
  });

  describe.each(['pgn', 'config', 'sensorLog', 'journal'] as const)('fuzzing the %s reader', (kind) => {
    it('answers every input with a result, in time, and never throws', async () => {
      // The real files themselves read cleanly through the same worker.
      for (const file of CORPUS[kind]) expect(await check(kind, file)).toBeUndefined();
      await fc.assert(
        fc.asyncProperty(inputs(kind), async (bytes) => {
          const problem = await check(kind, bytes);
          if (problem)
            throw new Error(
              `${problem}\ninput (${bytes.length} bytes): ${JSON.stringify(Buffer.from(bytes).toString('latin1').slice(0, 600))}`,
            );
        }),
        { numRuns: runs, endOnFailure: true },
      );
    }, 300_000);
  });
}
