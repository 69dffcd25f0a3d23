/**
 * The controller's engine (src/engine), shared by every board: built from the configuration (the
 * embedded Fairy-Stockfish by default, started on the first search), its crashes and timeouts told
 * to the boards as alerts, and a hint described as people read it: the move in the three
 * notations, the evaluation (pawns, or mate in N) and the depth reached.
 */
import { resolve } from 'node:path';
import type { EngineConfig, Strength } from '../config/schema.js';
import {
  type Engine,
  type EngineEvent,
  ProtocolEngine,
  type Score,
  type SearchLimits,
  type SearchResult,
} from '../engine/engine.js';
import { fairyTransport, processTransport } from '../engine/transport.js';
import type { Game } from '../game/game.js';
import { makeChinese, makeWxf } from '../notation/index.js';
import { type Position, parseIccs } from '../rules/index.js';
import { Listeners } from '../util/listeners.js';

export const FAIRY_LABEL = 'Fairy-Stockfish (WebAssembly)';

/** The engine of a configuration (nothing starts until its first search). */
export function engineOf(config: EngineConfig, onEvent: (e: EngineEvent) => void): Engine {
  const common = {
    options: config.options,
    graceMs: config.graceMs,
    searchMs: config.searchMs,
    onEvent,
  };
  if (config.kind === 'fairy') {
    return new ProtocolEngine({
      dialect: 'uci',
      spawn: fairyTransport,
      label: FAIRY_LABEL,
      squares: 'ranks1',
      ...common,
    });
  }
  const path = resolve(config.path!);
  return new ProtocolEngine({
    dialect: config.kind,
    spawn: () => processTransport(path, config.args),
    label: path,
    squares: config.squares,
    ...common,
  });
}

export const limitsOf = (s: Strength): SearchLimits => ({
  ...(s.movetimeMs !== undefined ? { movetimeMs: s.movetimeMs } : {}),
  ...(s.depth !== undefined ? { depth: s.depth } : {}),
  ...(s.nodes !== undefined ? { nodes: s.nodes } : {}),
  ...(s.skill !== undefined ? { skill: s.skill } : {}),
});

/** One engine for the controller; each board hears its events (alerts). */
export class EngineService {
  readonly engine: Engine;
  private readonly listeners = new Listeners<EngineEvent>();

  constructor(readonly config: EngineConfig) {
    this.engine = engineOf(config, (e) => this.listeners.emit(e));
  }

  get name(): string {
    return this.engine.name;
  }

  onEvent(listener: (e: EngineEvent) => void): () => void {
    return this.listeners.add(listener);
  }

  /** The engine's move for the game as it stands (its start and moves: repetitions are seen). */
  searchGame(game: Game, strength: Strength, signal?: AbortSignal): Promise<SearchResult> {
    return this.engine.search({
      fen: game.startFen,
      moves: game.moves.map((m) => m.iccs),
      limits: limitsOf(strength),
      ...(signal ? { signal } : {}),
    });
  }

  close(): Promise<void> {
    return this.engine.close();
  }
}

export interface DescribedMove {
  readonly iccs: string;
  readonly wxf: string;
  readonly zh: string;
  /**
   * Centipawns for the side to move (a soldier is 100); a forced mate in n moves is
   * ±(30000 − n), as before the engine changed.
   */
  readonly score: number;
  /** Moves to mate (negative: the side to move is mated), when the engine sees one. */
  readonly mate?: number;
  readonly depth: number;
  readonly engine: string;
  /** `h2e2 C2.5 炮二平五, +0.35 pawns, depth 12` */
  readonly message: string;
}

export const scoreWords = (score: Score | undefined): string =>
  score === undefined
    ? 'no evaluation'
    : 'mate' in score
      ? score.mate > 0
        ? `mate in ${score.mate}`
        : `mated in ${-score.mate}`
      : `${score.cp >= 0 ? '+' : '−'}${(Math.abs(score.cp) / 100).toFixed(2)} pawns`;

/** The engine's move for `pos` in words, or undefined when it is not a move there. */
export function describeMove(pos: Position, result: SearchResult, engine: string): DescribedMove | undefined {
  if (!result.move) return undefined;
  const move = parseIccs(result.move);
  if (!move.ok || !pos.isLegal(move.value)) return undefined;
  const wxf = makeWxf(pos, move.value) ?? result.move;
  const zh = makeChinese(pos, move.value) ?? result.move;
  const s = result.score;
  const score = s === undefined ? 0 : 'mate' in s ? Math.sign(s.mate) * (30000 - Math.abs(s.mate)) : s.cp;
  return {
    iccs: result.move,
    wxf,
    zh,
    score,
    ...(s && 'mate' in s ? { mate: s.mate } : {}),
    depth: result.depth,
    engine,
    message: `${result.move} ${wxf} ${zh}, ${scoreWords(s)}, depth ${result.depth}`,
  };
}
