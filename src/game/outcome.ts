import type { Color } from '../rules/index.js';
/** How a game ends: result, reason and the article of rule 4 (../shared/docs/rules.md) behind it. */

export type GameResult = '1-0' | '0-1' | '1/2-1/2';

/** The reasons the rules decide by themselves from the moves (the `game` command's reasons). */
export type RulesReason =
  | 'checkmate'
  | 'stalemate'
  | 'perpetual_check'
  | 'perpetual_chase'
  | 'repetition'
  | 'move_limit'
  | 'insufficient_material';

export type OutcomeReason =
  | RulesReason
  | 'time'
  | 'resignation'
  | 'agreement'
  | 'fouls'
  | 'arbiter'
  | 'facing_generals'
  | 'illegal_move';

export interface Outcome {
  readonly result: GameResult;
  readonly reason: OutcomeReason;
  /** The article of the rules text: '4.1.1', '4.2.3', … */
  readonly article: string;
  /** The losing side, when there is one. */
  readonly loser?: Color;
  /** Free text: the arbiter's reason, the flag time, … */
  readonly detail?: string;
  /** The ply after which the game ended (0: before any move). */
  readonly ply: number;
  /** Game time (ms) at which it ended, when known. */
  readonly t?: number;
}

/** The article each reason comes from (arbiter decisions carry theirs: 4.1.5 or 4.1.10). */
export const ARTICLES: Record<Exclude<OutcomeReason, 'arbiter'>, string> = {
  checkmate: '4.1.1',
  facing_generals: '4.1.2',
  stalemate: '4.1.3',
  time: '4.1.4',
  illegal_move: '4.1.6',
  perpetual_check: '4.1.7',
  perpetual_chase: '4.1.7',
  fouls: '4.1.8',
  resignation: '4.1.9',
  insufficient_material: '4.2.1',
  agreement: '4.2.2',
  repetition: '4.2.3',
  move_limit: '4.2.4',
};

export const RULES_REASONS: ReadonlySet<OutcomeReason> = new Set<RulesReason>([
  'checkmate',
  'stalemate',
  'perpetual_check',
  'perpetual_chase',
  'repetition',
  'move_limit',
  'insufficient_material',
]);

/** '1-0' when Black loses, '0-1' when Red loses, a draw without a loser. */
export const resultFor = (loser: Color | undefined): GameResult =>
  loser === undefined ? '1/2-1/2' : loser === 'black' ? '1-0' : '0-1';
