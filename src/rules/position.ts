/**
 * A legal xiangqi position and its moves (rules 2–3). Pure: no I/O, no clocks.
 *
 * The board is a 16×16 mailbox of piece ids (see geometry.ts). Legal moves are generated without
 * playing every pseudo-legal move: when the side to move is not in check, a move of a piece other
 * than the general can only expose its general if it leaves or enters the general's file or rank
 * (chariot lines, cannon screens, facing generals) or leaves a square diagonally next to the
 * general (a horse's leg); only those moves are tried on the board.
 */

import { type CodedError, err, ok, type Result } from '../util/result.js';
import { type FenError, makeBoardFen, parseFen } from './fen.js';
import {
  BLACK,
  CANNON,
  CHARIOT,
  CODE_ROLES,
  crossed,
  DIAG,
  FROM_MAILBOX,
  forward,
  HOME,
  HORSE,
  IN_PALACE,
  isAdvisorPoint,
  isElephantPoint,
  KING,
  OFF,
  ORTHO,
  PAWN,
  RED,
  ROLE_OF,
  SLOTS,
  sideBit,
  TO_MAILBOX,
} from './geometry.js';
import { defaultSetup, type Setup } from './setup.js';
import {
  type Color,
  type Move,
  makeSquareName,
  type Piece,
  ROLE_NAMES,
  type Role,
  type Square,
} from './types.js';
import { ZOBRIST_HI, ZOBRIST_LO, ZOBRIST_SIDE_HI, ZOBRIST_SIDE_LO, zobristIndex } from './zobrist.js';

export type PositionErrorCode =
  | 'too_many'
  | 'king_missing'
  | 'king_palace'
  | 'advisor_point'
  | 'elephant_point'
  | 'pawn_point'
  | 'kings_facing'
  | 'opponent_in_check';
export type PositionError = CodedError<PositionErrorCode>;

/** Deepest search the fixed move buffers allow (perft, engine, chase detection). */
export const MAX_PLY = 128;
const MOVES_PER_PLY = 256;

/** Horse targets through each orthogonal leg: for ORTHO[k], two jumps. */
const HORSE_JUMPS = [
  [-33, -31],
  [-18, 14],
  [-14, 18],
  [31, 33],
] as const;
/** Squares from which a horse attacks through each diagonal neighbour of the target (DIAG order). */
const HORSE_ATTACKERS = [
  [-33, -18],
  [-31, -14],
  [14, 31],
  [18, 33],
] as const;

/** Scratch moves for the non-recursive queries (single-threaded, never re-entered). */
const SCRATCH = new Int32Array(MOVES_PER_PLY);
/** The wanted pieces' mailbox indices for `legalMovesFrom` (shared: generation never nests). */
const ONLY_FROM = new Uint8Array(256);

const SIDE_NAMES: readonly Color[] = ['red', 'black'];
const sideIndex = (c: Color): number => (c === 'red' ? 0 : 1);

const NO_UNDO_MOVES = new Int32Array(0);
const NO_UNDO_CAPTURES = new Uint8Array(0);

const encodeMove = (from: number, to: number): number => from | (to << 8);

export class Position {
  /** Piece id or OFF on each mailbox index. */
  private readonly mailbox: Uint8Array;
  /** Mailbox index of each piece id, 0 when it is not on the board. */
  private readonly placed: Uint8Array;
  /** Side to move: 0 red, 1 black. */
  private stm = 0;
  private half = 0;
  private full = 1;
  /** Zobrist key of pieces and side to move, in two 32-bit halves. */
  private keyLo = 0;
  private keyHi = 0;

  // Undo stack of make(): move, captured id, halfmoves. Empty until the first make(): most
  // positions (copies handed out by the game, one kept per ply) never make a move.
  // (Shared empty buffers: growUndo() replaces them before the first write.)
  private undoMove = NO_UNDO_MOVES;
  private undoCaptured = NO_UNDO_CAPTURES;
  private undoHalf = NO_UNDO_MOVES;
  private undoTop = 0;
  private searchBuffer: Int32Array | undefined;

  /** Per-ply move buffers for recursive searches (perft, engine), allocated on first use. */
  get moveBuffer(): Int32Array {
    this.searchBuffer ??= new Int32Array(MAX_PLY * MOVES_PER_PLY);
    return this.searchBuffer;
  }

  /** An empty board, or a copy of `from`'s board (its pieces, not its side or its undo stack). */
  private constructor(from?: Position) {
    if (from) {
      this.mailbox = from.mailbox.slice();
      this.placed = from.placed.slice();
      return;
    }
    this.mailbox = new Uint8Array(256);
    this.placed = new Uint8Array(48);
    this.mailbox.fill(OFF);
    for (let sq = 0; sq < 90; sq++) this.mailbox[TO_MAILBOX[sq]!] = 0;
  }

  static default(): Position {
    const r = Position.fromSetup(defaultSetup());
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  }

  /** `parseFen` then `fromSetup`: a FEN read from outside, checked. */
  static fromFen(fen: string): Result<Position, FenError | PositionError> {
    const setup = parseFen(fen);
    return setup.ok ? Position.fromSetup(setup.value) : setup;
  }

  /** Checks a setup against every rule a reachable position obeys. */
  static fromSetup(setup: Setup): Result<Position, PositionError> {
    const pos = new Position();
    const used = new Uint8Array(48);
    for (let sq = 0; sq < 90; sq++) {
      const piece = setup.board[sq];
      if (!piece) continue;
      const side = sideIndex(piece.color);
      const at = makeSquareName(sq);
      const [first, count] = SLOTS[piece.role];
      let slot = -1;
      for (let k = 0; k < count; k++) {
        if (!used[sideBit(side) + first + k]) {
          slot = first + k;
          break;
        }
      }
      if (slot < 0) {
        return err({
          code: 'too_many',
          message: `${piece.color} has more than ${count} ${ROLE_NAMES[piece.role]}${count > 1 ? 's' : ''} (extra at ${at})`,
        });
      }
      const i = TO_MAILBOX[sq]!;
      if (piece.role === 'king' && !(IN_PALACE[i] && HOME[side]![i])) {
        return err({ code: 'king_palace', message: `${piece.color} general on ${at} is outside its palace` });
      }
      if (piece.role === 'advisor' && !isAdvisorPoint(side, sq)) {
        return err({
          code: 'advisor_point',
          message: `${piece.color} advisor on ${at} is off the advisor points`,
        });
      }
      if (piece.role === 'elephant' && !isElephantPoint(side, sq)) {
        return err({
          code: 'elephant_point',
          message: `${piece.color} elephant on ${at} is off the elephant points`,
        });
      }
      if (piece.role === 'pawn' && !pawnPointOk(side, sq)) {
        return err({
          code: 'pawn_point',
          message: `${piece.color} soldier on ${at} stands where no soldier can be (behind its start rank or sideways before the river)`,
        });
      }
      const id = sideBit(side) + slot;
      used[id] = 1;
      pos.mailbox[i] = id;
      pos.placed[id] = i;
    }
    for (const side of [0, 1]) {
      if (!pos.placed[sideBit(side)]) {
        return err({ code: 'king_missing', message: `the ${SIDE_NAMES[side]} general is missing` });
      }
    }
    pos.stm = sideIndex(setup.turn);
    pos.half = setup.halfmoves;
    pos.full = setup.fullmoves;
    if (pos.kingsFacing()) {
      const red = makeSquareName(pos.kingSquare('red'));
      const black = makeSquareName(pos.kingSquare('black'));
      return err({
        code: 'kings_facing',
        message: `the two generals face each other on the open ${red[0]} file (${red} and ${black})`,
      });
    }
    if (pos.isAttacked(pos.placed[sideBit(1 - pos.stm)]!, 1 - pos.stm)) {
      const waiting = SIDE_NAMES[1 - pos.stm]!;
      return err({
        code: 'opponent_in_check',
        message: `the ${waiting} general on ${makeSquareName(pos.kingSquare(waiting))} is in check but it is ${SIDE_NAMES[pos.stm]}'s move`,
      });
    }
    pos.computeHash();
    return ok(pos);
  }

  clone(): Position {
    const p = new Position(this);
    p.stm = this.stm;
    p.half = this.half;
    p.full = this.full;
    p.keyLo = this.keyLo;
    p.keyHi = this.keyHi;
    return p;
  }

  get turn(): Color {
    return SIDE_NAMES[this.stm]!;
  }

  /** Plies since the last capture (the move limit's count, rule 4.2.4). */
  get halfmoves(): number {
    return this.half;
  }

  /** The move number, 1 at the start, counted up after black's move. */
  get fullmoves(): number {
    return this.full;
  }

  /** The Zobrist key's two 32-bit halves, for the transposition tables of a search. */
  get hashLow(): number {
    return this.keyLo;
  }

  get hashHigh(): number {
    return this.keyHi;
  }

  pieceAt(sq: Square): Piece | undefined {
    const id = this.mailbox[TO_MAILBOX[sq]!]!;
    if (!id) return undefined;
    return { color: id & RED ? 'red' : 'black', role: CODE_ROLES[ROLE_OF[id]!]! };
  }

  /** The side to move as `colorAt` reads its pieces: 1 red, 2 black. */
  get turnCode(): 1 | 2 {
    return this.turn === 'red' ? 1 : 2;
  }

  /** 0 empty, 1 a red piece, 2 a black piece: what colour sensors read, without allocating. */
  colorAt(sq: Square): 0 | 1 | 2 {
    const id = this.mailbox[TO_MAILBOX[sq]!]!;
    return id === 0 ? 0 : id & RED ? 1 : 2;
  }

  /** Is the piece on `from` a chariot or cannon (a piece that may be slid along a line)? */
  isSlider(from: Square): boolean {
    const id = this.mailbox[TO_MAILBOX[from]!]!;
    if (!id) return false;
    const role = ROLE_OF[id];
    return role === CHARIOT || role === CANNON;
  }

  toSetup(): Setup {
    const board: (Piece | undefined)[] = [];
    for (let sq = 0; sq < 90; sq++) board.push(this.pieceAt(sq));
    return { board, turn: this.turn, halfmoves: this.half, fullmoves: this.full };
  }

  get boardFen(): string {
    return makeBoardFen(this.toSetup().board);
  }

  kingSquare(color: Color): Square {
    return FROM_MAILBOX[this.placed[sideBit(sideIndex(color))]!]!;
  }

  /** A 53-bit Zobrist key of pieces and side to move. */
  get hash(): number {
    return (this.keyHi >>> 0) * 2097152 + (this.keyLo >>> 11);
  }

  private computeHash(): void {
    let lo = 0;
    let hi = 0;
    for (let id = 16; id < 48; id++) {
      const i = this.placed[id]!;
      if (!i) continue;
      const z = zobristIndex(id, i);
      lo ^= ZOBRIST_LO[z]!;
      hi ^= ZOBRIST_HI[z]!;
    }
    if (this.stm) {
      lo ^= ZOBRIST_SIDE_LO;
      hi ^= ZOBRIST_SIDE_HI;
    }
    this.keyLo = lo;
    this.keyHi = hi;
  }

  // ---------------------------------------------------------------- attacks

  /**
   * Is mailbox index `k` attacked by the enemies of `side`? Counts the enemy general along an open
   * file, so testing one's own general also tests facing generals (rule 2.2).
   */
  private isAttacked(k: number, side: number): boolean {
    const board = this.mailbox;
    const them = sideBit(1 - side);
    for (let d = 0; d < 4; d++) {
      const delta = ORTHO[d]!;
      let t = k + delta;
      let p = board[t]!;
      while (p === 0) {
        t += delta;
        p = board[t]!;
      }
      if (p & them) {
        const role = ROLE_OF[p];
        if (role === CHARIOT || role === KING) return true;
      }
      if (p === OFF) continue;
      t += delta;
      p = board[t]!;
      while (p === 0) {
        t += delta;
        p = board[t]!;
      }
      if (p & them && ROLE_OF[p] === CANNON) return true;
    }
    for (let d = 0; d < 4; d++) {
      if (board[k + DIAG[d]!] !== 0) continue;
      const pair = HORSE_ATTACKERS[d]!;
      let p = board[k + pair[0]]!;
      if (p & them && ROLE_OF[p] === HORSE) return true;
      p = board[k + pair[1]]!;
      if (p & them && ROLE_OF[p] === HORSE) return true;
    }
    // Enemy soldiers attack from in front of `k` and, once across the river, from beside it.
    let p = board[k + forward(side)]!;
    if (p & them && ROLE_OF[p] === PAWN) return true;
    p = board[k - 1]!;
    if (p & them && ROLE_OF[p] === PAWN && crossed(1 - side, k - 1)) return true;
    p = board[k + 1]!;
    if (p & them && ROLE_OF[p] === PAWN && crossed(1 - side, k + 1)) return true;
    return false;
  }

  isCheck(): boolean {
    return this.isAttacked(this.placed[sideBit(this.stm)]!, this.stm);
  }

  private kingsFacing(): boolean {
    const a = this.placed[RED]!;
    const b = this.placed[BLACK]!;
    if ((a & 15) !== (b & 15)) return false;
    for (let t = a + 16; t < b; t += 16) if (this.mailbox[t] !== 0) return false;
    return true;
  }

  // ---------------------------------------------------------------- move generation

  /**
   * Writes the legal moves of the side to move into `out` from `start`; returns how many.
   * Moves are `from | to << 8` in mailbox indices. Allocates nothing.
   */
  generateLegal(out: Int32Array, start: number): number {
    const board = this.mailbox;
    const side = this.stm;
    const us = sideBit(side);
    const them = sideBit(1 - side);
    const base = us;
    const king = this.placed[base]!;
    const inCheck = this.isAttacked(king, side);
    this.fullTest = inCheck;
    const kingFile = king & 15;
    const kingRank = king >> 4;
    const only = this.onlyFrom;
    let n = start;

    // General: every move is tried on the board.
    for (let d = 0; d < 4 && (only === undefined || only[king] === 1); d++) {
      const t = king + ORTHO[d]!;
      const p = board[t]!;
      if (IN_PALACE[t] && (p === 0 || p & them) && this.safeAfter(king, t, t)) {
        out[n++] = king | (t << 8);
      }
    }

    for (let slot = 1; slot < 16; slot++) {
      const f = this.placed[base + slot]!;
      if (!f || (only !== undefined && only[f] !== 1)) continue;
      // Does leaving `f` possibly expose the general? (line or horse leg)
      const fromRisky =
        inCheck ||
        (f & 15) === kingFile ||
        f >> 4 === kingRank ||
        f - king === 15 ||
        f - king === 17 ||
        king - f === 15 ||
        king - f === 17;
      switch (slot) {
        case 1:
        case 2: // advisors
          for (let d = 0; d < 4; d++) {
            const t = f + DIAG[d]!;
            const p = board[t]!;
            if (IN_PALACE[t] && (p === 0 || p & them)) {
              if (fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) {
                if (!this.safeAfter(f, t, king)) continue;
              }
              out[n++] = f | (t << 8);
            }
          }
          break;
        case 3:
        case 4: {
          // elephants
          const home = HOME[side]!;
          for (let d = 0; d < 4; d++) {
            const eye = f + DIAG[d]!;
            if (board[eye] !== 0) continue;
            const t = eye + DIAG[d]!;
            const p = board[t]!;
            if (home[t] && (p === 0 || p & them)) {
              if (fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) {
                if (!this.safeAfter(f, t, king)) continue;
              }
              out[n++] = f | (t << 8);
            }
          }
          break;
        }
        case 5:
        case 6: // horses
          for (let d = 0; d < 4; d++) {
            if (board[f + ORTHO[d]!] !== 0) continue;
            const jumps = HORSE_JUMPS[d]!;
            for (let j = 0; j < 2; j++) {
              const t = f + jumps[j]!;
              const p = board[t]!;
              if (p === 0 || p & them) {
                if (fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) {
                  if (!this.safeAfter(f, t, king)) continue;
                }
                out[n++] = f | (t << 8);
              }
            }
          }
          break;
        case 7:
        case 8: // chariots
          for (let d = 0; d < 4; d++) {
            const delta = ORTHO[d]!;
            let t = f + delta;
            let p = board[t]!;
            while (true) {
              if (p !== 0 && !(p & them)) break;
              if (fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) {
                if (this.safeAfter(f, t, king)) out[n++] = f | (t << 8);
              } else {
                out[n++] = f | (t << 8);
              }
              if (p !== 0) break;
              t += delta;
              p = board[t]!;
            }
          }
          break;
        case 9:
        case 10: // cannons
          for (let d = 0; d < 4; d++) {
            const delta = ORTHO[d]!;
            let t = f + delta;
            let p = board[t]!;
            while (p === 0) {
              if (fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) {
                if (this.safeAfter(f, t, king)) out[n++] = f | (t << 8);
              } else {
                out[n++] = f | (t << 8);
              }
              t += delta;
              p = board[t]!;
            }
            if (p === OFF) continue;
            t += delta;
            p = board[t]!;
            while (p === 0) {
              t += delta;
              p = board[t]!;
            }
            if (p & them) {
              if (fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) {
                if (this.safeAfter(f, t, king)) out[n++] = f | (t << 8);
              } else {
                out[n++] = f | (t << 8);
              }
            }
          }
          break;
        default: {
          // soldiers
          let t = f + forward(side);
          let p = board[t]!;
          if (p === 0 || p & them) {
            if (!(fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) || this.safeAfter(f, t, king)) {
              out[n++] = f | (t << 8);
            }
          }
          if (crossed(side, f)) {
            t = f - 1;
            p = board[t]!;
            if (p === 0 || p & them) {
              if (
                !(fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) ||
                this.safeAfter(f, t, king)
              ) {
                out[n++] = f | (t << 8);
              }
            }
            t = f + 1;
            p = board[t]!;
            if (p === 0 || p & them) {
              if (
                !(fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) ||
                this.safeAfter(f, t, king)
              ) {
                out[n++] = f | (t << 8);
              }
            }
          }
        }
      }
    }
    return n - start;
  }

  /** Plays f→t on the bare board, tests the general standing on `king` (its new square if it moved), undoes. */
  private fullTest = true;
  /** While `legalMovesFrom` runs: the mailbox indices whose pieces' moves are wanted (1), or every piece. */
  private onlyFrom: Uint8Array | undefined;

  private safeAfter(f: number, t: number, king: number): boolean {
    const board = this.mailbox;
    const moving = board[f]!;
    const captured = board[t]!;
    board[t] = moving;
    board[f] = 0;
    const attacked =
      this.fullTest || f === king || t === king
        ? this.isAttacked(king, this.stm)
        : this.exposedBy(f, t, king);
    board[f] = moving;
    board[t] = captured;
    return !attacked;
  }

  /**
   * Not in check, a piece other than the general went f → t (already on the board): only the lines
   * from the general through f or t and a horse leg on f can have opened.
   */
  private exposedBy(f: number, t: number, king: number): boolean {
    const df = this.lineDelta(king, f);
    if (df !== 0 && this.rayAttacked(king, df)) return true;
    const dt = this.lineDelta(king, t);
    if (dt !== 0 && dt !== df && this.rayAttacked(king, dt)) return true;
    const leg = f - king;
    for (let d = 0; d < 4; d++) {
      if (DIAG[d] !== leg) continue;
      const them = sideBit(1 - this.stm);
      const pair = HORSE_ATTACKERS[d]!;
      let p = this.mailbox[king + pair[0]]!;
      if (p & them && ROLE_OF[p] === HORSE) return true;
      p = this.mailbox[king + pair[1]]!;
      if (p & them && ROLE_OF[p] === HORSE) return true;
    }
    return false;
  }

  private lineDelta(king: number, sq: number): number {
    if ((sq & 15) === (king & 15)) return sq > king ? 16 : -16;
    if (sq >> 4 === king >> 4) return sq > king ? 1 : -1;
    return 0;
  }

  /** Chariot, facing general or cannon attack on the general along one direction. */
  private rayAttacked(king: number, delta: number): boolean {
    const board = this.mailbox;
    const them = sideBit(1 - this.stm);
    let t = king + delta;
    let p = board[t]!;
    while (p === 0) {
      t += delta;
      p = board[t]!;
    }
    if (p === OFF) return false;
    if (p & them) {
      const role = ROLE_OF[p];
      if (role === CHARIOT || role === KING) return true;
    }
    t += delta;
    p = board[t]!;
    while (p === 0) {
      t += delta;
      p = board[t]!;
    }
    return (p & them) !== 0 && p !== OFF && ROLE_OF[p] === CANNON;
  }

  /** The encoded legal moves (`from | to << 8`, mailbox indices), in a new array of their own. */
  legalCodes(): Int32Array {
    return SCRATCH.slice(0, this.generateLegal(SCRATCH, 0));
  }

  /** Does the side to move have any legal move? */
  hasLegalMove(): boolean {
    return this.generateLegal(SCRATCH, 0) > 0;
  }

  // ---------------------------------------------------------------- make / unmake

  /** Plays an encoded legal move; `unmake()` takes it back. */
  make(m: number): void {
    const f = m & 255;
    const t = (m >> 8) & 255;
    const board = this.mailbox;
    const moving = board[f]!;
    const captured = board[t]!;
    const top = this.undoTop++;
    if (top === this.undoMove.length) this.growUndo();
    this.undoMove[top] = m;
    this.undoCaptured[top] = captured;
    this.undoHalf[top] = this.half;
    let zf = zobristIndex(moving, f);
    const zt = zobristIndex(moving, t);
    let lo = this.keyLo ^ ZOBRIST_LO[zf]! ^ ZOBRIST_LO[zt]! ^ ZOBRIST_SIDE_LO;
    let hi = this.keyHi ^ ZOBRIST_HI[zf]! ^ ZOBRIST_HI[zt]! ^ ZOBRIST_SIDE_HI;
    if (captured) {
      zf = zobristIndex(captured, t);
      lo ^= ZOBRIST_LO[zf]!;
      hi ^= ZOBRIST_HI[zf]!;
      this.placed[captured] = 0;
      this.half = 0;
    } else {
      this.half++;
    }
    this.keyLo = lo;
    this.keyHi = hi;
    board[t] = moving;
    board[f] = 0;
    this.placed[moving] = t;
    if (this.stm) this.full++;
    this.stm ^= 1;
  }

  private growUndo(): void {
    const size = Math.max(32, this.undoMove.length * 2);
    const move = new Int32Array(size);
    const captured = new Uint8Array(size);
    const half = new Int32Array(size);
    move.set(this.undoMove);
    captured.set(this.undoCaptured);
    half.set(this.undoHalf);
    this.undoMove = move;
    this.undoCaptured = captured;
    this.undoHalf = half;
  }

  unmake(): void {
    const top = --this.undoTop;
    const m = this.undoMove[top]!;
    const captured = this.undoCaptured[top]!;
    const f = m & 255;
    const t = (m >> 8) & 255;
    const board = this.mailbox;
    const moving = board[t]!;
    this.stm ^= 1;
    if (this.stm) this.full--;
    this.half = this.undoHalf[top]!;
    board[f] = moving;
    board[t] = captured;
    this.placed[moving] = f;
    const zf = zobristIndex(moving, f);
    let zt = zobristIndex(moving, t);
    let lo = this.keyLo ^ ZOBRIST_LO[zf]! ^ ZOBRIST_LO[zt]! ^ ZOBRIST_SIDE_LO;
    let hi = this.keyHi ^ ZOBRIST_HI[zf]! ^ ZOBRIST_HI[zt]! ^ ZOBRIST_SIDE_HI;
    if (captured) {
      this.placed[captured] = t;
      zt = zobristIndex(captured, t);
      lo ^= ZOBRIST_LO[zt]!;
      hi ^= ZOBRIST_HI[zt]!;
    }
    this.keyLo = lo;
    this.keyHi = hi;
  }

  /** Passes the move (a search's null move): the side to move changes, nothing else. `unmakeNull()` undoes it. */
  makeNull(): void {
    this.stm ^= 1;
    this.keyLo ^= ZOBRIST_SIDE_LO;
    this.keyHi ^= ZOBRIST_SIDE_HI;
  }

  unmakeNull(): void {
    this.makeNull();
  }

  // ---------------------------------------------------------------- internal, for src/engine only
  // src/engine (search.ts, eval.ts; owned by the engine work) still reads the mailbox, the piece
  // squares and the side, and writes the side and the key for its null move. These accessors keep
  // it compiling until it uses the API above (generateLegal/make/unmake, makeNull, hashLow/High,
  // pieceAt). Nothing else may use them.

  /** @deprecated internal (src/engine): piece id on each mailbox index. */
  get board(): Uint8Array {
    return this.mailbox;
  }

  /** @deprecated internal (src/engine): mailbox index of each piece id, 0 when captured. */
  get squares(): Uint8Array {
    return this.placed;
  }

  /** @deprecated internal (src/engine): side to move, 0 red, 1 black; use `turn`, `makeNull()`. */
  get side(): number {
    return this.stm;
  }

  set side(side: number) {
    this.stm = side;
  }

  /** @deprecated internal (src/engine): use `hashLow`, `makeNull()`. */
  get hashLo(): number {
    return this.keyLo;
  }

  set hashLo(key: number) {
    this.keyLo = key;
  }

  /** @deprecated internal (src/engine): use `hashHigh`, `makeNull()`. */
  get hashHi(): number {
    return this.keyHi;
  }

  set hashHi(key: number) {
    this.keyHi = key;
  }

  // ---------------------------------------------------------------- friendly API (squares 0..89)

  legalMoves(): Move[] {
    const buf = SCRATCH;
    const n = this.generateLegal(buf, 0);
    const moves: Move[] = [];
    for (let k = 0; k < n; k++) {
      const m = buf[k]!;
      moves.push({ from: FROM_MAILBOX[m & 255]!, to: FROM_MAILBOX[(m >> 8) & 255]! });
    }
    return moves;
  }

  /**
   * The legal moves of the pieces on the squares `from` accepts, in `legalMoves()`'s order: only
   * those pieces' moves are generated (a search that follows a few lifted pieces need not generate
   * all forty).
   */
  legalMovesFrom(from: (sq: Square) => boolean): Move[] {
    const only = ONLY_FROM;
    only.fill(0);
    const base = sideBit(this.stm);
    for (let slot = 0; slot < 16; slot++) {
      const i = this.placed[base + slot]!;
      if (i && from(FROM_MAILBOX[i]!)) only[i] = 1;
    }
    this.onlyFrom = only;
    let n: number;
    try {
      n = this.generateLegal(SCRATCH, 0);
    } finally {
      this.onlyFrom = undefined;
    }
    const moves: Move[] = [];
    for (let k = 0; k < n; k++) {
      const m = SCRATCH[k]!;
      moves.push({ from: FROM_MAILBOX[m & 255]!, to: FROM_MAILBOX[(m >> 8) & 255]! });
    }
    return moves;
  }

  /** Legal destinations of the piece on `from` (empty when it is not the mover's). */
  legalDestinations(from: Square): Square[] {
    return this.legalMovesFrom((sq) => sq === from).map((m) => m.to);
  }

  isLegal(move: Move): boolean {
    const f = TO_MAILBOX[move.from];
    const t = TO_MAILBOX[move.to];
    if (f === undefined || t === undefined) return false;
    const buf = SCRATCH;
    const n = this.generateLegal(buf, 0);
    const m = f | (t << 8);
    for (let k = 0; k < n; k++) if (buf[k] === m) return true;
    return false;
  }

  /** Plays a legal move (checked by the caller); returns the captured piece. */
  play(move: Move): Piece | undefined {
    const captured = this.pieceAt(move.to);
    this.make(encodeMove(TO_MAILBOX[move.from]!, TO_MAILBOX[move.to]!));
    return captured;
  }

  /** Takes back the last `play()`/`make()`. */
  undo(): void {
    if (this.undoTop === 0) throw new Error('nothing to undo');
    this.unmake();
  }

  isCheckmate(): boolean {
    return this.isCheck() && !this.hasLegalMove();
  }

  /** No legal move while not in check: a loss in xiangqi (rule 3.2, 4.1.3). */
  isStalemate(): boolean {
    return !this.isCheck() && !this.hasLegalMove();
  }

  /** Pieces of one colour and role, as squares. */
  piecesOf(color: Color, role: Role): Square[] {
    const side = sideIndex(color);
    const [first, count] = SLOTS[role];
    const out: Square[] = [];
    for (let k = 0; k < count; k++) {
      const i = this.placed[sideBit(side) + first + k]!;
      if (i) out.push(FROM_MAILBOX[i]!);
    }
    return out;
  }
}

function pawnPointOk(side: number, sq: Square): boolean {
  const file = sq % 9;
  const rank = Math.floor(sq / 9);
  const rel = side === 0 ? rank : 9 - rank;
  if (rel < 3) return false;
  if (rel <= 4) return file % 2 === 0;
  return true;
}
