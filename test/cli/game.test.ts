/**
 * `xqboard game` (../shared/spec/cli.md): the real built command line for two moves from the start
 * and for an illegal move (exit status and streams), the command's own `main` in this process for
 * the rest.
 */
import { describe, expect, it } from 'vitest';
import { type CliRun, xqboard, xqboardHere } from '../helpers/cli.js';
import { readSharedJson } from '../helpers/shared.js';

/** The one JSON object of a run that succeeded. */
function reported(r: CliRun): Record<string, unknown> {
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const report = async (...args: string[]) => reported(await xqboardHere('game', ...args));

describe('xqboard game', () => {
  it('plays moves from the start position and prints one JSON object', () => {
    const r = reported(xqboard('game', 'h2e2', 'h9g7'));
    expect(r).toEqual({
      fen: 'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2',
      status: 'playing',
      result: '*',
      reason: null,
      moves: [
        { iccs: 'h2e2', wxf: 'C2.5', zh: '炮二平五' },
        { iccs: 'h9g7', wxf: 'H8+7', zh: '马８进７' },
      ],
    });
  });

  it('reads moves in ICCS, WXF and Chinese', async () => {
    const r = await report('h2e2', 'H8+7', '马二进三', 'H2+3');
    expect((r.moves as { iccs: string }[]).map((m) => m.iccs)).toEqual(['h2e2', 'h9g7', 'h0g2', 'b9c7']);
  });

  it('without moves prints the position', async () => {
    expect(await report()).toMatchObject({ status: 'playing', result: '*', moves: [] });
  });

  it('ends by checkmate (the side to move loses)', async () => {
    const r = await report('--fen', '4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1', 'i0i9');
    expect(r).toMatchObject({ status: 'ended', result: '1-0', reason: 'checkmate' });
  });

  it('ends by stalemate, a loss in xiangqi', async () => {
    const r = await report('--fen', '4k4/9/R8/9/9/9/9/9/9/3K1R3 w - - 0 1', 'a7a8');
    expect(r).toMatchObject({ status: 'ended', result: '1-0', reason: 'stalemate' });
  });

  it('judges repetitions by the Asian rules', async () => {
    const c = readSharedJson<{ cases: { fen: string; moves: string[]; result: string; reason: string }[] }>(
      'data/repetition.json',
    ).cases[0]!;
    expect(await report('--fen', c.fen, ...c.moves)).toMatchObject({
      status: 'ended',
      result: c.result,
      reason: c.reason,
    });
  });

  it('ends by the move limit and by insufficient material', async () => {
    const limit = await report('--fen', '3k5/9/9/9/9/9/9/r8/9/4K3R w - - 119 40', 'i0i1');
    expect(limit).toMatchObject({ status: 'ended', result: '1/2-1/2', reason: 'move_limit' });
    const bare = await report('--fen', '4k4/9/9/9/9/9/9/9/4r4/3K1A3 w - - 0 1', 'f0e1');
    expect(bare).toMatchObject({ status: 'ended', result: '1/2-1/2', reason: 'insufficient_material' });
  });

  it('exits 2 for an illegal move, naming it and its ply', () => {
    const r = xqboard('game', 'h2e2', 'h9h7');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('h9h7');
    expect(r.stderr).toContain('ply 2');
  });

  it('exits 2 for an unreadable move, naming it and its ply', async () => {
    const r = await xqboardHere('game', 'h2e2', 'horse');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("'horse'");
    expect(r.stderr).toContain('ply 2');
  });

  it('a move after the end is an error', async () => {
    const r = await xqboardHere('game', '--fen', '4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1', 'i0i9', 'e9f9');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('e9f9');
    expect(r.stderr).toContain('ply 2');
    expect(r.stderr).toContain('after the end');
  });

  it('exits 2 for a bad FEN; has --help', async () => {
    expect((await xqboardHere('game', '--fen', 'rnbakabnr/9 w')).status).toBe(2);
    const help = await xqboardHere('game', '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('xqboard game [--fen FEN] [MOVE ...]');
  });
});
