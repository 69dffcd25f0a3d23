/**
 * `xqboard perft` (../shared/spec/cli.md): the real built command line for the leaf count and for
 * missing arguments (exit status and streams), the command's own `main` in this process for the rest.
 */
import { describe, expect, it } from 'vitest';
import { makeIccs, Position } from '../../src/rules/index.js';
import { xqboard, xqboardHere } from '../helpers/cli.js';

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

describe('xqboard perft', () => {
  it('prints the leaf count as the last line', () => {
    const r = xqboard('perft', START, '3');
    expect(r.status).toBe(0);
    expect(r.lines.at(-1)).toBe('79666');
    expect(r.stderr).toBe('');
  });

  it('takes "startpos", FENs without counters, and Black to move', async () => {
    expect((await xqboardHere('perft', 'startpos', '2')).lines.at(-1)).toBe('1920');
    expect(
      (await xqboardHere('perft', '5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w', '3')).lines.at(-1),
    ).toBe('9850');
    expect(
      (
        await xqboardHere('perft', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b', '1')
      ).lines.at(-1),
    ).toBe('45');
    expect((await xqboardHere('perft', START, '0')).lines.at(-1)).toBe('1');
  });

  it('--divide prints one "h2e2: N" line per legal move, then the total', async () => {
    const r = await xqboardHere('perft', START, '2', '--divide');
    expect(r.status).toBe(0);
    const rows = r.lines.slice(0, -1);
    expect(r.lines.at(-1)).toBe('1920');
    for (const row of rows) expect(row).toMatch(/^[a-i][0-9][a-i][0-9]: \d+$/);
    const moves = rows.map((row) => row.split(':')[0]).sort();
    expect(moves).toEqual(
      Position.default()
        .legalMoves()
        .map((m) => makeIccs(m))
        .sort(),
    );
    expect(rows.reduce((sum, row) => sum + Number(row.split(': ')[1]), 0)).toBe(1920);
    // After h2e2 Black has 45 replies (Fairy-Stockfish counts the same).
    expect(rows).toContain('h2e2: 45');
  });

  it('--json prints one line {"nodes":N,"ms":T}', async () => {
    const r = await xqboardHere('perft', START, '3', '--json');
    expect(r.status).toBe(0);
    expect(r.lines).toHaveLength(1);
    const out = JSON.parse(r.lines[0]!) as { nodes: number; ms: number };
    expect(Object.keys(out)).toEqual(['nodes', 'ms']);
    expect(out.nodes).toBe(79666);
    expect(typeof out.ms).toBe('number');
    expect(out.ms).toBeGreaterThanOrEqual(0);
    const both = await xqboardHere('perft', START, '2', '--divide', '--json');
    expect(JSON.parse(both.lines.at(-1)!).nodes).toBe(1920);
  });

  it('exits 2 with a clear message for a FEN that is not a legal position', async () => {
    const cases: [string, RegExp][] = [
      ['4k4/9/9/9/9/9/9/9/9/4K4 w', /kings_facing.*e file/],
      ['3k5/9/9/9/9/9/9/9/9/3RK4 w', /opponent_in_check.*black general on d9/],
      ['rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w', /rows.*9 rows/],
      ['rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5Q1/9/RNBAKABNR w', /piece.*'Q'.*row 8/],
      [`${START.replace(' w ', ' x ')}`, /turn/],
      ['', /empty/],
    ];
    for (const [fen, message] of cases) {
      const r = await xqboardHere('perft', fen, '2');
      expect(r.status, fen).toBe(2);
      expect(r.stdout, fen).toBe('');
      expect(r.stderr, fen).toMatch(/^xqboard perft: /);
      expect(r.stderr, fen).toMatch(message);
    }
  });

  it('exits 2 with a clear message for a bad depth or missing arguments', async () => {
    for (const depth of ['x', '-1', '2.5', '99', '']) {
      // '--' lets a negative number through the option parser to the depth check.
      const r = await xqboardHere('perft', START, '--', depth);
      expect(r.status, depth).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/depth|DEPTH/);
    }
    const negative = await xqboardHere('perft', START, '-1');
    expect(negative.status).toBe(2);
    expect(negative.stderr).toMatch(/'-1'/);
    const missing = xqboard('perft', START);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/FEN and DEPTH/);
    const unknown = await xqboardHere('perft', START, '2', '--fast');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/--fast/);
  });

  it('--help explains the command', async () => {
    const r = await xqboardHere('perft', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: xqboard perft FEN DEPTH \[--divide\] \[--json\]/);
    expect(r.stdout).toMatch(/--divide/);
    expect(r.stdout).toMatch(/--json/);
    expect((await xqboardHere('--help')).stdout).toMatch(/^\s+perft\s+count the leaf nodes/m);
  });
});
