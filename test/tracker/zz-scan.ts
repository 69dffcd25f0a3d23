import { CONDITIONS, judgeGame, randomGames, rowOptions, sample } from '../../src/simulation/real-play-judge.js';
import { physicalPlay } from '../../src/simulation/physical-play.js';
import { liuDahuaGames, positionOf } from './physical-support.js';
const condition = CONDITIONS.find((c) => c.id === (process.argv[2] ?? "dead_used"))!;
const master = sample(liuDahuaGames().map((g, i) => ({ label: `master ${i + 1}`, start: positionOf(g.fen), moves: g.moves.map((m) => m.move) })), 60, 1);
const tally: Record<string, number> = {};
for (const games of [randomGames(60, 1), master])
for (const sensing of ['occupancy', 'colour'] as const) {
  const all = rowOptions(condition, games, sensing, 1);
  games.forEach((g, k) => {
    const o = all[k]; if (!o) return;
    const forks: { t: number; sq: number[] }[] = [];
    const states: { now: number; fork: number; open: number[] }[] = [];
    (globalThis as any).__fork = (t: number, sq: number[]) => forks.push({ t, sq });
    (globalThis as any).__doubt = (now: number, fork: number, open: number[]) => states.push({ now, fork, open });
    const j = judgeGame(g, o, condition.answering);
    if (j.classification.deadNamed !== false) return;
    const play = physicalPlay(g.start, g.moves, j.options);
    const dead = play.dead!;
    const limitPly = dead.firstUsePly! + 10;
    const deadline = play.truth.find((e: any) => e.kind === 'move' && e.ply === limitPly)?.t ?? Infinity;
    // At the deadline: a doubt open, the true square among ≥2 open worlds?
    const f = [...forks].reverse().find((x) => x.t <= deadline);
    const s = [...states].reverse().find((x) => x.now <= deadline && f && x.fork === f.t);
    const sq = (o as any).real.dead.square;
    let k2: string;
    if (!f) k2 = 'no doubt before deadline';
    else if (!f.sq.includes(sq)) k2 = 'doubt without the true square';
    else {
      const open = s ? s.open : f.sq;
      const resolvedBefore = states.some((x) => x.fork === f.t && x.now <= deadline && x.open.length <= 1);
      k2 = resolvedBefore ? 'doubt resolved before deadline (wrong/fallback)' : open.includes(sq) && open.length > 1 ? 'true world open with others at deadline' : 'other';
    }
    k2 += ' / ' + (o as any).real.dead.reads + (f ? ' worlds ' + f.sq.length : ''); tally[k2] = (tally[k2] ?? 0) + 1; if (k2.startsWith("no doubt") || k2.startsWith("doubt without")) console.log(k2, g.label, sensing, JSON.stringify((o as any).real.dead));
  });
}
console.log(tally);
