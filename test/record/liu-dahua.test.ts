/**
 * All 1,125 games of ../shared/data/games/liu-dahua-1125-iccs.pgn (wukong-xiangqi xqdb, MIT) read
 * with the streaming reader, replay legally, and read back identically after writing them in each
 * of the three notations.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { NotationName } from '../../src/notation/index.js';
import { type PgnGame, readPgn, writePgnFile } from '../../src/record/pgn.js';
import { readPgnFile } from '../../src/record/stream.js';
import { Position, parseFen } from '../../src/rules/index.js';
import { sharedPath } from '../helpers/shared.js';

const games: PgnGame[] = [];

beforeAll(async () => {
  const encodings: string[] = [];
  for await (const r of readPgnFile(sharedPath('data/games/liu-dahua-1125-iccs.pgn'), (e) =>
    encodings.push(e),
  )) {
    if (!r.ok) throw new Error(r.error.message);
    games.push(r.value);
  }
  expect(encodings).toEqual(['utf-8']);
});

describe('liu-dahua-1125-iccs.pgn', () => {
  it('reads all 1,125 games and every move replays legally', () => {
    expect(games).toHaveLength(1125);
    let plies = 0;
    for (const g of games) {
      const setup = parseFen(g.fen);
      const pos = setup.ok ? Position.fromSetup(setup.value) : undefined;
      if (!pos?.ok) throw new Error(g.fen);
      for (const m of g.moves) {
        expect(pos.value.isLegal(m.move)).toBe(true);
        pos.value.play(m.move);
      }
      plies += g.moves.length;
    }
    expect(plies).toBe(101_321);
    // A value with quotes inside, as the file has it.
    expect(games.some((g) => g.tags.Event?.startsWith('"Huangshan Cup"'))).toBe(true);
  });

  for (const notation of ['iccs', 'wxf', 'chinese'] as NotationName[]) {
    it(`writes every game in ${notation} and reads it back identically`, () => {
      const text = writePgnFile(games, { notation });
      const back = readPgn(text);
      const failed = back.filter((r) => !r.ok);
      expect(failed).toEqual([]);
      expect(back.map((r) => r.ok && r.value)).toEqual(games);
      if (notation !== 'chinese') expect(text).toContain(`[Format "${notation.toUpperCase()}"]`);
      else expect(text).not.toContain('[Format');
    });
  }
});
