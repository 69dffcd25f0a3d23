// src/rules/types.ts
var ROLE_NAMES = {
  king: "general",
  advisor: "advisor",
  elephant: "elephant",
  horse: "horse",
  chariot: "chariot",
  cannon: "cannon",
  pawn: "soldier"
};
var FILE_NAMES = "abcdefghi";
var opposite = (c) => c === "red" ? "black" : "red";
var squareFile = (sq2) => sq2 % 9;
var squareRank = (sq2) => Math.floor(sq2 / 9);
var makeSquare = (file, rank) => rank * 9 + file;
var isSquare = (sq2) => Number.isInteger(sq2) && sq2 >= 0 && sq2 < 90;
function parseSquare(name2) {
  if (name2.length !== 2) return void 0;
  const file = FILE_NAMES.indexOf(name2[0].toLowerCase());
  const rank = name2.charCodeAt(1) - 48;
  if (file < 0 || rank < 0 || rank > 9) return void 0;
  return makeSquare(file, rank);
}
var makeSquareName = (sq2) => FILE_NAMES[squareFile(sq2)] + String(squareRank(sq2));
var ROLE_LETTER = {
  king: "k",
  advisor: "a",
  elephant: "b",
  horse: "n",
  chariot: "r",
  cannon: "c",
  pawn: "p"
};
function letterRole(ch) {
  switch (ch.toLowerCase()) {
    case "k":
      return "king";
    case "a":
      return "advisor";
    case "b":
    case "e":
      return "elephant";
    case "n":
    case "h":
      return "horse";
    case "r":
      return "chariot";
    case "c":
      return "cannon";
    case "p":
      return "pawn";
    default:
      return void 0;
  }
}
var makePieceLetter = (p) => p.color === "red" ? ROLE_LETTER[p.role].toUpperCase() : ROLE_LETTER[p.role];

// src/rules/geometry.ts
var squareAt = (file, rank) => file >= 0 && file < 9 && rank >= 0 && rank < 10 ? makeSquare(file, rank) : void 0;
function inPalace(color, sq2) {
  const file = squareFile(sq2);
  const rank = squareRank(sq2);
  return file >= 3 && file <= 5 && (color === "red" ? rank <= 2 : rank >= 7);
}
var onOwnHalf = (color, sq2) => color === "red" ? squareRank(sq2) <= 4 : squareRank(sq2) >= 5;
var crossedRiver = (color, sq2) => !onOwnHalf(color, sq2);
function between(a, b) {
  const df = Math.sign(squareFile(b) - squareFile(a));
  const dr = Math.sign(squareRank(b) - squareRank(a));
  if (df !== 0 && dr !== 0) return [];
  const out = [];
  for (let sq2 = a + df + 9 * dr; sq2 !== b; sq2 += df + 9 * dr) out.push(sq2);
  return out;
}
var TO_MAILBOX = new Uint8Array(90);
var FROM_MAILBOX = new Uint8Array(256).fill(255);
var IN_BOARD = new Uint8Array(256);
var IN_PALACE = new Uint8Array(256);
var HOME = [new Uint8Array(256), new Uint8Array(256)];
for (let rank = 0; rank < 10; rank++) {
  for (let file = 0; file < 9; file++) {
    const i = (rank + 3) * 16 + file + 3;
    const sq2 = makeSquare(file, rank);
    TO_MAILBOX[sq2] = i;
    FROM_MAILBOX[i] = sq2;
    IN_BOARD[i] = 1;
    if (inPalace("red", sq2) || inPalace("black", sq2)) IN_PALACE[i] = 1;
    HOME[onOwnHalf("red", sq2) ? 0 : 1][i] = 1;
  }
}
var ORTHO = [-16, -1, 1, 16];
var DIAG = [-17, -15, 15, 17];
var forward = (side) => 16 - 32 * side;
var crossed = (side, i) => HOME[side][i] === 0;
var RED = 16;
var BLACK = 32;
var OFF = 64;
var sideBit = (side) => 16 << side;
var KING = 1;
var ADVISOR = 2;
var ELEPHANT = 3;
var HORSE = 4;
var CHARIOT = 5;
var CANNON = 6;
var PAWN = 7;
var ROLE_CODES = {
  king: KING,
  advisor: ADVISOR,
  elephant: ELEPHANT,
  horse: HORSE,
  chariot: CHARIOT,
  cannon: CANNON,
  pawn: PAWN
};
var CODE_ROLES = [
  "king",
  // unused index 0
  "king",
  "advisor",
  "elephant",
  "horse",
  "chariot",
  "cannon",
  "pawn"
];
var SLOTS = {
  king: [0, 1],
  advisor: [1, 2],
  elephant: [3, 2],
  horse: [5, 2],
  chariot: [7, 2],
  cannon: [9, 2],
  pawn: [11, 5]
};
var ROLE_OF = new Uint8Array(256);
for (const role of Object.keys(SLOTS)) {
  const [first, count] = SLOTS[role];
  for (let k = 0; k < count; k++) {
    ROLE_OF[RED + first + k] = ROLE_CODES[role];
    ROLE_OF[BLACK + first + k] = ROLE_CODES[role];
  }
}
function isElephantPoint(side, sq2) {
  const file = sq2 % 9;
  const rank = Math.floor(sq2 / 9) - (side === 0 ? 0 : 5);
  if (rank === 0 || rank === 4) return file === 2 || file === 6;
  if (rank === 2) return file === 0 || file === 4 || file === 8;
  return false;
}
function isAdvisorPoint(side, sq2) {
  const file = sq2 % 9;
  const rank = Math.floor(sq2 / 9) - (side === 0 ? 0 : 7);
  if (rank === 0 || rank === 2) return file === 3 || file === 5;
  return rank === 1 && file === 4;
}

// src/rules/squareset.ts
var EMPTY_SET = 0n;
var squareBit = (sq2) => 1n << BigInt(sq2);
var hasSquare = (set, sq2) => (set >> BigInt(sq2) & 1n) === 1n;
function squareSetOf(squares) {
  let set = EMPTY_SET;
  for (const sq2 of squares) set |= squareBit(sq2);
  return set;
}
function* squaresOf(set) {
  let s = set;
  let sq2 = 0;
  while (s) {
    if (s & 1n) yield sq2;
    s >>= 1n;
    sq2++;
  }
}
var countSquares = (set) => {
  let n = 0;
  for (const _ of squaresOf(set)) n++;
  return n;
};

// src/rules/attacks.ts
var ORTHO2 = [
  [0, 1],
  [0, -1],
  [1, 0],
  [-1, 0]
];
var DIAG2 = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1]
];
function attacksFrom(board, sq2, piece) {
  const f = squareFile(sq2);
  const r = squareRank(sq2);
  let set = EMPTY_SET;
  switch (piece.role) {
    case "king":
    case "advisor":
      for (const [df, dr] of piece.role === "king" ? ORTHO2 : DIAG2) {
        const t = squareAt(f + df, r + dr);
        if (t !== void 0 && inPalace(piece.color, t)) set |= squareBit(t);
      }
      return set;
    case "elephant":
      for (const [df, dr] of DIAG2) {
        const eye = squareAt(f + df, r + dr);
        const t = squareAt(f + 2 * df, r + 2 * dr);
        if (eye === void 0 || t === void 0 || board[eye] || !onOwnHalf(piece.color, t)) continue;
        set |= squareBit(t);
      }
      return set;
    case "horse":
      for (const [df, dr] of ORTHO2) {
        const leg = squareAt(f + df, r + dr);
        if (leg === void 0 || board[leg]) continue;
        for (const side of [-1, 1]) {
          const t = df === 0 ? squareAt(f + side, r + 2 * dr) : squareAt(f + 2 * df, r + side);
          if (t !== void 0) set |= squareBit(t);
        }
      }
      return set;
    case "chariot":
    case "cannon":
      for (const [df, dr] of ORTHO2) {
        let screens = 0;
        for (let k = 1; ; k++) {
          const t = squareAt(f + k * df, r + k * dr);
          if (t === void 0) break;
          if (piece.role === "chariot") {
            set |= squareBit(t);
            if (board[t]) break;
          } else if (board[t]) {
            if (screens === 1) {
              set |= squareBit(t);
              break;
            }
            screens++;
          }
        }
      }
      return set;
    case "pawn": {
      const ahead = squareAt(f, r + (piece.color === "red" ? 1 : -1));
      if (ahead !== void 0) set |= squareBit(ahead);
      if (crossedRiver(piece.color, sq2)) {
        for (const side of [-1, 1]) {
          const t = squareAt(f + side, r);
          if (t !== void 0) set |= squareBit(t);
        }
      }
      return set;
    }
  }
}
function attackersTo(board, target, by) {
  let set = EMPTY_SET;
  const bit = squareBit(target);
  for (let sq2 = 0; sq2 < 90; sq2++) {
    const p = board[sq2];
    if (p && p.color === by && attacksFrom(board, sq2, p) & bit) set |= squareBit(sq2);
  }
  return set;
}
var attackersOf = (board, target, by) => [
  ...squaresOf(attackersTo(board, target, by))
];
function generalOf(board, color) {
  const sq2 = board.findIndex((p) => p?.color === color && p.role === "king");
  return sq2 < 0 ? void 0 : sq2;
}
function generalsFacing(board) {
  const red = generalOf(board, "red");
  const black = generalOf(board, "black");
  if (red === void 0 || black === void 0 || squareFile(red) !== squareFile(black)) return false;
  return between(red, black).every((sq2) => board[sq2] === void 0);
}

// src/rules/explain.ts
var name = (sq2) => isSquare(sq2) ? makeSquareName(sq2) : `point ${sq2}`;
function explainIllegal(pos, move) {
  const { from, to } = move;
  const piece = isSquare(from) ? pos.pieceAt(from) : void 0;
  const reason = (code, message2, square) => ({
    code,
    message: message2,
    move,
    ...piece ? { piece } : {},
    ...square !== void 0 ? { square } : {}
  });
  if (!piece) {
    return reason(
      "no_piece",
      isSquare(from) ? `there is no piece on ${name(from)}` : `${name(from)} is not on the board`
    );
  }
  const what = `the ${ROLE_NAMES[piece.role]} on ${name(from)}`;
  if (piece.color !== pos.turn) {
    return reason("wrong_side", `${what} is ${piece.color}'s and it is ${pos.turn}'s turn`);
  }
  if (to === from || !isSquare(to)) {
    const shape2 = shapeReason(piece, what, to);
    return reason(shape2.code, shape2.message);
  }
  const target = pos.pieceAt(to);
  if (target && target.color === piece.color) {
    return reason(
      "own_piece",
      `${what} cannot go to ${name(to)}: the ${ROLE_NAMES[target.role]} there is ${piece.color}'s own`,
      to
    );
  }
  const shape = movementReason(pos, piece, from, to, what);
  if (shape) return reason(shape.code, shape.message, shape.square);
  if (pos.isLegal(move)) return void 0;
  const after = pos.clone();
  after.play(move);
  const board = after.toSetup().board;
  const iccs = `${name(from)}${name(to)}`;
  if (generalsFacing(board)) {
    const theirs = generalOf(board, opposite(piece.color));
    return reason(
      "generals_facing",
      `${iccs} would leave the generals facing each other on the open ${name(theirs)[0]} file`,
      theirs
    );
  }
  const general = generalOf(board, piece.color);
  const attacker = attackersOf(board, general, opposite(piece.color))[0];
  const by = attacker === void 0 ? "" : ` by the ${ROLE_NAMES[board[attacker].role]} on ${name(attacker)}`;
  const message = pos.isCheck() ? `${pos.turn} is in check and ${iccs} does not answer it: the general on ${name(general)} would still be attacked${by}` : `${iccs} would leave the ${pos.turn} general on ${name(general)} attacked${by}`;
  return reason("leaves_check", message, attacker);
}
function shapeReason(piece, what, to) {
  const code = {
    king: "general_step",
    advisor: "advisor_diagonal",
    elephant: "elephant_shape",
    horse: "horse_shape",
    chariot: "not_straight",
    cannon: "not_straight",
    pawn: "soldier_step"
  };
  const where = isSquare(to) ? `stays on ${name(to)}` : `would go to ${name(to)}, off the board`;
  return { code: code[piece.role], message: `${what} ${where}` };
}
function movementReason(pos, piece, from, to, what) {
  const df = squareFile(to) - squareFile(from);
  const dr = squareRank(to) - squareRank(from);
  const adf = Math.abs(df);
  const adr = Math.abs(dr);
  const dest = name(to);
  const firstPiece = (squares) => squares.find((sq2) => pos.pieceAt(sq2) !== void 0);
  switch (piece.role) {
    case "king":
      if (adf + adr !== 1)
        return { code: "general_step", message: `${what} moves one point along a line, not to ${dest}` };
      if (!inPalace(piece.color, to))
        return { code: "palace", message: `${what} cannot leave the palace for ${dest}` };
      return void 0;
    case "advisor":
      if (adf !== 1 || adr !== 1) {
        return { code: "advisor_diagonal", message: `${what} moves one point diagonally, not to ${dest}` };
      }
      if (!inPalace(piece.color, to))
        return { code: "palace", message: `${what} cannot leave the palace for ${dest}` };
      return void 0;
    case "elephant": {
      if (adf !== 2 || adr !== 2) {
        return { code: "elephant_shape", message: `${what} moves two points diagonally, not to ${dest}` };
      }
      if (!onOwnHalf(piece.color, to)) {
        return { code: "elephant_river", message: `${what} cannot cross the river to ${dest}` };
      }
      const eye = makeSquare(squareFile(from) + df / 2, squareRank(from) + dr / 2);
      if (pos.pieceAt(eye)) {
        return {
          code: "elephant_eye",
          message: `${what} is blocked at ${name(eye)} (the elephant's eye)`,
          square: eye
        };
      }
      return void 0;
    }
    case "horse": {
      if (!(adf === 1 && adr === 2 || adf === 2 && adr === 1)) {
        return {
          code: "horse_shape",
          message: `${what} moves one point straight then one diagonally, not to ${dest}`
        };
      }
      const leg = adr === 2 ? makeSquare(squareFile(from), squareRank(from) + dr / 2) : makeSquare(squareFile(from) + df / 2, squareRank(from));
      if (pos.pieceAt(leg)) {
        return {
          code: "horse_leg",
          message: `${what} is blocked at ${name(leg)} (hobbled leg)`,
          square: leg
        };
      }
      return void 0;
    }
    case "chariot":
    case "cannon": {
      if (df !== 0 && dr !== 0) {
        return { code: "not_straight", message: `${what} moves along a file or a rank, not to ${dest}` };
      }
      const path = between(from, to);
      if (piece.role === "chariot" || !pos.pieceAt(to)) {
        const block = firstPiece(path);
        if (block !== void 0) {
          return {
            code: "path_blocked",
            message: `${what} is blocked at ${name(block)} on its way to ${dest}`,
            square: block
          };
        }
        return void 0;
      }
      const screens = path.filter((sq2) => pos.pieceAt(sq2) !== void 0);
      if (screens.length !== 1) {
        const found = screens.length === 0 ? "there is none" : `there are ${screens.length}`;
        return {
          code: "cannon_screen",
          message: `${what} captures by jumping exactly one piece; ${found} between ${name(from)} and ${dest}`,
          ...screens[1] !== void 0 ? { square: screens[1] } : {}
        };
      }
      return void 0;
    }
    case "pawn": {
      const ahead = piece.color === "red" ? 1 : -1;
      if (dr * ahead < 0)
        return { code: "soldier_backward", message: `${what} never moves back (to ${dest})` };
      if (dr === 0 && onOwnHalf(piece.color, from)) {
        return {
          code: "soldier_sideways_before_river",
          message: `${what} cannot move sideways to ${dest} before it has crossed the river`
        };
      }
      if (dr === 0 && adf === 1 || df === 0 && dr === ahead) return void 0;
      const how = onOwnHalf(piece.color, from) ? "one point forward" : "one point forward or sideways";
      return { code: "soldier_step", message: `${what} moves ${how}, not to ${dest}` };
    }
  }
}

// src/util/result.ts
var ok = (value) => ({ ok: true, value });
var err = (error) => ({ ok: false, error });

// src/rules/setup.ts
var BACK = [
  "chariot",
  "horse",
  "elephant",
  "advisor",
  "king",
  "advisor",
  "elephant",
  "horse",
  "chariot"
];
function defaultSetup() {
  const board = new Array(90).fill(void 0);
  for (const [color, back, cannons, pawns] of [
    ["red", 0, 2, 3],
    ["black", 9, 7, 6]
  ]) {
    BACK.forEach((role, file) => {
      board[makeSquare(file, back)] = { color, role };
    });
    board[makeSquare(1, cannons)] = { color, role: "cannon" };
    board[makeSquare(7, cannons)] = { color, role: "cannon" };
    for (let file = 0; file < 9; file += 2) board[makeSquare(file, pawns)] = { color, role: "pawn" };
  }
  return { board, turn: "red", halfmoves: 0, fullmoves: 1 };
}

// src/rules/fen.ts
var INITIAL_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
var fenError = (code, message) => err({ code, message });
function parseFen(input) {
  const fen = input.trim();
  if (fen === "") return fenError("empty", "FEN is empty");
  const fields = fen.split(/\s+/);
  const rows = fields[0].split("/");
  if (rows.length !== 10) {
    return fenError("rows", `FEN board has ${rows.length} rows, expected 10`);
  }
  const board = new Array(90).fill(void 0);
  for (let r = 0; r < 10; r++) {
    const rank = 9 - r;
    let file = 0;
    for (const ch of rows[r]) {
      if (ch >= "1" && ch <= "9") {
        file += ch.charCodeAt(0) - 48;
      } else {
        const role = letterRole(ch);
        if (!role) {
          return fenError("piece", `unknown piece letter '${ch}' in row ${r + 1} (rank ${rank})`);
        }
        if (file < 9) {
          board[makeSquare(file, rank)] = { color: ch === ch.toUpperCase() ? "red" : "black", role };
        }
        file++;
      }
      if (file > 9) break;
    }
    if (file !== 9) {
      return fenError(
        "row_length",
        `FEN row ${r + 1} (rank ${rank}) '${rows[r]}' covers ${file} files, expected 9`
      );
    }
  }
  let turn = "red";
  const side = fields[1];
  if (side !== void 0) {
    if (side === "w" || side === "r" || side === "W" || side === "R") turn = "red";
    else if (side === "b" || side === "B") turn = "black";
    else return fenError("turn", `side to move '${side}' is not w, r or b`);
  }
  let halfmoves = 0;
  let fullmoves = 1;
  const counters = fields.slice(4);
  if (counters.length > 2 || fields.length > 6) {
    return fenError("counters", `FEN has ${fields.length} fields, expected at most 6`);
  }
  if (counters[0] !== void 0) {
    if (!/^\d{1,4}$/.test(counters[0])) {
      return fenError("counters", `halfmove clock '${counters[0]}' is not a whole number`);
    }
    halfmoves = Number(counters[0]);
  }
  if (counters[1] !== void 0) {
    if (!/^\d{1,4}$/.test(counters[1]) || Number(counters[1]) < 1) {
      return fenError("counters", `move number '${counters[1]}' is not a whole number from 1`);
    }
    fullmoves = Number(counters[1]);
  }
  return ok({ board, turn, halfmoves, fullmoves });
}
function makeBoardFen(board) {
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = "";
    let empty = 0;
    for (let file = 0; file < 9; file++) {
      const p = board[makeSquare(file, rank)];
      if (!p) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += makePieceLetter(p);
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return rows.join("/");
}
function makeFen(setup2) {
  return `${makeBoardFen(setup2.board)} ${setup2.turn === "red" ? "w" : "b"} - - ${setup2.halfmoves} ${setup2.fullmoves}`;
}

// src/rules/iccs.ts
function parseIccs(text) {
  const m = /^([a-iA-I][0-9])-?([a-iA-I][0-9])$/.exec(text.trim());
  if (!m) return err({ code: "iccs_syntax", message: `'${text}' is not an ICCS move like h2e2` });
  const from = parseSquare(m[1]);
  const to = parseSquare(m[2]);
  if (from === to) return err({ code: "iccs_syntax", message: `'${text}' moves a piece to its own square` });
  return ok({ from, to });
}
var makeIccs = (move) => makeSquareName(move.from) + makeSquareName(move.to);

// src/rules/zobrist.ts
function splitmix32(seed) {
  let s = seed >>> 0;
  return () => {
    s = s + 2654435769 | 0;
    let z = s;
    z = Math.imul(z ^ z >>> 16, 2246822507);
    z = Math.imul(z ^ z >>> 13, 3266489909);
    return z ^ z >>> 16 | 0;
  };
}
var next = splitmix32(1481720388);
var ZOBRIST_LO = new Int32Array(14 * 256);
var ZOBRIST_HI = new Int32Array(14 * 256);
for (let k = 0; k < ZOBRIST_LO.length; k++) {
  ZOBRIST_LO[k] = next();
  ZOBRIST_HI[k] = next();
}
var ZOBRIST_SIDE_LO = next();
var ZOBRIST_SIDE_HI = next();
var zobristIndex = (id, i) => ((id & RED ? 0 : 7) + ROLE_OF[id] - 1) * 256 + i;

// src/rules/position.ts
var MAX_PLY = 128;
var MOVES_PER_PLY = 256;
var HORSE_JUMPS = [
  [-33, -31],
  [-18, 14],
  [-14, 18],
  [31, 33]
];
var HORSE_ATTACKERS = [
  [-33, -18],
  [-31, -14],
  [14, 31],
  [18, 33]
];
var SCRATCH = new Int32Array(MOVES_PER_PLY);
var ONLY_FROM = new Uint8Array(256);
var SIDE_NAMES = ["red", "black"];
var sideIndex = (c) => c === "red" ? 0 : 1;
var NO_UNDO_MOVES = new Int32Array(0);
var NO_UNDO_CAPTURES = new Uint8Array(0);
var encodeMove = (from, to) => from | to << 8;
var Position = class _Position {
  /** Piece id or OFF on each mailbox index. */
  mailbox;
  /** Mailbox index of each piece id, 0 when it is not on the board. */
  placed;
  /** Side to move: 0 red, 1 black. */
  stm = 0;
  half = 0;
  full = 1;
  /** Zobrist key of pieces and side to move, in two 32-bit halves. */
  keyLo = 0;
  keyHi = 0;
  // Undo stack of make(): move, captured id, halfmoves. Empty until the first make(): most
  // positions (copies handed out by the game, one kept per ply) never make a move.
  // (Shared empty buffers: growUndo() replaces them before the first write.)
  undoMove = NO_UNDO_MOVES;
  undoCaptured = NO_UNDO_CAPTURES;
  undoHalf = NO_UNDO_MOVES;
  undoTop = 0;
  searchBuffer;
  /** Per-ply move buffers for recursive searches (perft, engine), allocated on first use. */
  get moveBuffer() {
    this.searchBuffer ??= new Int32Array(MAX_PLY * MOVES_PER_PLY);
    return this.searchBuffer;
  }
  /** An empty board, or a copy of `from`'s board (its pieces, not its side or its undo stack). */
  constructor(from) {
    if (from) {
      this.mailbox = from.mailbox.slice();
      this.placed = from.placed.slice();
      return;
    }
    this.mailbox = new Uint8Array(256);
    this.placed = new Uint8Array(48);
    this.mailbox.fill(OFF);
    for (let sq2 = 0; sq2 < 90; sq2++) this.mailbox[TO_MAILBOX[sq2]] = 0;
  }
  static default() {
    const r = _Position.fromSetup(defaultSetup());
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  }
  /** `parseFen` then `fromSetup`: a FEN read from outside, checked. */
  static fromFen(fen) {
    const setup2 = parseFen(fen);
    return setup2.ok ? _Position.fromSetup(setup2.value) : setup2;
  }
  /** Checks a setup against every rule a reachable position obeys. */
  static fromSetup(setup2) {
    const pos = new _Position();
    const used = new Uint8Array(48);
    for (let sq2 = 0; sq2 < 90; sq2++) {
      const piece = setup2.board[sq2];
      if (!piece) continue;
      const side = sideIndex(piece.color);
      const at = makeSquareName(sq2);
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
          code: "too_many",
          message: `${piece.color} has more than ${count} ${ROLE_NAMES[piece.role]}${count > 1 ? "s" : ""} (extra at ${at})`
        });
      }
      const i = TO_MAILBOX[sq2];
      if (piece.role === "king" && !(IN_PALACE[i] && HOME[side][i])) {
        return err({ code: "king_palace", message: `${piece.color} general on ${at} is outside its palace` });
      }
      if (piece.role === "advisor" && !isAdvisorPoint(side, sq2)) {
        return err({
          code: "advisor_point",
          message: `${piece.color} advisor on ${at} is off the advisor points`
        });
      }
      if (piece.role === "elephant" && !isElephantPoint(side, sq2)) {
        return err({
          code: "elephant_point",
          message: `${piece.color} elephant on ${at} is off the elephant points`
        });
      }
      if (piece.role === "pawn" && !pawnPointOk(side, sq2)) {
        return err({
          code: "pawn_point",
          message: `${piece.color} soldier on ${at} stands where no soldier can be (behind its start rank or sideways before the river)`
        });
      }
      const id = sideBit(side) + slot;
      used[id] = 1;
      pos.mailbox[i] = id;
      pos.placed[id] = i;
    }
    for (const side of [0, 1]) {
      if (!pos.placed[sideBit(side)]) {
        return err({ code: "king_missing", message: `the ${SIDE_NAMES[side]} general is missing` });
      }
    }
    pos.stm = sideIndex(setup2.turn);
    pos.half = setup2.halfmoves;
    pos.full = setup2.fullmoves;
    if (pos.kingsFacing()) {
      const red = makeSquareName(pos.kingSquare("red"));
      const black = makeSquareName(pos.kingSquare("black"));
      return err({
        code: "kings_facing",
        message: `the two generals face each other on the open ${red[0]} file (${red} and ${black})`
      });
    }
    if (pos.isAttacked(pos.placed[sideBit(1 - pos.stm)], 1 - pos.stm)) {
      const waiting = SIDE_NAMES[1 - pos.stm];
      return err({
        code: "opponent_in_check",
        message: `the ${waiting} general on ${makeSquareName(pos.kingSquare(waiting))} is in check but it is ${SIDE_NAMES[pos.stm]}'s move`
      });
    }
    pos.computeHash();
    return ok(pos);
  }
  clone() {
    const p = new _Position(this);
    p.stm = this.stm;
    p.half = this.half;
    p.full = this.full;
    p.keyLo = this.keyLo;
    p.keyHi = this.keyHi;
    return p;
  }
  get turn() {
    return SIDE_NAMES[this.stm];
  }
  /** Plies since the last capture (the move limit's count, rule 4.2.4). */
  get halfmoves() {
    return this.half;
  }
  /** The move number, 1 at the start, counted up after black's move. */
  get fullmoves() {
    return this.full;
  }
  /** The Zobrist key's two 32-bit halves, for the transposition tables of a search. */
  get hashLow() {
    return this.keyLo;
  }
  get hashHigh() {
    return this.keyHi;
  }
  pieceAt(sq2) {
    const id = this.mailbox[TO_MAILBOX[sq2]];
    if (!id) return void 0;
    return { color: id & RED ? "red" : "black", role: CODE_ROLES[ROLE_OF[id]] };
  }
  /** The side to move as `colorAt` reads its pieces: 1 red, 2 black. */
  get turnCode() {
    return this.turn === "red" ? 1 : 2;
  }
  /** 0 empty, 1 a red piece, 2 a black piece: what colour sensors read, without allocating. */
  colorAt(sq2) {
    const id = this.mailbox[TO_MAILBOX[sq2]];
    return id === 0 ? 0 : id & RED ? 1 : 2;
  }
  /** Is the piece on `from` a chariot or cannon (a piece that may be slid along a line)? */
  isSlider(from) {
    const id = this.mailbox[TO_MAILBOX[from]];
    if (!id) return false;
    const role = ROLE_OF[id];
    return role === CHARIOT || role === CANNON;
  }
  toSetup() {
    const board = [];
    for (let sq2 = 0; sq2 < 90; sq2++) board.push(this.pieceAt(sq2));
    return { board, turn: this.turn, halfmoves: this.half, fullmoves: this.full };
  }
  get boardFen() {
    return makeBoardFen(this.toSetup().board);
  }
  kingSquare(color) {
    return FROM_MAILBOX[this.placed[sideBit(sideIndex(color))]];
  }
  /** A 53-bit Zobrist key of pieces and side to move. */
  get hash() {
    return (this.keyHi >>> 0) * 2097152 + (this.keyLo >>> 11);
  }
  computeHash() {
    let lo = 0;
    let hi = 0;
    for (let id = 16; id < 48; id++) {
      const i = this.placed[id];
      if (!i) continue;
      const z = zobristIndex(id, i);
      lo ^= ZOBRIST_LO[z];
      hi ^= ZOBRIST_HI[z];
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
  isAttacked(k, side) {
    const board = this.mailbox;
    const them = sideBit(1 - side);
    for (let d = 0; d < 4; d++) {
      const delta = ORTHO[d];
      let t = k + delta;
      let p2 = board[t];
      while (p2 === 0) {
        t += delta;
        p2 = board[t];
      }
      if (p2 & them) {
        const role = ROLE_OF[p2];
        if (role === CHARIOT || role === KING) return true;
      }
      if (p2 === OFF) continue;
      t += delta;
      p2 = board[t];
      while (p2 === 0) {
        t += delta;
        p2 = board[t];
      }
      if (p2 & them && ROLE_OF[p2] === CANNON) return true;
    }
    for (let d = 0; d < 4; d++) {
      if (board[k + DIAG[d]] !== 0) continue;
      const pair = HORSE_ATTACKERS[d];
      let p2 = board[k + pair[0]];
      if (p2 & them && ROLE_OF[p2] === HORSE) return true;
      p2 = board[k + pair[1]];
      if (p2 & them && ROLE_OF[p2] === HORSE) return true;
    }
    let p = board[k + forward(side)];
    if (p & them && ROLE_OF[p] === PAWN) return true;
    p = board[k - 1];
    if (p & them && ROLE_OF[p] === PAWN && crossed(1 - side, k - 1)) return true;
    p = board[k + 1];
    if (p & them && ROLE_OF[p] === PAWN && crossed(1 - side, k + 1)) return true;
    return false;
  }
  isCheck() {
    return this.isAttacked(this.placed[sideBit(this.stm)], this.stm);
  }
  kingsFacing() {
    const a = this.placed[RED];
    const b = this.placed[BLACK];
    if ((a & 15) !== (b & 15)) return false;
    for (let t = a + 16; t < b; t += 16) if (this.mailbox[t] !== 0) return false;
    return true;
  }
  // ---------------------------------------------------------------- move generation
  /**
   * Writes the legal moves of the side to move into `out` from `start`; returns how many.
   * Moves are `from | to << 8` in mailbox indices. Allocates nothing.
   */
  generateLegal(out, start) {
    const board = this.mailbox;
    const side = this.stm;
    const us = sideBit(side);
    const them = sideBit(1 - side);
    const base = us;
    const king = this.placed[base];
    const inCheck = this.isAttacked(king, side);
    this.fullTest = inCheck;
    const kingFile = king & 15;
    const kingRank = king >> 4;
    const only = this.onlyFrom;
    let n = start;
    for (let d = 0; d < 4 && (only === void 0 || only[king] === 1); d++) {
      const t = king + ORTHO[d];
      const p = board[t];
      if (IN_PALACE[t] && (p === 0 || p & them) && this.safeAfter(king, t, t)) {
        out[n++] = king | t << 8;
      }
    }
    for (let slot = 1; slot < 16; slot++) {
      const f = this.placed[base + slot];
      if (!f || only !== void 0 && only[f] !== 1) continue;
      const fromRisky = inCheck || (f & 15) === kingFile || f >> 4 === kingRank || f - king === 15 || f - king === 17 || king - f === 15 || king - f === 17;
      switch (slot) {
        case 1:
        case 2:
          for (let d = 0; d < 4; d++) {
            const t = f + DIAG[d];
            const p = board[t];
            if (IN_PALACE[t] && (p === 0 || p & them)) {
              if (fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) {
                if (!this.safeAfter(f, t, king)) continue;
              }
              out[n++] = f | t << 8;
            }
          }
          break;
        case 3:
        case 4: {
          const home = HOME[side];
          for (let d = 0; d < 4; d++) {
            const eye = f + DIAG[d];
            if (board[eye] !== 0) continue;
            const t = eye + DIAG[d];
            const p = board[t];
            if (home[t] && (p === 0 || p & them)) {
              if (fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) {
                if (!this.safeAfter(f, t, king)) continue;
              }
              out[n++] = f | t << 8;
            }
          }
          break;
        }
        case 5:
        case 6:
          for (let d = 0; d < 4; d++) {
            if (board[f + ORTHO[d]] !== 0) continue;
            const jumps = HORSE_JUMPS[d];
            for (let j = 0; j < 2; j++) {
              const t = f + jumps[j];
              const p = board[t];
              if (p === 0 || p & them) {
                if (fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) {
                  if (!this.safeAfter(f, t, king)) continue;
                }
                out[n++] = f | t << 8;
              }
            }
          }
          break;
        case 7:
        case 8:
          for (let d = 0; d < 4; d++) {
            const delta = ORTHO[d];
            let t = f + delta;
            let p = board[t];
            while (true) {
              if (p !== 0 && !(p & them)) break;
              if (fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) {
                if (this.safeAfter(f, t, king)) out[n++] = f | t << 8;
              } else {
                out[n++] = f | t << 8;
              }
              if (p !== 0) break;
              t += delta;
              p = board[t];
            }
          }
          break;
        case 9:
        case 10:
          for (let d = 0; d < 4; d++) {
            const delta = ORTHO[d];
            let t = f + delta;
            let p = board[t];
            while (p === 0) {
              if (fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) {
                if (this.safeAfter(f, t, king)) out[n++] = f | t << 8;
              } else {
                out[n++] = f | t << 8;
              }
              t += delta;
              p = board[t];
            }
            if (p === OFF) continue;
            t += delta;
            p = board[t];
            while (p === 0) {
              t += delta;
              p = board[t];
            }
            if (p & them) {
              if (fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) {
                if (this.safeAfter(f, t, king)) out[n++] = f | t << 8;
              } else {
                out[n++] = f | t << 8;
              }
            }
          }
          break;
        default: {
          let t = f + forward(side);
          let p = board[t];
          if (p === 0 || p & them) {
            if (!(fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) || this.safeAfter(f, t, king)) {
              out[n++] = f | t << 8;
            }
          }
          if (crossed(side, f)) {
            t = f - 1;
            p = board[t];
            if (p === 0 || p & them) {
              if (!(fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) || this.safeAfter(f, t, king)) {
                out[n++] = f | t << 8;
              }
            }
            t = f + 1;
            p = board[t];
            if (p === 0 || p & them) {
              if (!(fromRisky || (t & 15) === kingFile || t >> 4 === kingRank) || this.safeAfter(f, t, king)) {
                out[n++] = f | t << 8;
              }
            }
          }
        }
      }
    }
    return n - start;
  }
  /** Plays f→t on the bare board, tests the general standing on `king` (its new square if it moved), undoes. */
  fullTest = true;
  /** While `legalMovesFrom` runs: the mailbox indices whose pieces' moves are wanted (1), or every piece. */
  onlyFrom;
  safeAfter(f, t, king) {
    const board = this.mailbox;
    const moving = board[f];
    const captured = board[t];
    board[t] = moving;
    board[f] = 0;
    const attacked = this.fullTest || f === king || t === king ? this.isAttacked(king, this.stm) : this.exposedBy(f, t, king);
    board[f] = moving;
    board[t] = captured;
    return !attacked;
  }
  /**
   * Not in check, a piece other than the general went f → t (already on the board): only the lines
   * from the general through f or t and a horse leg on f can have opened.
   */
  exposedBy(f, t, king) {
    const df = this.lineDelta(king, f);
    if (df !== 0 && this.rayAttacked(king, df)) return true;
    const dt = this.lineDelta(king, t);
    if (dt !== 0 && dt !== df && this.rayAttacked(king, dt)) return true;
    const leg = f - king;
    for (let d = 0; d < 4; d++) {
      if (DIAG[d] !== leg) continue;
      const them = sideBit(1 - this.stm);
      const pair = HORSE_ATTACKERS[d];
      let p = this.mailbox[king + pair[0]];
      if (p & them && ROLE_OF[p] === HORSE) return true;
      p = this.mailbox[king + pair[1]];
      if (p & them && ROLE_OF[p] === HORSE) return true;
    }
    return false;
  }
  lineDelta(king, sq2) {
    if ((sq2 & 15) === (king & 15)) return sq2 > king ? 16 : -16;
    if (sq2 >> 4 === king >> 4) return sq2 > king ? 1 : -1;
    return 0;
  }
  /** Chariot, facing general or cannon attack on the general along one direction. */
  rayAttacked(king, delta) {
    const board = this.mailbox;
    const them = sideBit(1 - this.stm);
    let t = king + delta;
    let p = board[t];
    while (p === 0) {
      t += delta;
      p = board[t];
    }
    if (p === OFF) return false;
    if (p & them) {
      const role = ROLE_OF[p];
      if (role === CHARIOT || role === KING) return true;
    }
    t += delta;
    p = board[t];
    while (p === 0) {
      t += delta;
      p = board[t];
    }
    return (p & them) !== 0 && p !== OFF && ROLE_OF[p] === CANNON;
  }
  /** The encoded legal moves (`from | to << 8`, mailbox indices), in a new array of their own. */
  legalCodes() {
    return SCRATCH.slice(0, this.generateLegal(SCRATCH, 0));
  }
  /** Does the side to move have any legal move? */
  hasLegalMove() {
    return this.generateLegal(SCRATCH, 0) > 0;
  }
  // ---------------------------------------------------------------- make / unmake
  /** Plays an encoded legal move; `unmake()` takes it back. */
  make(m) {
    const f = m & 255;
    const t = m >> 8 & 255;
    const board = this.mailbox;
    const moving = board[f];
    const captured = board[t];
    const top = this.undoTop++;
    if (top === this.undoMove.length) this.growUndo();
    this.undoMove[top] = m;
    this.undoCaptured[top] = captured;
    this.undoHalf[top] = this.half;
    let zf = zobristIndex(moving, f);
    const zt = zobristIndex(moving, t);
    let lo = this.keyLo ^ ZOBRIST_LO[zf] ^ ZOBRIST_LO[zt] ^ ZOBRIST_SIDE_LO;
    let hi = this.keyHi ^ ZOBRIST_HI[zf] ^ ZOBRIST_HI[zt] ^ ZOBRIST_SIDE_HI;
    if (captured) {
      zf = zobristIndex(captured, t);
      lo ^= ZOBRIST_LO[zf];
      hi ^= ZOBRIST_HI[zf];
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
  growUndo() {
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
  unmake() {
    const top = --this.undoTop;
    const m = this.undoMove[top];
    const captured = this.undoCaptured[top];
    const f = m & 255;
    const t = m >> 8 & 255;
    const board = this.mailbox;
    const moving = board[t];
    this.stm ^= 1;
    if (this.stm) this.full--;
    this.half = this.undoHalf[top];
    board[f] = moving;
    board[t] = captured;
    this.placed[moving] = f;
    const zf = zobristIndex(moving, f);
    let zt = zobristIndex(moving, t);
    let lo = this.keyLo ^ ZOBRIST_LO[zf] ^ ZOBRIST_LO[zt] ^ ZOBRIST_SIDE_LO;
    let hi = this.keyHi ^ ZOBRIST_HI[zf] ^ ZOBRIST_HI[zt] ^ ZOBRIST_SIDE_HI;
    if (captured) {
      this.placed[captured] = t;
      zt = zobristIndex(captured, t);
      lo ^= ZOBRIST_LO[zt];
      hi ^= ZOBRIST_HI[zt];
    }
    this.keyLo = lo;
    this.keyHi = hi;
  }
  /** Passes the move (a search's null move): the side to move changes, nothing else. `unmakeNull()` undoes it. */
  makeNull() {
    this.stm ^= 1;
    this.keyLo ^= ZOBRIST_SIDE_LO;
    this.keyHi ^= ZOBRIST_SIDE_HI;
  }
  unmakeNull() {
    this.makeNull();
  }
  // ---------------------------------------------------------------- internal, for src/engine only
  // src/engine (search.ts, eval.ts; owned by the engine work) still reads the mailbox, the piece
  // squares and the side, and writes the side and the key for its null move. These accessors keep
  // it compiling until it uses the API above (generateLegal/make/unmake, makeNull, hashLow/High,
  // pieceAt). Nothing else may use them.
  /** @deprecated internal (src/engine): piece id on each mailbox index. */
  get board() {
    return this.mailbox;
  }
  /** @deprecated internal (src/engine): mailbox index of each piece id, 0 when captured. */
  get squares() {
    return this.placed;
  }
  /** @deprecated internal (src/engine): side to move, 0 red, 1 black; use `turn`, `makeNull()`. */
  get side() {
    return this.stm;
  }
  set side(side) {
    this.stm = side;
  }
  /** @deprecated internal (src/engine): use `hashLow`, `makeNull()`. */
  get hashLo() {
    return this.keyLo;
  }
  set hashLo(key) {
    this.keyLo = key;
  }
  /** @deprecated internal (src/engine): use `hashHigh`, `makeNull()`. */
  get hashHi() {
    return this.keyHi;
  }
  set hashHi(key) {
    this.keyHi = key;
  }
  // ---------------------------------------------------------------- friendly API (squares 0..89)
  legalMoves() {
    const buf = SCRATCH;
    const n = this.generateLegal(buf, 0);
    const moves = [];
    for (let k = 0; k < n; k++) {
      const m = buf[k];
      moves.push({ from: FROM_MAILBOX[m & 255], to: FROM_MAILBOX[m >> 8 & 255] });
    }
    return moves;
  }
  /**
   * The legal moves of the pieces on the squares `from` accepts, in `legalMoves()`'s order: only
   * those pieces' moves are generated (a search that follows a few lifted pieces need not generate
   * all forty).
   */
  legalMovesFrom(from) {
    const only = ONLY_FROM;
    only.fill(0);
    const base = sideBit(this.stm);
    for (let slot = 0; slot < 16; slot++) {
      const i = this.placed[base + slot];
      if (i && from(FROM_MAILBOX[i])) only[i] = 1;
    }
    this.onlyFrom = only;
    let n;
    try {
      n = this.generateLegal(SCRATCH, 0);
    } finally {
      this.onlyFrom = void 0;
    }
    const moves = [];
    for (let k = 0; k < n; k++) {
      const m = SCRATCH[k];
      moves.push({ from: FROM_MAILBOX[m & 255], to: FROM_MAILBOX[m >> 8 & 255] });
    }
    return moves;
  }
  /** Legal destinations of the piece on `from` (empty when it is not the mover's). */
  legalDestinations(from) {
    return this.legalMovesFrom((sq2) => sq2 === from).map((m) => m.to);
  }
  isLegal(move) {
    const f = TO_MAILBOX[move.from];
    const t = TO_MAILBOX[move.to];
    if (f === void 0 || t === void 0) return false;
    const buf = SCRATCH;
    const n = this.generateLegal(buf, 0);
    const m = f | t << 8;
    for (let k = 0; k < n; k++) if (buf[k] === m) return true;
    return false;
  }
  /** Plays a legal move (checked by the caller); returns the captured piece. */
  play(move) {
    const captured = this.pieceAt(move.to);
    this.make(encodeMove(TO_MAILBOX[move.from], TO_MAILBOX[move.to]));
    return captured;
  }
  /** Takes back the last `play()`/`make()`. */
  undo() {
    if (this.undoTop === 0) throw new Error("nothing to undo");
    this.unmake();
  }
  isCheckmate() {
    return this.isCheck() && !this.hasLegalMove();
  }
  /** No legal move while not in check: a loss in xiangqi (rule 3.2, 4.1.3). */
  isStalemate() {
    return !this.isCheck() && !this.hasLegalMove();
  }
  /** Pieces of one colour and role, as squares. */
  piecesOf(color, role) {
    const side = sideIndex(color);
    const [first, count] = SLOTS[role];
    const out = [];
    for (let k = 0; k < count; k++) {
      const i = this.placed[sideBit(side) + first + k];
      if (i) out.push(FROM_MAILBOX[i]);
    }
    return out;
  }
};
function pawnPointOk(side, sq2) {
  const file = sq2 % 9;
  const rank = Math.floor(sq2 / 9);
  const rel = side === 0 ? rank : 9 - rank;
  if (rel < 3) return false;
  if (rel <= 4) return file % 2 === 0;
  return true;
}

// src/game/clock.ts
var ChessClock = class _ChessClock {
  constructor(control) {
    this.control = control;
    const first = control.periods[0];
    const fresh = () => ({ remaining: first.ms, period: 0, movesInPeriod: 0, moves: 0 });
    this.sides = { red: fresh(), black: fresh() };
  }
  control;
  sides;
  runningSide;
  since = 0;
  lastTime = Number.NEGATIVE_INFINITY;
  fallen;
  log = [];
  static create(control) {
    const { periods } = control;
    if (periods.length === 0) return err({ code: "bad_control", message: "a clock control needs a period" });
    for (const [k, p] of periods.entries()) {
      const bad = !(Number.isFinite(p.ms) && p.ms > 0) || p.moves !== void 0 && !(Number.isInteger(p.moves) && p.moves > 0) || p.incrementMs !== void 0 && !(Number.isFinite(p.incrementMs) && p.incrementMs >= 0);
      if (bad)
        return err({
          code: "bad_control",
          message: `clock period ${k + 1} has a bad time, move count or increment`
        });
      if (p.moves === void 0 && k !== periods.length - 1) {
        return err({
          code: "bad_control",
          message: `sudden death (period ${k + 1}) must be the last period`
        });
      }
    }
    return ok(new _ChessClock(control));
  }
  get running() {
    return this.runningSide;
  }
  get flag() {
    return this.fallen;
  }
  /** Moves completed by `color` on this clock. */
  moves(color) {
    return this.sides[color].moves;
  }
  /** The period `color` is in (0-based, counting repeats). */
  period(color) {
    return this.sides[color].period;
  }
  /** Starts (or resumes) the clock of `color` at time `t`. */
  start(color, t) {
    const time = this.advance(t);
    if (!time.ok) return time;
    if (this.fallen) return this.flagError();
    if (this.runningSide) this.chargeRunning(t);
    this.runningSide = color;
    this.since = t;
    return ok(void 0);
  }
  /** Stops both clocks (a pause called by the arbiter, or the end of the game). */
  stop(t) {
    const time = this.advance(t);
    if (!time.ok) return time;
    this.tick(t);
    if (this.runningSide && !this.fallen) this.chargeRunning(t);
    this.runningSide = void 0;
    return ok(void 0);
  }
  /** Time left to `color` at `now` (never below zero). */
  remaining(color, now) {
    const side = this.sides[color];
    if (this.fallen?.color === color) return 0;
    const used = this.runningSide === color ? Math.max(0, now - this.since) : 0;
    return Math.max(0, side.remaining - used);
  }
  /** Detects a flag at `now`: the running side's time has reached zero. */
  tick(now) {
    if (this.fallen || !this.runningSide) return this.fallen;
    const side = this.sides[this.runningSide];
    if (now - this.since >= side.remaining) {
      this.fallen = { color: this.runningSide, at: this.since + side.remaining };
    }
    return this.fallen;
  }
  /**
   * `color` completed a move (or pressed its button) at `t`: its time is charged, increments and
   * a completed period's time are added, and the other side's clock starts. A press that comes
   * after the time ran out does not count: the flag fell first (error `flag_fell`).
   */
  press(color, t) {
    const time = this.advance(t);
    if (!time.ok) return time;
    if (!this.runningSide) return err({ code: "not_started", message: "the clock has not been started" });
    if (this.runningSide !== color) {
      return err({
        code: "not_running",
        message: `${color}'s clock is not running (${this.runningSide} is to move)`
      });
    }
    if (this.tick(t)) return this.flagError();
    const side = this.sides[color];
    const record = { color, before: { ...side }, used: t - this.since };
    this.log.push(record);
    side.remaining -= t - this.since;
    const period = this.periodAt(side.period);
    side.remaining += period.incrementMs ?? 0;
    side.moves++;
    side.movesInPeriod++;
    if (period.moves !== void 0 && side.movesInPeriod >= period.moves) {
      const next2 = this.periodAt(side.period + 1);
      if (next2 !== period || this.control.repeatLast !== false) {
        side.period++;
        side.movesInPeriod = 0;
        side.remaining += next2.ms;
      }
    }
    record.left = side.remaining;
    this.runningSide = opposite(color);
    this.since = t;
    return ok(void 0);
  }
  /** Time left to the side that pressed, just after each press that stands (`[%clk]` of each move). */
  leftAfterPresses() {
    return this.log.map((r) => r.left ?? 0);
  }
  /**
   * Takes back the last press at `t` (a move taken back on the board): the side now running is
   * charged its time so far; the side that pressed gets back its clock as it was before that press,
   * minus the time it had used on the move, and runs again.
   */
  takeBack(t) {
    const time = this.advance(t);
    if (!time.ok) return time;
    const last = this.log.pop();
    if (!last) return err({ code: "not_started", message: "no clock press to take back" });
    if (this.runningSide && !this.fallen) this.chargeRunning(t);
    this.sides[last.color] = { ...last.before, remaining: last.before.remaining - last.used };
    this.runningSide = last.color;
    this.since = t;
    return ok(void 0);
  }
  periodAt(index) {
    const { periods } = this.control;
    return periods[Math.min(index, periods.length - 1)];
  }
  chargeRunning(t) {
    const side = this.sides[this.runningSide];
    side.remaining -= t - this.since;
    this.since = t;
  }
  advance(t) {
    if (!Number.isFinite(t))
      return err({ code: "time_backwards", message: `time ${t} is not a number of ms` });
    if (t < this.lastTime) {
      return err({
        code: "time_backwards",
        message: `time ${t} is before the last clock event (${this.lastTime})`
      });
    }
    this.lastTime = t;
    return ok(void 0);
  }
  flagError() {
    const f = this.fallen;
    return err({ code: "flag_fell", message: `${f.color}'s flag fell at ${f.at} ms` });
  }
};

// src/game/material.ts
var ATTACKERS = /* @__PURE__ */ new Set(["chariot", "horse", "cannon", "pawn"]);
function isInsufficientMaterial(board) {
  for (const piece of board) if (piece && ATTACKERS.has(piece.role)) return false;
  return true;
}

// src/game/outcome.ts
var ARTICLES = {
  checkmate: "4.1.1",
  facing_generals: "4.1.2",
  stalemate: "4.1.3",
  time: "4.1.4",
  illegal_move: "4.1.6",
  perpetual_check: "4.1.7",
  perpetual_chase: "4.1.7",
  fouls: "4.1.8",
  resignation: "4.1.9",
  insufficient_material: "4.2.1",
  agreement: "4.2.2",
  repetition: "4.2.3",
  move_limit: "4.2.4"
};
var RULES_REASONS = /* @__PURE__ */ new Set([
  "checkmate",
  "stalemate",
  "perpetual_check",
  "perpetual_chase",
  "repetition",
  "move_limit",
  "insufficient_material"
]);
var resultFor = (loser) => loser === void 0 ? "1/2-1/2" : loser === "black" ? "1-0" : "0-1";

// src/game/policy.ts
var CASUAL = { kind: "casual" };

// src/game/chase.ts
var ORTHO3 = [
  [0, 1],
  [0, -1],
  [1, 0],
  [-1, 0]
];
var DIAG3 = [
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1]
];
var piecesOf = (board, color, roles) => {
  let set = EMPTY_SET;
  for (let s = 0; s < 90; s++) {
    const p = board[s];
    if (p && p.color === color && (!roles || roles.includes(p.role))) set |= squareBit(s);
  }
  return set;
};
var without = (board, ...squares) => {
  const copy = board.slice();
  for (const s of squares) copy[s] = void 0;
  return copy;
};
var between2 = (a, b) => squareSetOf(between(a, b));
function lineThrough(a, b) {
  let set = EMPTY_SET;
  if (squareFile(a) === squareFile(b)) for (let r = 0; r < 10; r++) set |= squareBit(r * 9 + squareFile(a));
  else if (squareRank(a) === squareRank(b)) for (let f = 0; f < 9; f++) set |= squareBit(squareRank(a) * 9 + f);
  return set;
}
function crossOf(sq2) {
  let set = EMPTY_SET;
  for (let r = 0; r < 10; r++) set |= squareBit(r * 9 + squareFile(sq2));
  for (let f = 0; f < 9; f++) set |= squareBit(squareRank(sq2) * 9 + f);
  return set & ~squareBit(sq2);
}
function neighbours(sq2, steps) {
  let set = EMPTY_SET;
  for (const [df, dr] of steps) {
    const t = squareAt(squareFile(sq2) + df, squareRank(sq2) + dr);
    if (t !== void 0) set |= squareBit(t);
  }
  return set;
}
function kingBlockers(board, kingColor) {
  const k = generalOf(board, kingColor);
  if (k === void 0) return EMPTY_SET;
  const enemy = kingColor === "red" ? "black" : "red";
  let blockers = EMPTY_SET;
  for (let s = 0; s < 90; s++) {
    const p = board[s];
    if (!p || p.color !== enemy) continue;
    if (p.role === "chariot" || p.role === "cannon") {
      if (squareFile(s) !== squareFile(k) && squareRank(s) !== squareRank(k)) continue;
      const b = between2(s, k);
      let occupied = EMPTY_SET;
      for (const t of squaresOf(b)) if (board[t]) occupied |= squareBit(t);
      const n = countSquares(occupied);
      if (p.role === "chariot" ? n === 1 : n === 2) blockers |= occupied;
    } else if (p.role === "horse") {
      const df = squareFile(k) - squareFile(s);
      const dr = squareRank(k) - squareRank(s);
      const jump = Math.abs(df) === 1 && Math.abs(dr) === 2 || Math.abs(df) === 2 && Math.abs(dr) === 1;
      if (!jump) continue;
      const leg = Math.abs(dr) === 2 ? squareAt(squareFile(s), squareRank(s) + Math.sign(dr)) : squareAt(squareFile(s) + Math.sign(df), squareRank(s));
      if (leg !== void 0 && board[leg]) blockers |= squareBit(leg);
    }
  }
  return blockers;
}
function undoMoveSquares(set, move) {
  if (!move || !hasSquare(set, move.to)) return set;
  return set & ~squareBit(move.to) | squareBit(move.from);
}
function chasedBy(before, after, move, explain2) {
  const mover = after[move.to]?.color;
  if (!mover) return EMPTY_SET;
  const victim = mover === "red" ? "black" : "red";
  const victimKing = generalOf(after, victim);
  const moverKing = generalOf(after, mover);
  let chased = EMPTY_SET;
  let pins = kingBlockers(after, victim);
  if (victimKing !== void 0 && moverKing !== void 0 && squareFile(victimKing) === squareFile(moverKing)) {
    const inBetween = [...squaresOf(between2(victimKing, moverKing))].filter((s) => after[s]);
    const only = inBetween[0];
    if (inBetween.length === 1 && only !== void 0 && after[only]?.color === victim) pins |= squareBit(only);
  }
  const victimPieces = piecesOf(after, victim);
  const notTargets = piecesOf(after, victim, ["king"]) | uncrossedPawns(after, victim);
  const mark = (set, why, by) => {
    if (explain2) for (const s of squaresOf(set & ~chased)) explain2(s, why, by);
    chased |= set;
  };
  const addChased = (attackerSq, attacker, attacked) => {
    let attacks = attacked;
    if (!(attacks & ~chased)) return;
    attacks &= ~notTargets;
    if (attacker === "horse" || attacker === "cannon")
      mark(attacks & piecesOf(after, victim, ["chariot"]), "stronger_target", attackerSq);
    if (attacker === "elephant" || attacker === "advisor")
      mark(attacks & piecesOf(after, victim, ["chariot", "cannon", "horse"]), "stronger_target", attackerSq);
    if (attacker === "horse" && neighbours(attackerSq, DIAG3) & occupancy(after)) {
      for (const s of squaresOf(attacks & piecesOf(after, victim, ["horse"]))) {
        if (hasSquare(attacksFrom(after, s, { color: victim, role: "horse" }), attackerSq))
          attacks &= ~squareBit(s);
      }
    } else {
      attacks &= ~piecesOf(after, victim, [attacker]) | pins;
    }
    const vacated = without(after, attackerSq);
    for (const s of squaresOf(attacks)) {
      const roots = attackersTo(vacated, s, victim) & ~pins;
      const onlyKing = victimKing !== void 0 && roots === squareBit(victimKing);
      if (!roots || onlyKing && moverKing !== void 0 && facesAfterRecapture(vacated, moverKing, s)) {
        mark(
          squareBit(s),
          roots ? "false_protection" : attackersTo(vacated, s, victim) ? "pinned_protector" : "unprotected",
          attackerSq
        );
      }
    }
  };
  const moved = after[move.to];
  if (moved.role !== "king" && moved.role !== "pawn") {
    let direct = attacksFrom(after, move.to, moved) & victimPieces;
    if (moved.role === "chariot" || moved.role === "cannon") direct &= ~lineThrough(move.from, move.to);
    addChased(move.to, moved.role, direct);
  }
  const captured = before[move.to] !== void 0;
  const candidates = neighbours(move.from, ORTHO3) & piecesOf(after, mover, ["horse"]) | neighbours(move.from, DIAG3) & piecesOf(after, mover, ["elephant"]) | crossOf(move.from) & piecesOf(after, mover, ["cannon", "chariot"]) | crossOf(move.to) & piecesOf(after, mover, ["cannon"]);
  const previous = after.slice();
  previous[move.from] = moved;
  if (!captured) previous[move.to] = void 0;
  for (const s of squaresOf(candidates)) {
    const piece = after[s];
    const prevBoard = previous.slice();
    prevBoard[s] = piece;
    const discoveries = victimPieces & attacksFrom(after, s, piece) & ~attacksFrom(prevBoard, s, piece);
    addChased(s, piece.role, discoveries);
  }
  const newBlockers = kingBlockers(after, victim) & ~kingBlockers(before, victim);
  for (const s of squaresOf(newBlockers & victimPieces)) {
    const pinned = after[s];
    const unrooted = victimPieces & ~notTargets & attacksFrom(after, s, pinned);
    const moverPins = kingBlockers(after, mover);
    for (const s2 of squaresOf(unrooted)) {
      const attackers = attackersTo(after, s2, mover) & ~moverPins;
      if (attackers) mark(squareBit(s2), "undermined_root", [...squaresOf(attackers)][0]);
    }
  }
  if (victimKing !== void 0) {
    const kingReach = attacksFrom(after, victimKing, { color: victim, role: "king" });
    for (const s of squaresOf(newBlockers & piecesOf(after, mover))) {
      const discoverer = after[s];
      const attacks = attacksFrom(after, s, discoverer) & victimPieces;
      mark(attacks & ~kingReach, "discovered_check_threat", s);
      const board = without(after, s, victimKing);
      for (const s2 of squaresOf(attacks & kingReach)) {
        if (attackersTo(board, s2, mover) & ~squareBit(s)) mark(squareBit(s2), "discovered_check_threat", s);
      }
    }
  }
  return chased;
}
function occupancy(board) {
  let set = EMPTY_SET;
  for (let s = 0; s < 90; s++) if (board[s]) set |= squareBit(s);
  return set;
}
function uncrossedPawns(board, color) {
  let set = EMPTY_SET;
  for (let s = 0; s < 90; s++) {
    const p = board[s];
    if (p && p.color === color && p.role === "pawn" && !crossedRiver(color, s)) set |= squareBit(s);
  }
  return set;
}
function facesAfterRecapture(board, enemyKing, s) {
  if (squareFile(s) !== squareFile(enemyKing)) return false;
  for (const t of squaresOf(between2(s, enemyKing))) if (board[t]) return false;
  return true;
}

// src/game/repetition.ts
var chasedAt = (states, k) => {
  const state = states[k];
  if (!state.move) return EMPTY_SET;
  state.chased ??= chasedBy(states[k - 1].board, state.board, state.move);
  return state.chased;
};
function judgeRepetition(states, sinceCapture, occurrences = 3) {
  const n = states.length - 1;
  const end = Math.min(sinceCapture, n);
  if (end < 4) return void 0;
  const P = (k) => states[n - k];
  let seen = 1;
  for (let i = 4; i <= end; i += 2) if (P(i).hash === P(0).hash && P(i).key === P(0).key) seen++;
  if (seen < occurrences) return void 0;
  const them = P(0).board[P(0).move.to].color;
  const us = them === "red" ? "black" : "red";
  let perpetualThem = P(0).check && P(2).check;
  let perpetualUs = P(1).check && P(3).check;
  let chaseThem = undoMoveSquares(chasedAt(states, n), P(1).move) & chasedAt(states, n - 2);
  let chaseUs = undoMoveSquares(chasedAt(states, n - 1), P(2).move) & chasedAt(states, n - 3);
  const toPresent = (set, k) => {
    let out = set;
    for (let j = k - 1; j >= 0; j--) {
      const m = P(j).move;
      out = undoMoveSquares(out, { from: m.to, to: m.from });
    }
    return out;
  };
  let count = 0;
  for (let i = 4; i <= end; i += 2) {
    if (i !== n) chaseThem = undoMoveSquares(chaseThem, P(i - 1).move) & chasedAt(states, n - i);
    perpetualThem &&= P(i).check;
    if (P(i).hash === P(0).hash && P(i).key === P(0).key && ++count + 1 === occurrences) {
      const decide2 = (a, b) => a && !b ? them : b && !a ? us : void 0;
      const facts = {
        cycle: i,
        chased: {
          [them]: [...squaresOf(toPresent(chaseThem, i === n ? i - 2 : i))],
          [us]: [...squaresOf(toPresent(chaseUs, i - 1))]
        },
        perpetualCheck: { [them]: perpetualThem, [us]: perpetualUs }
      };
      if (perpetualThem || perpetualUs) {
        const loser = decide2(perpetualThem, perpetualUs);
        return { loser, reason: loser ? "perpetual_check" : "repetition", ...facts };
      }
      if (chaseThem || chaseUs) {
        const loser = decide2(chaseThem !== EMPTY_SET, chaseUs !== EMPTY_SET);
        return { loser, reason: loser ? "perpetual_chase" : "repetition", ...facts };
      }
      return { loser: void 0, reason: "repetition", ...facts };
    }
    if (i + 1 <= end) {
      perpetualUs &&= P(i + 1).check;
      chaseUs = undoMoveSquares(chaseUs, P(i).move) & chasedAt(states, n - i - 1);
    }
  }
  return void 0;
}

// src/game/game.ts
var PLAY_ON_REASONS = /* @__PURE__ */ new Set([
  "perpetual_check",
  "perpetual_chase",
  "repetition",
  "move_limit",
  "insufficient_material"
]);
var DEFAULT_MOVE_LIMIT = 120;
var failure = (code, message) => err({ code, message });
var Game = class _Game {
  constructor(start, startFenText, options, clock) {
    this.startFenText = startFenText;
    this.options = options;
    this.pos = start.clone();
    this.positions = [start];
    this.clockModel = clock;
    this.moveLimit = options.moveLimit ?? DEFAULT_MOVE_LIMIT;
    this.states.push(this.stateOf(void 0).state);
    this.ended = this.judge(0);
  }
  startFenText;
  options;
  /** The current position; its undo stack takes moves back (no replay from the start). */
  pos;
  /** The position after each ply, the start first: what readers ask for by ply, kept as played. */
  positions;
  played = [];
  states = [];
  ended;
  lastTime = 0;
  drawOffer;
  foulCount = { red: 0, black: 0 };
  clockModel;
  moveLimit;
  /** A game from a position, a setup or a FEN (the start position without one). */
  static start(from, options = {}) {
    let pos;
    if (from instanceof Position) pos = from.clone();
    else {
      let setup2;
      if (typeof from === "string") {
        const parsed = parseFen(from);
        if (!parsed.ok)
          return failure("bad_position", `bad FEN (${parsed.error.code}): ${parsed.error.message}`);
        setup2 = parsed.value;
      } else setup2 = from;
      const built = setup2 ? Position.fromSetup(setup2) : ok(Position.default());
      if (!built.ok)
        return failure("bad_position", `illegal position (${built.error.code}): ${built.error.message}`);
      pos = built.value;
    }
    const limit = options.moveLimit ?? DEFAULT_MOVE_LIMIT;
    if (!(Number.isInteger(limit) && limit >= 0)) {
      return failure("bad_request", `move limit ${limit} must be a whole number of plies (0 = none)`);
    }
    let clock;
    if (options.clock) {
      const made = ChessClock.create(options.clock);
      if (!made.ok) return failure("clock", made.error.message);
      clock = made.value;
    }
    return ok(new _Game(pos, makeFen(pos.toSetup()), options, clock));
  }
  /**
   * A game rebuilt from its record (a journal after a restart, a PGN): the moves are played again
   * with their times, and the first one that does not fit is named with its ply.
   */
  static fromRecord(record, options = {}) {
    const started = _Game.start(record.fen, options);
    if (!started.ok) return started;
    for (const m of record.moves) {
      const played = started.value.play(m.move, m.t ?? started.value.lastTime);
      if (!played.ok) return played;
    }
    return started;
  }
  // ------------------------------------------------------------------ reading
  /** A copy of the current position: changing it does not change the game. */
  get position() {
    return this.pos.clone();
  }
  get startPosition() {
    return this.positions[0].clone();
  }
  /**
   * A copy of the position after `plies` moves (0: the start), undefined outside the game. Kept
   * per ply, so the position before the last move costs a copy, not a replay of the game.
   */
  positionAfter(plies) {
    return this.positions[plies]?.clone();
  }
  get startFen() {
    return this.startFenText;
  }
  get fen() {
    return this.played.at(-1)?.fen ?? this.startFenText;
  }
  get turn() {
    return this.pos.turn;
  }
  get moves() {
    return this.played;
  }
  /** Positions of the game, the start first: hash, board FEN + side, check. */
  get history() {
    return this.states;
  }
  get outcome() {
    return this.ended;
  }
  /** The game ended by an ending that a further legal move withdraws (`playOn`). */
  get canPlayOn() {
    return this.options.playOn === true && this.ended !== void 0 && PLAY_ON_REASONS.has(this.ended.reason) && this.ended.ply === this.played.length;
  }
  get isOver() {
    return this.ended !== void 0;
  }
  get clock() {
    return this.clockModel;
  }
  get pendingDrawOffer() {
    return this.drawOffer?.color;
  }
  fouls(color) {
    return this.foulCount[color];
  }
  /** Plies counted towards the move limit now (see `moveLimitCheckCap`). */
  get movesTowardLimit() {
    const plies = this.pos.halfmoves;
    const cap = this.options.moveLimitCheckCap;
    if (cap === void 0) return plies;
    const checks = { red: 0, black: 0 };
    const n = this.played.length;
    for (let k = n - 1; k >= 0 && k >= n - plies; k--) {
      const m = this.played[k];
      if (m.check) checks[m.color]++;
    }
    return plies - Math.max(0, checks.red - cap) - Math.max(0, checks.black - cap);
  }
  // ------------------------------------------------------------------ moves
  /**
   * Plays a completed move at time `t`. Refuses an illegal move (`illegal_move`, the game goes on)
   * and any move once the game is over (`game_over`). With a clock switched by moves, a move
   * completed after the mover's time ran out is not played: the flag fell first (4.1.4).
   */
  play(move, t = this.lastTime) {
    const ply = this.played.length + 1;
    const iccs = validSquares(move) ? makeIccs(move) : `${move.from}-${move.to}`;
    if (this.ended && this.canPlayOn && validSquares(move) && this.pos.isLegal(move)) {
      this.ended = void 0;
    }
    if (this.ended) {
      return failure(
        "game_over",
        `move ${iccs} (ply ${ply}) comes after the end of the game (${this.ended.reason})`
      );
    }
    const time = this.advance(t);
    if (!time.ok) return time;
    const color = this.pos.turn;
    const piece = validSquares(move) ? this.pos.pieceAt(move.from) : void 0;
    if (!validSquares(move) || !piece || piece.color !== color || !this.pos.isLegal(move)) {
      const why = !validSquares(move) ? "a square is off the board" : !piece ? `there is no piece on ${makeSquareName(move.from)}` : piece.color !== color ? `it is ${color}'s move, the piece on ${makeSquareName(move.from)} is ${piece.color}'s` : `the ${piece.role} on ${makeSquareName(move.from)} cannot go to ${makeSquareName(move.to)}`;
      return failure("illegal_move", `move ${iccs} (ply ${ply}) is illegal: ${why}`);
    }
    if (this.clockModel && (this.options.clockSwitch ?? "move") === "move") {
      const clock = this.clockModel;
      if (!clock.running && !clock.flag) clock.start(color, t);
      const pressed = clock.press(color, t);
      if (!pressed.ok) {
        const flag = clock.flag;
        if (flag) {
          this.endOnTime(flag);
          return failure(
            "game_over",
            `move ${iccs} (ply ${ply}) came after ${color}'s flag fell at ${flag.at} ms`
          );
        }
        return failure("clock", pressed.error.message);
      }
    }
    const captured = this.pos.play(move);
    this.positions.push(this.pos.clone());
    const { state, fen } = this.stateOf(move);
    const check = state.check;
    this.states.push(state);
    const played = {
      ply,
      move,
      iccs,
      color,
      piece,
      ...captured ? { captured } : {},
      check,
      t,
      hash: state.hash,
      fen
    };
    this.played.push(played);
    if (this.drawOffer && this.drawOffer.color !== color) this.drawOffer = void 0;
    this.ended = this.judge(t);
    if (this.ended) this.clockModel?.stop(t);
    return ok(played);
  }
  /**
   * Takes back the last move (a takeback on the board). A game that the move ended by the rules
   * (mate, repetition, …) goes on again; one ended by a player or the arbiter cannot be undone.
   */
  undoLast(t = this.lastTime) {
    const last = this.played.at(-1);
    if (!last) return failure("nothing_to_undo", "no move to take back");
    if (this.ended && !(RULES_REASONS.has(this.ended.reason) && this.ended.ply === last.ply)) {
      return failure(
        "cannot_undo",
        `the game is over (${this.ended.reason}); its last move cannot be taken back`
      );
    }
    const time = this.advance(t);
    if (!time.ok) return time;
    this.played.pop();
    this.states.pop();
    this.positions.pop();
    this.pos.undo();
    this.ended = void 0;
    this.drawOffer = void 0;
    if (this.clockModel && (this.options.clockSwitch ?? "move") === "move") this.clockModel.takeBack(t);
    return ok(last);
  }
  // ------------------------------------------------------------------ clock
  /** Starts the clock of the side to move (without it, the first move starts it). */
  startClock(t) {
    if (!this.clockModel) return failure("clock", "this game has no clock");
    if (this.ended) return failure("game_over", "the game is over");
    const time = this.advance(t);
    if (!time.ok) return time;
    const started = this.clockModel.start(this.turn, t);
    return started.ok ? ok(void 0) : failure("clock", started.error.message);
  }
  /** A clock button (boards that have them, `clockSwitch: 'button'`): `color` ends its turn. */
  pressClock(color, t) {
    if (!this.clockModel) return failure("clock", "this game has no clock");
    if (this.ended) return failure("game_over", "the game is over");
    const time = this.advance(t);
    if (!time.ok) return time;
    const pressed = this.clockModel.press(color, t);
    if (pressed.ok) return ok(void 0);
    const flag = this.clockModel.flag;
    if (flag) {
      this.endOnTime(flag);
      return failure("game_over", `${flag.color}'s flag fell at ${flag.at} ms`);
    }
    return failure("clock", pressed.error.message);
  }
  /** Lets the clock see time `t`: ends the game when a flag has fallen (4.1.4). */
  tick(t) {
    if (this.ended || !this.clockModel) return this.ended;
    if (!this.advance(t).ok) return void 0;
    const flag = this.clockModel.tick(t);
    if (flag) this.endOnTime(flag);
    return this.ended;
  }
  /**
   * `color`'s flag has fallen (4.1.4). With the game's own clock it must really have fallen by
   * `t`; without one, the report of the outside clock is taken.
   */
  flag(color, t) {
    if (this.ended) return failure("game_over", "the game is over");
    const time = this.advance(t);
    if (!time.ok) return time;
    if (this.clockModel) {
      const flag = this.clockModel.tick(t);
      if (flag?.color !== color) {
        return failure("not_flagged", `${color} has ${this.clockModel.remaining(color, t)} ms left at ${t}`);
      }
      return ok(this.endOnTime(flag));
    }
    return ok(this.finish(color, "time", t));
  }
  // ------------------------------------------------------------------ players and arbiter
  resign(color, t = this.lastTime) {
    if (this.ended) return failure("game_over", "the game is over");
    return ok(this.finish(color, "resignation", t));
  }
  /** `color` offers a draw; it stands until the other side accepts, declines or moves. */
  offerDraw(color, t = this.lastTime) {
    if (this.ended) return failure("game_over", "the game is over");
    const time = this.advance(t);
    if (!time.ok) return time;
    this.drawOffer = { color, ply: this.played.length };
    return ok(void 0);
  }
  acceptDraw(color, t = this.lastTime) {
    if (this.ended) return failure("game_over", "the game is over");
    if (this.drawOffer?.color !== opposite(color)) {
      return failure("no_draw_offer", `${opposite(color)} has no draw offer standing for ${color} to accept`);
    }
    return ok(this.finish(void 0, "agreement", t));
  }
  declineDraw(color) {
    if (this.drawOffer?.color !== opposite(color)) {
      return failure("no_draw_offer", `${opposite(color)} has no draw offer standing`);
    }
    this.drawOffer = void 0;
    return ok(void 0);
  }
  /** An arbiter's decision (4.1.5 lateness, 4.1.10 discipline, or anything else, with its reason). */
  arbiter(result, reason, article = "4.1.10", t = this.lastTime) {
    if (this.ended) return failure("game_over", "the game is over");
    if (result !== "1-0" && result !== "0-1" && result !== "1/2-1/2") {
      return failure("bad_request", `result '${String(result)}' is not 1-0, 0-1 or 1/2-1/2`);
    }
    const loser = result === "1-0" ? "black" : result === "0-1" ? "red" : void 0;
    return ok(this.finish(loser, "arbiter", t, reason, article));
  }
  /**
   * A completed move against the rules, reported by the board (it is never played). Casual: an
   * alert only. Tournament: a foul once it stood uncorrected for the correction time; the
   * `foulsToLose`-th foul loses (4.1.8), or at once with `completedIllegalLoses` (4.1.2, 4.1.6).
   */
  reportIllegal(report, t = this.lastTime) {
    if (this.ended) return failure("game_over", "the game is over");
    if (!(report.uncorrectedMs >= 0)) return failure("bad_request", "uncorrectedMs must be a time \u2265 0");
    const time = this.advance(t);
    if (!time.ok) return time;
    const policy = this.options.policy ?? CASUAL;
    const fouls = this.foulCount[report.color];
    if (policy.kind === "casual") return ok({ foul: false, fouls });
    if (policy.completedIllegalLoses) {
      const outcome = this.finish(report.color, report.kind, t, report.detail);
      return ok({ foul: false, fouls, outcome });
    }
    if (report.uncorrectedMs < policy.correctionMs) return ok({ foul: false, fouls });
    const now = ++this.foulCount[report.color];
    if (now >= policy.foulsToLose) {
      const outcome = this.finish(report.color, "fouls", t, `${now} fouls`);
      return ok({ foul: true, fouls: now, outcome });
    }
    return ok({ foul: true, fouls: now });
  }
  // ------------------------------------------------------------------ internals
  /** The history state of the current position, reached by `move`, and its FEN. */
  stateOf(move) {
    const pos = this.pos;
    const setup2 = pos.toSetup();
    const fen = makeFen(setup2);
    const state = {
      hash: pos.hash,
      // Board FEN and side: the FEN up to the side's letter.
      key: fen.slice(0, fen.indexOf(" ") + 2),
      board: setup2.board,
      check: pos.isCheck(),
      ...move ? { move } : {}
    };
    return { state, fen };
  }
  /** The endings the rules decide from the position and its history, in order of precedence. */
  judge(t) {
    const pos = this.pos;
    const ply = this.played.length;
    const at = (loser, reason) => this.outcomeOf(loser, reason, ply, t);
    if (!pos.hasLegalMove()) return at(pos.turn, pos.isCheck() ? "checkmate" : "stalemate");
    const verdict = judgeRepetition(this.states, pos.halfmoves);
    if (verdict) return this.outcomeOf(verdict.loser, verdict.reason, ply, t, describeVerdict(verdict, pos));
    if (isInsufficientMaterial(this.states.at(-1).board)) return at(void 0, "insufficient_material");
    if (this.moveLimit > 0 && this.movesTowardLimit >= this.moveLimit) return at(void 0, "move_limit");
    return void 0;
  }
  outcomeOf(loser, reason, ply, t, detail, article) {
    return {
      result: resultFor(loser),
      reason,
      article: article ?? (reason === "arbiter" ? "4.1.10" : ARTICLES[reason]),
      ...loser ? { loser } : {},
      ...detail !== void 0 ? { detail } : {},
      ply,
      t
    };
  }
  finish(loser, reason, t, detail, article) {
    this.ended = this.outcomeOf(loser, reason, this.played.length, t, detail, article);
    if (this.clockModel?.running) this.clockModel.stop(Math.max(t, this.lastTime));
    return this.ended;
  }
  endOnTime(flag) {
    return this.finish(flag.color, "time", flag.at, `flag fell at ${flag.at} ms`);
  }
  advance(t) {
    if (!Number.isFinite(t)) return failure("time_backwards", `time ${t} is not a number of ms`);
    if (t < this.lastTime)
      return failure("time_backwards", `time ${t} is before the game's last event (${this.lastTime})`);
    this.lastTime = t;
    return ok(void 0);
  }
};
function describeVerdict(verdict, pos) {
  const parts2 = [];
  for (const color of ["red", "black"]) {
    if (verdict.perpetualCheck[color]) parts2.push(`${color} checked with every move`);
    const victims = verdict.chased[color].map(
      (sq2) => `${pos.pieceAt(sq2)?.role ?? "piece"} on ${makeSquareName(sq2)}`
    );
    if (victims.length > 0)
      parts2.push(`${color} chased ${opposite(color)}'s ${victims.join(" and ")} with every move`);
  }
  const what = parts2.length > 0 ? parts2.join("; ") : "neither side checked or chased with every move";
  return `position repeated a third time (cycle of ${verdict.cycle} plies): ${what}`;
}
var validSquares = (m) => Number.isInteger(m.from) && Number.isInteger(m.to) && m.from >= 0 && m.from < 90 && m.to >= 0 && m.to < 90;

// src/util/clock.ts
var ManualClock = class {
  time;
  seq = 0;
  timers = [];
  constructor(start = 0) {
    this.time = start;
  }
  now() {
    return this.time;
  }
  setTimer(fn, ms) {
    const timer = { at: this.time + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      const k = this.timers.indexOf(timer);
      if (k >= 0) this.timers.splice(k, 1);
    };
  }
  /** Delays (from now) of the timers still pending, soonest first. */
  pending() {
    return this.timers.map((t) => t.at - this.time).sort((a, b) => a - b);
  }
  advance(ms) {
    const end = this.time + ms;
    for (; ; ) {
      let due;
      let at = -1;
      const timers = this.timers;
      for (let k = 0; k < timers.length; k++) {
        const t = timers[k];
        if (t.at <= end && (due === void 0 || t.at < due.at || t.at === due.at && t.seq < due.seq)) {
          due = t;
          at = k;
        }
      }
      if (!due) break;
      timers.splice(at, 1);
      this.time = due.at;
      due.fn();
    }
    this.time = end;
  }
};

// node_modules/xstate/dist/xstate-dev.esm.js
function getGlobal() {
  if (typeof globalThis !== "undefined") {
    return globalThis;
  }
  if (typeof self !== "undefined") {
    return self;
  }
  if (typeof window !== "undefined") {
    return window;
  }
  if (typeof global !== "undefined") {
    return global;
  }
}
function getDevTools() {
  const w = getGlobal();
  if (w.__xstate__) {
    return w.__xstate__;
  }
  return void 0;
}
var devToolsAdapter = (service) => {
  if (typeof window === "undefined") {
    return;
  }
  const devTools = getDevTools();
  if (devTools) {
    devTools.register(service);
  }
};

// node_modules/xstate/dist/raise-effbee0c.esm.js
var Mailbox = class {
  constructor(_process) {
    this._process = _process;
    this._active = false;
    this._current = null;
    this._last = null;
  }
  start() {
    this._active = true;
    this.flush();
  }
  clear() {
    if (this._current) {
      this._current.next = null;
      this._last = this._current;
    }
  }
  enqueue(event) {
    const enqueued = {
      value: event,
      next: null
    };
    if (this._current) {
      this._last.next = enqueued;
      this._last = enqueued;
      return;
    }
    this._current = enqueued;
    this._last = enqueued;
    if (this._active) {
      this.flush();
    }
  }
  flush() {
    while (this._current) {
      const consumed = this._current;
      this._process(consumed.value);
      this._current = consumed.next;
    }
    this._last = null;
  }
};
var STATE_DELIMITER = ".";
var TARGETLESS_KEY = "";
var NULL_EVENT = "";
var STATE_IDENTIFIER = "#";
var WILDCARD = "*";
var XSTATE_INIT = "xstate.init";
var XSTATE_ERROR = "xstate.error";
var XSTATE_STOP = "xstate.stop";
function createAfterEvent(delayRef, id) {
  return {
    type: `xstate.after.${delayRef}.${id}`
  };
}
function createDoneStateEvent(id, output) {
  return {
    type: `xstate.done.state.${id}`,
    output
  };
}
function createDoneActorEvent(invokeId, output) {
  return {
    type: `xstate.done.actor.${invokeId}`,
    output,
    actorId: invokeId
  };
}
function createErrorActorEvent(id, error) {
  return {
    type: `xstate.error.actor.${id}`,
    error,
    actorId: id
  };
}
function createInitEvent(input) {
  return {
    type: XSTATE_INIT,
    input
  };
}
function reportUnhandledError(err2) {
  setTimeout(() => {
    throw err2;
  });
}
var symbolObservable = (() => typeof Symbol === "function" && Symbol.observable || "@@observable")();
function matchesState(parentStateId, childStateId) {
  const parentStateValue = toStateValue(parentStateId);
  const childStateValue = toStateValue(childStateId);
  if (typeof childStateValue === "string") {
    if (typeof parentStateValue === "string") {
      return childStateValue === parentStateValue;
    }
    return false;
  }
  if (typeof parentStateValue === "string") {
    return parentStateValue in childStateValue;
  }
  return Object.keys(parentStateValue).every((key) => {
    if (!(key in childStateValue)) {
      return false;
    }
    return matchesState(parentStateValue[key], childStateValue[key]);
  });
}
function toStatePath(stateId) {
  if (isArray(stateId)) {
    return stateId;
  }
  const result = [];
  let segment = "";
  for (let i = 0; i < stateId.length; i++) {
    const char = stateId.charCodeAt(i);
    switch (char) {
      // \
      case 92:
        segment += stateId[i + 1];
        i++;
        continue;
      // .
      case 46:
        result.push(segment);
        segment = "";
        continue;
    }
    segment += stateId[i];
  }
  result.push(segment);
  return result;
}
function toStateValue(stateValue) {
  if (isMachineSnapshot(stateValue)) {
    return stateValue.value;
  }
  if (typeof stateValue !== "string") {
    return stateValue;
  }
  const statePath = toStatePath(stateValue);
  return pathToStateValue(statePath);
}
function pathToStateValue(statePath) {
  if (statePath.length === 1) {
    return statePath[0];
  }
  const value = {};
  let marker = value;
  for (let i = 0; i < statePath.length - 1; i++) {
    if (i === statePath.length - 2) {
      marker[statePath[i]] = statePath[i + 1];
    } else {
      const previous = marker;
      marker = {};
      previous[statePath[i]] = marker;
    }
  }
  return value;
}
function mapValues(collection, iteratee) {
  const result = {};
  const collectionKeys = Object.keys(collection);
  for (let i = 0; i < collectionKeys.length; i++) {
    const key = collectionKeys[i];
    result[key] = iteratee(collection[key], key, collection, i);
  }
  return result;
}
function toArrayStrict(value) {
  if (isArray(value)) {
    return value;
  }
  return [value];
}
function toArray(value) {
  if (value === void 0) {
    return [];
  }
  return toArrayStrict(value);
}
function resolveOutput(mapper, context, event, self2) {
  if (typeof mapper === "function") {
    return mapper({
      context,
      event,
      self: self2
    });
  }
  return mapper;
}
function isArray(value) {
  return Array.isArray(value);
}
function isErrorActorEvent(event) {
  return event.type.startsWith("xstate.error.actor");
}
function toTransitionConfigArray(configLike) {
  return toArrayStrict(configLike).map((transitionLike) => {
    if (typeof transitionLike === "undefined" || typeof transitionLike === "string") {
      return {
        target: transitionLike
      };
    }
    return transitionLike;
  });
}
function normalizeTarget(target) {
  if (target === void 0 || target === TARGETLESS_KEY) {
    return void 0;
  }
  return toArray(target);
}
function toObserver(nextHandler, errorHandler, completionHandler) {
  const isObserver = typeof nextHandler === "object";
  const self2 = isObserver ? nextHandler : void 0;
  return {
    next: (isObserver ? nextHandler.next : nextHandler)?.bind(self2),
    error: (isObserver ? nextHandler.error : errorHandler)?.bind(self2),
    complete: (isObserver ? nextHandler.complete : completionHandler)?.bind(self2)
  };
}
function createInvokeId(stateNodeId, index) {
  return `${index}.${stateNodeId}`;
}
function resolveReferencedActor(machine2, src) {
  const match = src.match(/^xstate\.invoke\.(\d+)\.(.*)/);
  if (!match) {
    return machine2.implementations.actors[src];
  }
  const [, indexStr, nodeId] = match;
  const node = machine2.getStateNodeById(nodeId);
  const invokeConfig = node.config.invoke;
  return (Array.isArray(invokeConfig) ? invokeConfig[indexStr] : invokeConfig).src;
}
function matchesEventDescriptor(eventType, descriptor) {
  if (descriptor === eventType) {
    return true;
  }
  if (descriptor === WILDCARD) {
    return true;
  }
  if (!descriptor.endsWith(".*")) {
    return false;
  }
  const partialEventTokens = descriptor.split(".");
  const eventTokens = eventType.split(".");
  for (let tokenIndex = 0; tokenIndex < partialEventTokens.length; tokenIndex++) {
    const partialEventToken = partialEventTokens[tokenIndex];
    const eventToken = eventTokens[tokenIndex];
    if (partialEventToken === "*") {
      const isLastToken = tokenIndex === partialEventTokens.length - 1;
      return isLastToken;
    }
    if (partialEventToken !== eventToken) {
      return false;
    }
  }
  return true;
}
function createScheduledEventId(actorRef, id) {
  return `${actorRef.sessionId}.${id}`;
}
var idCounter = 0;
function createSystem(rootActor, options) {
  const children = /* @__PURE__ */ new Map();
  const keyedActors = /* @__PURE__ */ new Map();
  const reverseKeyedActors = /* @__PURE__ */ new WeakMap();
  const inspectionObservers = /* @__PURE__ */ new Set();
  const timerMap = {};
  const {
    clock,
    logger
  } = options;
  const scheduler = {
    schedule: (source, target, event, delay, id = Math.random().toString(36).slice(2)) => {
      const scheduledEvent = {
        source,
        target,
        event,
        delay,
        id,
        startedAt: Date.now()
      };
      const scheduledEventId = createScheduledEventId(source, id);
      system._snapshot._scheduledEvents[scheduledEventId] = scheduledEvent;
      const timeout = clock.setTimeout(() => {
        delete timerMap[scheduledEventId];
        delete system._snapshot._scheduledEvents[scheduledEventId];
        system._relay(source, target, event);
      }, delay);
      timerMap[scheduledEventId] = timeout;
    },
    cancel: (source, id) => {
      const scheduledEventId = createScheduledEventId(source, id);
      const timeout = timerMap[scheduledEventId];
      delete timerMap[scheduledEventId];
      delete system._snapshot._scheduledEvents[scheduledEventId];
      if (timeout !== void 0) {
        clock.clearTimeout(timeout);
      }
    },
    cancelAll: (actorRef) => {
      for (const scheduledEventId in system._snapshot._scheduledEvents) {
        const scheduledEvent = system._snapshot._scheduledEvents[scheduledEventId];
        if (scheduledEvent.source === actorRef) {
          scheduler.cancel(actorRef, scheduledEvent.id);
        }
      }
    }
  };
  const sendInspectionEvent = (event) => {
    if (!inspectionObservers.size) {
      return;
    }
    const resolvedInspectionEvent = {
      ...event,
      rootId: rootActor.sessionId
    };
    inspectionObservers.forEach((observer) => observer.next?.(resolvedInspectionEvent));
  };
  const system = {
    _snapshot: {
      _scheduledEvents: (options?.snapshot && options.snapshot.scheduler) ?? {}
    },
    _bookId: () => `x:${idCounter++}`,
    _register: (sessionId, actorRef) => {
      children.set(sessionId, actorRef);
      return sessionId;
    },
    _unregister: (actorRef) => {
      children.delete(actorRef.sessionId);
      const systemId = reverseKeyedActors.get(actorRef);
      if (systemId !== void 0) {
        keyedActors.delete(systemId);
        reverseKeyedActors.delete(actorRef);
      }
    },
    get: (systemId) => {
      return keyedActors.get(systemId);
    },
    getAll: () => {
      return Object.fromEntries(keyedActors.entries());
    },
    _set: (systemId, actorRef) => {
      const existing = keyedActors.get(systemId);
      if (existing && existing !== actorRef) {
        throw new Error(`Actor with system ID '${systemId}' already exists.`);
      }
      keyedActors.set(systemId, actorRef);
      reverseKeyedActors.set(actorRef, systemId);
    },
    inspect: (observerOrFn) => {
      const observer = toObserver(observerOrFn);
      inspectionObservers.add(observer);
      return {
        unsubscribe() {
          inspectionObservers.delete(observer);
        }
      };
    },
    _sendInspectionEvent: sendInspectionEvent,
    _relay: (source, target, event) => {
      system._sendInspectionEvent({
        type: "@xstate.event",
        sourceRef: source,
        actorRef: target,
        event
      });
      target._send(event);
    },
    scheduler,
    getSnapshot: () => {
      return {
        _scheduledEvents: {
          ...system._snapshot._scheduledEvents
        }
      };
    },
    start: () => {
      const scheduledEvents = system._snapshot._scheduledEvents;
      system._snapshot._scheduledEvents = {};
      for (const scheduledId in scheduledEvents) {
        const {
          source,
          target,
          event,
          delay,
          id
        } = scheduledEvents[scheduledId];
        scheduler.schedule(source, target, event, delay, id);
      }
    },
    _clock: clock,
    _logger: logger
  };
  return system;
}
var executingCustomAction = false;
var $$ACTOR_TYPE = 1;
var ProcessingStatus = /* @__PURE__ */ (function(ProcessingStatus2) {
  ProcessingStatus2[ProcessingStatus2["NotStarted"] = 0] = "NotStarted";
  ProcessingStatus2[ProcessingStatus2["Running"] = 1] = "Running";
  ProcessingStatus2[ProcessingStatus2["Stopped"] = 2] = "Stopped";
  return ProcessingStatus2;
})({});
var defaultOptions = {
  clock: {
    setTimeout: (fn, ms) => {
      return setTimeout(fn, ms);
    },
    clearTimeout: (id) => {
      return clearTimeout(id);
    }
  },
  logger: console.log.bind(console),
  devTools: false
};
var Actor = class {
  /**
   * Creates a new actor instance for the given logic with the provided options,
   * if any.
   *
   * @param logic The logic to create an actor from
   * @param options Actor options
   */
  constructor(logic, options) {
    this.logic = logic;
    this._snapshot = void 0;
    this.clock = void 0;
    this.options = void 0;
    this.id = void 0;
    this.mailbox = new Mailbox(this._process.bind(this));
    this.observers = /* @__PURE__ */ new Set();
    this.eventListeners = /* @__PURE__ */ new Map();
    this.logger = void 0;
    this._processingStatus = ProcessingStatus.NotStarted;
    this._parent = void 0;
    this._syncSnapshot = void 0;
    this.ref = void 0;
    this._actorScope = void 0;
    this.systemId = void 0;
    this.sessionId = void 0;
    this.system = void 0;
    this._doneEvent = void 0;
    this.src = void 0;
    this._deferred = [];
    const resolvedOptions = {
      ...defaultOptions,
      ...options
    };
    const {
      clock,
      logger,
      parent,
      syncSnapshot,
      id,
      systemId,
      inspect
    } = resolvedOptions;
    this.system = parent ? parent.system : createSystem(this, {
      clock,
      logger
    });
    if (inspect && !parent) {
      this.system.inspect(toObserver(inspect));
    }
    this.sessionId = this.system._bookId();
    this.id = id ?? this.sessionId;
    this.logger = options?.logger ?? this.system._logger;
    this.clock = options?.clock ?? this.system._clock;
    this._parent = parent;
    this._syncSnapshot = syncSnapshot;
    this.options = resolvedOptions;
    this.src = resolvedOptions.src ?? logic;
    this.ref = this;
    this._actorScope = {
      self: this,
      id: this.id,
      sessionId: this.sessionId,
      logger: this.logger,
      defer: (fn) => {
        this._deferred.push(fn);
      },
      system: this.system,
      stopChild: (child) => {
        if (child._parent !== this) {
          throw new Error(`Cannot stop child actor ${child.id} of ${this.id} because it is not a child`);
        }
        child._stop();
      },
      emit: (emittedEvent) => {
        const listeners = this.eventListeners.get(emittedEvent.type);
        const wildcardListener = this.eventListeners.get("*");
        if (!listeners && !wildcardListener) {
          return;
        }
        const allListeners = [...listeners ? listeners.values() : [], ...wildcardListener ? wildcardListener.values() : []];
        for (const handler of allListeners) {
          try {
            handler(emittedEvent);
          } catch (err2) {
            reportUnhandledError(err2);
          }
        }
      },
      actionExecutor: (action) => {
        const exec = () => {
          this._actorScope.system._sendInspectionEvent({
            type: "@xstate.action",
            actorRef: this,
            action: {
              type: action.type,
              params: action.params
            }
          });
          if (!action.exec) {
            return;
          }
          const saveExecutingCustomAction = executingCustomAction;
          try {
            executingCustomAction = true;
            action.exec(action.info, action.params);
          } finally {
            executingCustomAction = saveExecutingCustomAction;
          }
        };
        if (this._processingStatus === ProcessingStatus.Running) {
          exec();
        } else {
          this._deferred.push(exec);
        }
      }
    };
    this.send = this.send.bind(this);
    this.system._sendInspectionEvent({
      type: "@xstate.actor",
      actorRef: this
    });
    if (systemId) {
      this.systemId = systemId;
      this.system._set(systemId, this);
    }
    this._initState(options?.snapshot ?? options?.state);
    if (systemId && this._snapshot.status !== "active") {
      this.system._unregister(this);
    }
  }
  _initState(persistedState) {
    try {
      this._snapshot = persistedState ? this.logic.restoreSnapshot ? this.logic.restoreSnapshot(persistedState, this._actorScope) : persistedState : this.logic.getInitialSnapshot(this._actorScope, this.options?.input);
    } catch (err2) {
      this._snapshot = {
        status: "error",
        output: void 0,
        error: err2
      };
    }
  }
  update(snapshot, event) {
    this._snapshot = snapshot;
    let deferredFn;
    while (deferredFn = this._deferred.shift()) {
      try {
        deferredFn();
      } catch (err2) {
        this._deferred.length = 0;
        this._snapshot = {
          ...snapshot,
          status: "error",
          error: err2
        };
      }
    }
    switch (this._snapshot.status) {
      case "active":
        for (const observer of this.observers) {
          try {
            observer.next?.(snapshot);
          } catch (err2) {
            reportUnhandledError(err2);
          }
        }
        break;
      case "done":
        for (const observer of this.observers) {
          try {
            observer.next?.(snapshot);
          } catch (err2) {
            reportUnhandledError(err2);
          }
        }
        this._stopProcedure();
        this._complete();
        this._doneEvent = createDoneActorEvent(this.id, this._snapshot.output);
        if (this._parent) {
          this.system._relay(this, this._parent, this._doneEvent);
        }
        break;
      case "error":
        this._error(this._snapshot.error);
        break;
    }
    this.system._sendInspectionEvent({
      type: "@xstate.snapshot",
      actorRef: this,
      event,
      snapshot
    });
  }
  /**
   * Subscribe an observer to an actor’s snapshot values.
   *
   * @remarks
   * The observer will receive the actor’s snapshot value when it is emitted.
   * The observer can be:
   *
   * - A plain function that receives the latest snapshot, or
   * - An observer object whose `.next(snapshot)` method receives the latest
   *   snapshot
   *
   * @example
   *
   * ```ts
   * // Observer as a plain function
   * const subscription = actor.subscribe((snapshot) => {
   *   console.log(snapshot);
   * });
   * ```
   *
   * @example
   *
   * ```ts
   * // Observer as an object
   * const subscription = actor.subscribe({
   *   next(snapshot) {
   *     console.log(snapshot);
   *   },
   *   error(err) {
   *     // ...
   *   },
   *   complete() {
   *     // ...
   *   }
   * });
   * ```
   *
   * The return value of `actor.subscribe(observer)` is a subscription object
   * that has an `.unsubscribe()` method. You can call
   * `subscription.unsubscribe()` to unsubscribe the observer:
   *
   * @example
   *
   * ```ts
   * const subscription = actor.subscribe((snapshot) => {
   *   // ...
   * });
   *
   * // Unsubscribe the observer
   * subscription.unsubscribe();
   * ```
   *
   * When the actor is stopped, all of its observers will automatically be
   * unsubscribed.
   *
   * @param observer - Either a plain function that receives the latest
   *   snapshot, or an observer object whose `.next(snapshot)` method receives
   *   the latest snapshot
   */
  subscribe(nextListenerOrObserver, errorListener, completeListener) {
    const observer = toObserver(nextListenerOrObserver, errorListener, completeListener);
    if (this._processingStatus !== ProcessingStatus.Stopped) {
      this.observers.add(observer);
    } else {
      switch (this._snapshot.status) {
        case "done":
          try {
            observer.complete?.();
          } catch (err2) {
            reportUnhandledError(err2);
          }
          break;
        case "error": {
          const err2 = this._snapshot.error;
          if (!observer.error) {
            reportUnhandledError(err2);
          } else {
            try {
              observer.error(err2);
            } catch (err3) {
              reportUnhandledError(err3);
            }
          }
          break;
        }
      }
    }
    return {
      unsubscribe: () => {
        this.observers.delete(observer);
      }
    };
  }
  on(type, handler) {
    let listeners = this.eventListeners.get(type);
    if (!listeners) {
      listeners = /* @__PURE__ */ new Set();
      this.eventListeners.set(type, listeners);
    }
    const wrappedHandler = handler.bind(void 0);
    listeners.add(wrappedHandler);
    return {
      unsubscribe: () => {
        listeners.delete(wrappedHandler);
      }
    };
  }
  select(selector, equalityFn = Object.is) {
    return {
      subscribe: (observerOrFn) => {
        const observer = toObserver(observerOrFn);
        const snapshot = this.getSnapshot();
        let previousSelected = selector(snapshot);
        return this.subscribe((snapshot2) => {
          const nextSelected = selector(snapshot2);
          if (!equalityFn(previousSelected, nextSelected)) {
            previousSelected = nextSelected;
            observer.next?.(nextSelected);
          }
        });
      },
      get: () => selector(this.getSnapshot())
    };
  }
  /** Starts the Actor from the initial state */
  start() {
    if (this._processingStatus === ProcessingStatus.Running) {
      return this;
    }
    if (this._syncSnapshot) {
      this.subscribe({
        next: (snapshot) => {
          if (snapshot.status === "active") {
            this.system._relay(this, this._parent, {
              type: `xstate.snapshot.${this.id}`,
              snapshot
            });
          }
        },
        error: () => {
        }
      });
    }
    this.system._register(this.sessionId, this);
    if (this.systemId) {
      this.system._set(this.systemId, this);
    }
    this._processingStatus = ProcessingStatus.Running;
    const initEvent = createInitEvent(this.options.input);
    this.system._sendInspectionEvent({
      type: "@xstate.event",
      sourceRef: this._parent,
      actorRef: this,
      event: initEvent
    });
    const status = this._snapshot.status;
    switch (status) {
      case "done":
        this.update(this._snapshot, initEvent);
        return this;
      case "error":
        this._error(this._snapshot.error);
        return this;
    }
    if (!this._parent) {
      this.system.start();
    }
    if (this.logic.start) {
      try {
        this.logic.start(this._snapshot, this._actorScope);
      } catch (err2) {
        this._snapshot = {
          ...this._snapshot,
          status: "error",
          error: err2
        };
        this._error(err2);
        return this;
      }
    }
    this.update(this._snapshot, initEvent);
    if (this.options.devTools) {
      this.attachDevTools();
    }
    this.mailbox.start();
    return this;
  }
  _process(event) {
    let nextState;
    let caughtError;
    try {
      nextState = this.logic.transition(this._snapshot, event, this._actorScope);
    } catch (err2) {
      caughtError = {
        err: err2
      };
    }
    if (caughtError) {
      const {
        err: err2
      } = caughtError;
      this._snapshot = {
        ...this._snapshot,
        status: "error",
        error: err2
      };
      this._error(err2);
      return;
    }
    this.update(nextState, event);
    if (event.type === XSTATE_STOP) {
      this._stopProcedure();
      this._complete();
    }
  }
  _stop() {
    if (this._processingStatus === ProcessingStatus.Stopped) {
      return this;
    }
    this.mailbox.clear();
    if (this._processingStatus === ProcessingStatus.NotStarted) {
      this._processingStatus = ProcessingStatus.Stopped;
      return this;
    }
    this.mailbox.enqueue({
      type: XSTATE_STOP
    });
    return this;
  }
  /** Stops the Actor and unsubscribe all listeners. */
  stop() {
    if (this._parent) {
      throw new Error("A non-root actor cannot be stopped directly.");
    }
    return this._stop();
  }
  _complete() {
    for (const observer of this.observers) {
      try {
        observer.complete?.();
      } catch (err2) {
        reportUnhandledError(err2);
      }
    }
    this.observers.clear();
    this.eventListeners.clear();
  }
  _reportError(err2) {
    if (!this.observers.size) {
      if (!this._parent) {
        reportUnhandledError(err2);
      }
      this.eventListeners.clear();
      return;
    }
    let reportError = false;
    for (const observer of this.observers) {
      const errorListener = observer.error;
      reportError ||= !errorListener;
      try {
        errorListener?.(err2);
      } catch (err22) {
        reportUnhandledError(err22);
      }
    }
    this.observers.clear();
    this.eventListeners.clear();
    if (reportError) {
      reportUnhandledError(err2);
    }
  }
  _error(err2) {
    this._stopProcedure();
    this._reportError(err2);
    if (this._parent) {
      this.system._relay(this, this._parent, createErrorActorEvent(this.id, err2));
    }
  }
  // TODO: atm children don't belong entirely to the actor so
  // in a way - it's not even super aware of them
  // so we can't stop them from here but we really should!
  // right now, they are being stopped within the machine's transition
  // but that could throw and leave us with "orphaned" active actors
  _stopProcedure() {
    if (this._processingStatus !== ProcessingStatus.Running) {
      return this;
    }
    this.system.scheduler.cancelAll(this);
    this.mailbox.clear();
    this.mailbox = new Mailbox(this._process.bind(this));
    this._processingStatus = ProcessingStatus.Stopped;
    this.system._unregister(this);
    return this;
  }
  /** @internal */
  _send(event) {
    if (this._processingStatus === ProcessingStatus.Stopped) {
      return;
    }
    this.mailbox.enqueue(event);
  }
  /**
   * Sends an event to the running Actor to trigger a transition.
   *
   * @param event The event to send
   */
  send(event) {
    this.system._relay(void 0, this, event);
  }
  attachDevTools() {
    const {
      devTools
    } = this.options;
    if (devTools) {
      const resolvedDevToolsAdapter = typeof devTools === "function" ? devTools : devToolsAdapter;
      resolvedDevToolsAdapter(this);
    }
  }
  toJSON() {
    return {
      xstate$$type: $$ACTOR_TYPE,
      id: this.id
    };
  }
  /**
   * Obtain the internal state of the actor, which can be persisted.
   *
   * @remarks
   * The internal state can be persisted from any actor, not only machines.
   *
   * Note that the persisted state is not the same as the snapshot from
   * {@link Actor.getSnapshot}. Persisted state represents the internal state of
   * the actor, while snapshots represent the actor's last emitted value.
   *
   * Can be restored with {@link ActorOptions.state}
   * @see https://stately.ai/docs/persistence
   */
  getPersistedSnapshot(options) {
    return this.logic.getPersistedSnapshot(this._snapshot, options);
  }
  [symbolObservable]() {
    return this;
  }
  /**
   * Read an actor’s snapshot synchronously.
   *
   * @remarks
   * The snapshot represent an actor's last emitted value.
   *
   * When an actor receives an event, its internal state may change. An actor
   * may emit a snapshot when a state transition occurs.
   *
   * Note that some actors, such as callback actors generated with
   * `fromCallback`, will not emit snapshots.
   * @see {@link Actor.subscribe} to subscribe to an actor’s snapshot values.
   * @see {@link Actor.getPersistedSnapshot} to persist the internal state of an actor (which is more than just a snapshot).
   */
  getSnapshot() {
    return this._snapshot;
  }
};
function createActor(logic, ...[options]) {
  return new Actor(logic, options);
}
function resolveCancel(_, snapshot, actionArgs, actionParams, {
  sendId
}) {
  const resolvedSendId = typeof sendId === "function" ? sendId(actionArgs, actionParams) : sendId;
  return [snapshot, {
    sendId: resolvedSendId
  }, void 0];
}
function executeCancel(actorScope, params) {
  actorScope.defer(() => {
    actorScope.system.scheduler.cancel(actorScope.self, params.sendId);
  });
}
function cancel(sendId) {
  function cancel2(_args, _params) {
  }
  cancel2.type = "xstate.cancel";
  cancel2.sendId = sendId;
  cancel2.resolve = resolveCancel;
  cancel2.execute = executeCancel;
  return cancel2;
}
function resolveSpawn(actorScope, snapshot, actionArgs, _actionParams, {
  id,
  systemId,
  src,
  input,
  syncSnapshot
}) {
  const logic = typeof src === "string" ? resolveReferencedActor(snapshot.machine, src) : src;
  const resolvedId = typeof id === "function" ? id(actionArgs) : id;
  let actorRef;
  let resolvedInput = void 0;
  if (logic) {
    resolvedInput = typeof input === "function" ? input({
      context: snapshot.context,
      event: actionArgs.event,
      self: actorScope.self
    }) : input;
    actorRef = createActor(logic, {
      id: resolvedId,
      src,
      parent: actorScope.self,
      syncSnapshot,
      systemId,
      input: resolvedInput
    });
  }
  return [cloneMachineSnapshot(snapshot, {
    children: {
      ...snapshot.children,
      [resolvedId]: actorRef
    }
  }), {
    id,
    systemId,
    actorRef,
    src,
    input: resolvedInput
  }, void 0];
}
function executeSpawn(actorScope, {
  actorRef
}) {
  if (!actorRef) {
    return;
  }
  actorScope.defer(() => {
    if (actorRef._processingStatus === ProcessingStatus.Stopped) {
      return;
    }
    actorRef.start();
  });
}
function spawnChild(...[src, {
  id,
  systemId,
  input,
  syncSnapshot = false
} = {}]) {
  function spawnChild2(_args, _params) {
  }
  spawnChild2.type = "xstate.spawnChild";
  spawnChild2.id = id;
  spawnChild2.systemId = systemId;
  spawnChild2.src = src;
  spawnChild2.input = input;
  spawnChild2.syncSnapshot = syncSnapshot;
  spawnChild2.resolve = resolveSpawn;
  spawnChild2.execute = executeSpawn;
  return spawnChild2;
}
function resolveStop(_, snapshot, args, actionParams, {
  actorRef
}) {
  const actorRefOrString = typeof actorRef === "function" ? actorRef(args, actionParams) : actorRef;
  const resolvedActorRef = typeof actorRefOrString === "string" ? snapshot.children[actorRefOrString] : actorRefOrString;
  let children = snapshot.children;
  if (resolvedActorRef) {
    children = {
      ...children
    };
    delete children[resolvedActorRef.id];
  }
  return [cloneMachineSnapshot(snapshot, {
    children
  }), resolvedActorRef, void 0];
}
function unregisterRecursively(actorScope, actorRef) {
  const snapshot = actorRef.getSnapshot();
  if (snapshot && "children" in snapshot) {
    for (const child of Object.values(snapshot.children)) {
      unregisterRecursively(actorScope, child);
    }
  }
  actorScope.system._unregister(actorRef);
}
function executeStop(actorScope, actorRef) {
  if (!actorRef) {
    return;
  }
  unregisterRecursively(actorScope, actorRef);
  if (actorRef._processingStatus !== ProcessingStatus.Running) {
    actorScope.stopChild(actorRef);
    return;
  }
  actorScope.defer(() => {
    actorScope.stopChild(actorRef);
  });
}
function stopChild(actorRef) {
  function stop2(_args, _params) {
  }
  stop2.type = "xstate.stopChild";
  stop2.actorRef = actorRef;
  stop2.resolve = resolveStop;
  stop2.execute = executeStop;
  return stop2;
}
function checkAnd(snapshot, {
  context,
  event
}, {
  guards
}) {
  return guards.every((guard) => evaluateGuard(guard, context, event, snapshot));
}
function and(guards) {
  function and2(_args, _params) {
    return false;
  }
  and2.check = checkAnd;
  and2.guards = guards;
  return and2;
}
function evaluateGuard(guard, context, event, snapshot) {
  const {
    machine: machine2
  } = snapshot;
  const isInline = typeof guard === "function";
  const resolved = isInline ? guard : machine2.implementations.guards[typeof guard === "string" ? guard : guard.type];
  if (!isInline && !resolved) {
    throw new Error(`Guard '${typeof guard === "string" ? guard : guard.type}' is not implemented.'.`);
  }
  if (typeof resolved !== "function") {
    return evaluateGuard(resolved, context, event, snapshot);
  }
  const guardArgs = {
    context,
    event
  };
  const guardParams = isInline || typeof guard === "string" ? void 0 : "params" in guard ? typeof guard.params === "function" ? guard.params({
    context,
    event
  }) : guard.params : void 0;
  if (!("check" in resolved)) {
    return resolved(guardArgs, guardParams);
  }
  const builtinGuard = resolved;
  return builtinGuard.check(
    snapshot,
    guardArgs,
    resolved
    // this holds all params
  );
}
function isAtomicStateNode(stateNode) {
  return stateNode.type === "atomic" || stateNode.type === "final";
}
function getChildren(stateNode) {
  return Object.values(stateNode.states).filter((sn) => sn.type !== "history");
}
function getProperAncestors(stateNode, toStateNode) {
  const ancestors = [];
  if (toStateNode === stateNode) {
    return ancestors;
  }
  let m = stateNode.parent;
  while (m && m !== toStateNode) {
    ancestors.push(m);
    m = m.parent;
  }
  return ancestors;
}
function getAllStateNodes(stateNodes) {
  const nodeSet = new Set(stateNodes);
  const adjList = getAdjList(nodeSet);
  for (const s of nodeSet) {
    if (s.type === "compound" && (!adjList.get(s) || !adjList.get(s).length)) {
      getInitialStateNodesWithTheirAncestors(s).forEach((sn) => nodeSet.add(sn));
    } else {
      if (s.type === "parallel") {
        for (const child of getChildren(s)) {
          if (child.type === "history") {
            continue;
          }
          if (!nodeSet.has(child)) {
            const initialStates = getInitialStateNodesWithTheirAncestors(child);
            for (const initialStateNode of initialStates) {
              nodeSet.add(initialStateNode);
            }
          }
        }
      }
    }
  }
  for (const s of nodeSet) {
    let m = s.parent;
    while (m) {
      nodeSet.add(m);
      m = m.parent;
    }
  }
  return nodeSet;
}
function getValueFromAdj(baseNode, adjList) {
  const childStateNodes = adjList.get(baseNode);
  if (!childStateNodes) {
    return {};
  }
  if (baseNode.type === "compound") {
    const childStateNode = childStateNodes[0];
    if (childStateNode) {
      if (isAtomicStateNode(childStateNode)) {
        return childStateNode.key;
      }
    } else {
      return {};
    }
  }
  const stateValue = {};
  for (const childStateNode of childStateNodes) {
    stateValue[childStateNode.key] = getValueFromAdj(childStateNode, adjList);
  }
  return stateValue;
}
function getAdjList(stateNodes) {
  const adjList = /* @__PURE__ */ new Map();
  for (const s of stateNodes) {
    if (!adjList.has(s)) {
      adjList.set(s, []);
    }
    if (s.parent) {
      if (!adjList.has(s.parent)) {
        adjList.set(s.parent, []);
      }
      adjList.get(s.parent).push(s);
    }
  }
  return adjList;
}
function getStateValue(rootNode, stateNodes) {
  const config = getAllStateNodes(stateNodes);
  return getValueFromAdj(rootNode, getAdjList(config));
}
function isInFinalState(stateNodeSet, stateNode) {
  if (stateNode.type === "compound") {
    return getChildren(stateNode).some((s) => s.type === "final" && stateNodeSet.has(s));
  }
  if (stateNode.type === "parallel") {
    return getChildren(stateNode).every((sn) => isInFinalState(stateNodeSet, sn));
  }
  return stateNode.type === "final";
}
var isStateId = (str) => str[0] === STATE_IDENTIFIER;
function getCandidates(stateNode, receivedEventType) {
  const exactMatch = stateNode.transitions.get(receivedEventType);
  const wildcardCandidates = [...stateNode.transitions.keys()].filter((eventDescriptor) => eventDescriptor !== receivedEventType && matchesEventDescriptor(receivedEventType, eventDescriptor)).sort((a, b) => b.length - a.length).flatMap((key) => stateNode.transitions.get(key));
  return exactMatch ? [...exactMatch, ...wildcardCandidates] : wildcardCandidates;
}
function getDelayedTransitions(stateNode) {
  const afterConfig = stateNode.config.after;
  if (!afterConfig) {
    return [];
  }
  const mutateEntryExit = (delay) => {
    const afterEvent = createAfterEvent(delay, stateNode.id);
    const eventType = afterEvent.type;
    stateNode.entry.push(raise(afterEvent, {
      id: eventType,
      delay
    }));
    stateNode.exit.push(cancel(eventType));
    return eventType;
  };
  const delayedTransitions = Object.keys(afterConfig).flatMap((delay) => {
    const configTransition = afterConfig[delay];
    const resolvedTransition = typeof configTransition === "string" ? {
      target: configTransition
    } : configTransition;
    const resolvedDelay = Number.isNaN(+delay) ? delay : +delay;
    const eventType = mutateEntryExit(resolvedDelay);
    return toArray(resolvedTransition).map((transition) => ({
      ...transition,
      event: eventType,
      delay: resolvedDelay
    }));
  });
  return delayedTransitions.map((delayedTransition) => {
    const {
      delay
    } = delayedTransition;
    return {
      ...formatTransition(stateNode, delayedTransition.event, delayedTransition),
      delay
    };
  });
}
function formatTransition(stateNode, descriptor, transitionConfig) {
  const normalizedTarget = normalizeTarget(transitionConfig.target);
  const reenter = transitionConfig.reenter ?? false;
  const target = resolveTarget(stateNode, normalizedTarget);
  const transition = {
    ...transitionConfig,
    actions: toArray(transitionConfig.actions),
    guard: transitionConfig.guard,
    target,
    source: stateNode,
    reenter,
    eventType: descriptor,
    toJSON: () => ({
      ...transition,
      source: `#${stateNode.id}`,
      target: target ? target.map((t) => `#${t.id}`) : void 0
    })
  };
  return transition;
}
function formatTransitions(stateNode) {
  const transitions = /* @__PURE__ */ new Map();
  if (stateNode.config.on) {
    for (const descriptor of Object.keys(stateNode.config.on)) {
      if (descriptor === NULL_EVENT) {
        throw new Error('Null events ("") cannot be specified as a transition key. Use `always: { ... }` instead.');
      }
      const transitionsConfig = stateNode.config.on[descriptor];
      transitions.set(descriptor, toTransitionConfigArray(transitionsConfig).map((t) => formatTransition(stateNode, descriptor, t)));
    }
  }
  if (stateNode.config.onDone) {
    const descriptor = `xstate.done.state.${stateNode.id}`;
    transitions.set(descriptor, toTransitionConfigArray(stateNode.config.onDone).map((t) => formatTransition(stateNode, descriptor, t)));
  }
  for (const invokeDef of stateNode.invoke) {
    if (invokeDef.onDone) {
      const descriptor = `xstate.done.actor.${invokeDef.id}`;
      transitions.set(descriptor, toTransitionConfigArray(invokeDef.onDone).map((t) => formatTransition(stateNode, descriptor, t)));
    }
    if (invokeDef.onError) {
      const descriptor = `xstate.error.actor.${invokeDef.id}`;
      transitions.set(descriptor, toTransitionConfigArray(invokeDef.onError).map((t) => formatTransition(stateNode, descriptor, t)));
    }
    if (invokeDef.onSnapshot) {
      const descriptor = `xstate.snapshot.${invokeDef.id}`;
      transitions.set(descriptor, toTransitionConfigArray(invokeDef.onSnapshot).map((t) => formatTransition(stateNode, descriptor, t)));
    }
  }
  for (const delayedTransition of stateNode.after) {
    let existing = transitions.get(delayedTransition.eventType);
    if (!existing) {
      existing = [];
      transitions.set(delayedTransition.eventType, existing);
    }
    existing.push(delayedTransition);
  }
  return transitions;
}
function formatRouteTransitions(rootStateNode) {
  const routeTransitions = [];
  const collectRoutes = (states) => {
    Object.values(states).forEach((sn) => {
      if (sn.config.route && sn.config.id) {
        const routeId = sn.config.id;
        const userGuard = sn.config.route.guard;
        const routeMatches = ({
          event
        }) => event.to === `#${routeId}`;
        const transition = {
          ...sn.config.route,
          guard: userGuard ? and([routeMatches, userGuard]) : routeMatches,
          target: `#${routeId}`
        };
        routeTransitions.push(formatTransition(rootStateNode, "xstate.route", transition));
      }
      if (sn.states) {
        collectRoutes(sn.states);
      }
    });
  };
  collectRoutes(rootStateNode.states);
  if (routeTransitions.length > 0) {
    rootStateNode.transitions.set("xstate.route", routeTransitions);
  }
}
function formatInitialTransition(stateNode, _target) {
  const resolvedTarget = typeof _target === "string" ? stateNode.states[_target] : _target ? stateNode.states[_target.target] : void 0;
  if (!resolvedTarget && _target) {
    throw new Error(
      // oxlint-disable-next-line typescript/restrict-template-expressions, typescript/no-base-to-string
      `Initial state node "${_target}" not found on parent state node #${stateNode.id}`
    );
  }
  const transition = {
    source: stateNode,
    actions: !_target || typeof _target === "string" ? [] : toArray(_target.actions),
    eventType: null,
    reenter: false,
    target: resolvedTarget ? [resolvedTarget] : [],
    meta: typeof _target === "object" ? _target.meta : void 0,
    description: typeof _target === "object" ? _target.description : void 0,
    toJSON: () => ({
      ...transition,
      source: `#${stateNode.id}`,
      target: resolvedTarget ? [`#${resolvedTarget.id}`] : []
    })
  };
  return transition;
}
function resolveTarget(stateNode, targets) {
  if (targets === void 0) {
    return void 0;
  }
  return targets.map((target) => {
    if (typeof target !== "string") {
      return target;
    }
    if (isStateId(target)) {
      return stateNode.machine.getStateNodeById(target);
    }
    const isInternalTarget = target[0] === STATE_DELIMITER;
    if (isInternalTarget && !stateNode.parent) {
      return getStateNodeByPath(stateNode, target.slice(1));
    }
    const resolvedTarget = isInternalTarget ? stateNode.key + target : target;
    if (stateNode.parent) {
      try {
        const targetStateNode = getStateNodeByPath(stateNode.parent, resolvedTarget);
        return targetStateNode;
      } catch (err2) {
        throw new Error(`Invalid transition definition for state node '${stateNode.id}':
${err2.message}`);
      }
    } else {
      throw new Error(`Invalid target: "${target}" is not a valid target from the root node. Did you mean ".${target}"?`);
    }
  });
}
function resolveHistoryDefaultTransition(stateNode) {
  const normalizedTarget = normalizeTarget(stateNode.config.target);
  if (!normalizedTarget) {
    if (stateNode.parent.type === "parallel") {
      return {
        target: [stateNode.parent]
      };
    }
    return stateNode.parent.initial;
  }
  return {
    target: normalizedTarget.map((t) => typeof t === "string" ? getStateNodeByPath(stateNode.parent, t) : t)
  };
}
function isHistoryNode(stateNode) {
  return stateNode.type === "history";
}
function getInitialStateNodesWithTheirAncestors(stateNode) {
  const states = getInitialStateNodes(stateNode);
  for (const initialState of states) {
    for (const ancestor of getProperAncestors(initialState, stateNode)) {
      states.add(ancestor);
    }
  }
  return states;
}
function getInitialStateNodes(stateNode) {
  const set = /* @__PURE__ */ new Set();
  function iter(descStateNode) {
    if (set.has(descStateNode)) {
      return;
    }
    set.add(descStateNode);
    if (descStateNode.type === "compound") {
      iter(descStateNode.initial.target[0]);
    } else if (descStateNode.type === "parallel") {
      for (const child of getChildren(descStateNode)) {
        iter(child);
      }
    }
  }
  iter(stateNode);
  return set;
}
function getStateNode(stateNode, stateKey) {
  if (isStateId(stateKey)) {
    return stateNode.machine.getStateNodeById(stateKey);
  }
  if (!stateNode.states) {
    throw new Error(`Unable to retrieve child state '${stateKey}' from '${stateNode.id}'; no child states exist.`);
  }
  const result = stateNode.states[stateKey];
  if (!result) {
    throw new Error(`Child state '${stateKey}' does not exist on '${stateNode.id}'`);
  }
  return result;
}
function getStateNodeByPath(stateNode, statePath) {
  if (typeof statePath === "string" && isStateId(statePath)) {
    try {
      return stateNode.machine.getStateNodeById(statePath);
    } catch {
    }
  }
  const arrayStatePath = toStatePath(statePath).slice();
  let currentStateNode = stateNode;
  while (arrayStatePath.length) {
    const key = arrayStatePath.shift();
    if (!key.length) {
      break;
    }
    currentStateNode = getStateNode(currentStateNode, key);
  }
  return currentStateNode;
}
function getStateNodes(stateNode, stateValue) {
  if (typeof stateValue === "string") {
    const childStateNode = stateNode.states[stateValue];
    if (!childStateNode) {
      throw new Error(`State '${stateValue}' does not exist on '${stateNode.id}'`);
    }
    return [stateNode, childStateNode];
  }
  const childStateKeys = Object.keys(stateValue);
  const childStateNodes = childStateKeys.map((subStateKey) => getStateNode(stateNode, subStateKey)).filter(Boolean);
  return [stateNode.machine.root, stateNode].concat(childStateNodes, childStateKeys.reduce((allSubStateNodes, subStateKey) => {
    const subStateNode = getStateNode(stateNode, subStateKey);
    if (!subStateNode) {
      return allSubStateNodes;
    }
    const subStateNodes = getStateNodes(subStateNode, stateValue[subStateKey]);
    return allSubStateNodes.concat(subStateNodes);
  }, []));
}
function transitionAtomicNode(stateNode, stateValue, snapshot, event) {
  const childStateNode = getStateNode(stateNode, stateValue);
  const next2 = childStateNode.next(snapshot, event);
  if (!next2 || !next2.length) {
    return stateNode.next(snapshot, event);
  }
  return next2;
}
function transitionCompoundNode(stateNode, stateValue, snapshot, event) {
  const subStateKeys = Object.keys(stateValue);
  const childStateNode = getStateNode(stateNode, subStateKeys[0]);
  const next2 = transitionNode(childStateNode, stateValue[subStateKeys[0]], snapshot, event);
  if (!next2 || !next2.length) {
    return stateNode.next(snapshot, event);
  }
  return next2;
}
function transitionParallelNode(stateNode, stateValue, snapshot, event) {
  const allInnerTransitions = [];
  for (const subStateKey of Object.keys(stateValue)) {
    const subStateValue = stateValue[subStateKey];
    if (!subStateValue) {
      continue;
    }
    const subStateNode = getStateNode(stateNode, subStateKey);
    const innerTransitions = transitionNode(subStateNode, subStateValue, snapshot, event);
    if (innerTransitions) {
      allInnerTransitions.push(...innerTransitions);
    }
  }
  if (!allInnerTransitions.length) {
    return stateNode.next(snapshot, event);
  }
  return allInnerTransitions;
}
function transitionNode(stateNode, stateValue, snapshot, event) {
  if (typeof stateValue === "string") {
    return transitionAtomicNode(stateNode, stateValue, snapshot, event);
  }
  if (Object.keys(stateValue).length === 1) {
    return transitionCompoundNode(stateNode, stateValue, snapshot, event);
  }
  return transitionParallelNode(stateNode, stateValue, snapshot, event);
}
function getHistoryNodes(stateNode) {
  return Object.keys(stateNode.states).map((key) => stateNode.states[key]).filter((sn) => sn.type === "history");
}
function isDescendant(childStateNode, parentStateNode) {
  let marker = childStateNode;
  while (marker.parent && marker.parent !== parentStateNode) {
    marker = marker.parent;
  }
  return marker.parent === parentStateNode;
}
function hasIntersection(s1, s2) {
  const set1 = new Set(s1);
  const set2 = new Set(s2);
  for (const item of set1) {
    if (set2.has(item)) {
      return true;
    }
  }
  for (const item of set2) {
    if (set1.has(item)) {
      return true;
    }
  }
  return false;
}
function removeConflictingTransitions(enabledTransitions, stateNodeSet, historyValue) {
  const filteredTransitions = /* @__PURE__ */ new Set();
  for (const t1 of enabledTransitions) {
    let t1Preempted = false;
    const transitionsToRemove = /* @__PURE__ */ new Set();
    for (const t2 of filteredTransitions) {
      if (hasIntersection(computeExitSet([t1], stateNodeSet, historyValue), computeExitSet([t2], stateNodeSet, historyValue))) {
        if (isDescendant(t1.source, t2.source)) {
          transitionsToRemove.add(t2);
        } else {
          t1Preempted = true;
          break;
        }
      }
    }
    if (!t1Preempted) {
      for (const t3 of transitionsToRemove) {
        filteredTransitions.delete(t3);
      }
      filteredTransitions.add(t1);
    }
  }
  return Array.from(filteredTransitions);
}
function findLeastCommonAncestor(stateNodes) {
  const [head, ...tail] = stateNodes;
  for (const ancestor of getProperAncestors(head, void 0)) {
    if (tail.every((sn) => isDescendant(sn, ancestor))) {
      return ancestor;
    }
  }
}
function getEffectiveTargetStates(transition, historyValue) {
  if (!transition.target) {
    return [];
  }
  const targets = /* @__PURE__ */ new Set();
  for (const targetNode of transition.target) {
    if (isHistoryNode(targetNode)) {
      if (historyValue[targetNode.id]) {
        for (const node of historyValue[targetNode.id]) {
          targets.add(node);
        }
      } else {
        for (const node of getEffectiveTargetStates(resolveHistoryDefaultTransition(targetNode), historyValue)) {
          targets.add(node);
        }
      }
    } else {
      targets.add(targetNode);
    }
  }
  return [...targets];
}
function getTransitionDomain(transition, historyValue) {
  const targetStates = getEffectiveTargetStates(transition, historyValue);
  if (!targetStates) {
    return;
  }
  if (!transition.reenter && targetStates.every((target) => target === transition.source || isDescendant(target, transition.source))) {
    return transition.source;
  }
  const lca = findLeastCommonAncestor(targetStates.concat(transition.source));
  if (lca) {
    return lca;
  }
  if (transition.reenter) {
    return;
  }
  return transition.source.machine.root;
}
function computeExitSet(transitions, stateNodeSet, historyValue) {
  const statesToExit = /* @__PURE__ */ new Set();
  for (const t of transitions) {
    if (t.target?.length) {
      const domain = getTransitionDomain(t, historyValue);
      if (t.reenter && t.source === domain) {
        statesToExit.add(domain);
      }
      for (const stateNode of stateNodeSet) {
        if (isDescendant(stateNode, domain)) {
          statesToExit.add(stateNode);
        }
      }
    }
  }
  return [...statesToExit];
}
function areStateNodeCollectionsEqual(prevStateNodes, nextStateNodeSet) {
  if (prevStateNodes.length !== nextStateNodeSet.size) {
    return false;
  }
  for (const node of prevStateNodes) {
    if (!nextStateNodeSet.has(node)) {
      return false;
    }
  }
  return true;
}
function initialMicrostep(root, preInitialState, actorScope, initEvent, internalQueue) {
  return microstep([{
    target: [...getInitialStateNodes(root)],
    source: root,
    reenter: true,
    actions: [],
    eventType: null,
    toJSON: null
  }], preInitialState, actorScope, initEvent, true, internalQueue);
}
function microstep(transitions, currentSnapshot, actorScope, event, isInitial, internalQueue) {
  const actions = [];
  if (!transitions.length) {
    return [currentSnapshot, actions];
  }
  const originalExecutor = actorScope.actionExecutor;
  actorScope.actionExecutor = (action) => {
    actions.push(action);
    originalExecutor(action);
  };
  try {
    const mutStateNodeSet = new Set(currentSnapshot._nodes);
    let historyValue = currentSnapshot.historyValue;
    const filteredTransitions = removeConflictingTransitions(transitions, mutStateNodeSet, historyValue);
    let nextState = currentSnapshot;
    if (!isInitial) {
      [nextState, historyValue] = exitStates(nextState, event, actorScope, filteredTransitions, mutStateNodeSet, historyValue, internalQueue, actorScope.actionExecutor);
    }
    nextState = resolveActionsAndContext(nextState, event, actorScope, filteredTransitions.flatMap((t) => t.actions), internalQueue, void 0);
    nextState = enterStates(nextState, event, actorScope, filteredTransitions, mutStateNodeSet, internalQueue, historyValue, isInitial);
    const nextStateNodes = [...mutStateNodeSet];
    if (nextState.status === "done") {
      nextState = resolveActionsAndContext(nextState, event, actorScope, nextStateNodes.sort((a, b) => b.order - a.order).flatMap((state) => state.exit), internalQueue, void 0);
    }
    try {
      if (historyValue === currentSnapshot.historyValue && areStateNodeCollectionsEqual(currentSnapshot._nodes, mutStateNodeSet)) {
        return [nextState, actions];
      }
      return [cloneMachineSnapshot(nextState, {
        _nodes: nextStateNodes,
        historyValue
      }), actions];
    } catch (e) {
      throw e;
    }
  } finally {
    actorScope.actionExecutor = originalExecutor;
  }
}
function getMachineOutput(snapshot, event, actorScope, rootNode, rootCompletionNode) {
  if (rootNode.output === void 0) {
    return;
  }
  const doneStateEvent = createDoneStateEvent(rootCompletionNode.id, rootCompletionNode.output !== void 0 && rootCompletionNode.parent ? resolveOutput(rootCompletionNode.output, snapshot.context, event, actorScope.self) : void 0);
  return resolveOutput(rootNode.output, snapshot.context, doneStateEvent, actorScope.self);
}
function enterStates(currentSnapshot, event, actorScope, filteredTransitions, mutStateNodeSet, internalQueue, historyValue, isInitial) {
  let nextSnapshot = currentSnapshot;
  const statesToEnter = /* @__PURE__ */ new Set();
  const statesForDefaultEntry = /* @__PURE__ */ new Set();
  computeEntrySet(filteredTransitions, historyValue, statesForDefaultEntry, statesToEnter);
  if (isInitial) {
    statesForDefaultEntry.add(currentSnapshot.machine.root);
  }
  const completedNodes = /* @__PURE__ */ new Set();
  for (const stateNodeToEnter of [...statesToEnter].sort((a, b) => a.order - b.order)) {
    mutStateNodeSet.add(stateNodeToEnter);
    const actions = [];
    actions.push(...stateNodeToEnter.entry);
    for (const invokeDef of stateNodeToEnter.invoke) {
      actions.push(spawnChild(invokeDef.src, {
        ...invokeDef,
        syncSnapshot: !!invokeDef.onSnapshot
      }));
    }
    if (statesForDefaultEntry.has(stateNodeToEnter)) {
      const initialActions = stateNodeToEnter.initial.actions;
      actions.push(...initialActions);
    }
    nextSnapshot = resolveActionsAndContext(nextSnapshot, event, actorScope, actions, internalQueue, stateNodeToEnter.invoke.map((invokeDef) => invokeDef.id));
    if (stateNodeToEnter.type === "final") {
      const parent = stateNodeToEnter.parent;
      let ancestorMarker = parent?.type === "parallel" ? parent : parent?.parent;
      let rootCompletionNode = ancestorMarker || stateNodeToEnter;
      if (parent?.type === "compound") {
        internalQueue.push(createDoneStateEvent(parent.id, stateNodeToEnter.output !== void 0 ? resolveOutput(stateNodeToEnter.output, nextSnapshot.context, event, actorScope.self) : void 0));
      }
      while (ancestorMarker?.type === "parallel" && !completedNodes.has(ancestorMarker) && isInFinalState(mutStateNodeSet, ancestorMarker)) {
        completedNodes.add(ancestorMarker);
        internalQueue.push(createDoneStateEvent(ancestorMarker.id));
        rootCompletionNode = ancestorMarker;
        ancestorMarker = ancestorMarker.parent;
      }
      if (ancestorMarker) {
        continue;
      }
      nextSnapshot = cloneMachineSnapshot(nextSnapshot, {
        status: "done",
        output: getMachineOutput(nextSnapshot, event, actorScope, nextSnapshot.machine.root, rootCompletionNode)
      });
    }
  }
  return nextSnapshot;
}
function computeEntrySet(transitions, historyValue, statesForDefaultEntry, statesToEnter) {
  for (const t of transitions) {
    const domain = getTransitionDomain(t, historyValue);
    for (const s of t.target || []) {
      if (!isHistoryNode(s) && // if the target is different than the source then it will *definitely* be entered
      (t.source !== s || // we know that the domain can't lie within the source
      // if it's different than the source then it's outside of it and it means that the target has to be entered as well
      t.source !== domain || // reentering transitions always enter the target, even if it's the source itself
      t.reenter)) {
        statesToEnter.add(s);
        statesForDefaultEntry.add(s);
      }
      addDescendantStatesToEnter(s, historyValue, statesForDefaultEntry, statesToEnter);
    }
    const targetStates = getEffectiveTargetStates(t, historyValue);
    for (const s of targetStates) {
      const ancestors = getProperAncestors(s, domain);
      if (domain?.type === "parallel") {
        ancestors.push(domain);
      }
      addAncestorStatesToEnter(statesToEnter, historyValue, statesForDefaultEntry, ancestors, !t.source.parent && t.reenter ? void 0 : domain);
    }
  }
}
function addDescendantStatesToEnter(stateNode, historyValue, statesForDefaultEntry, statesToEnter) {
  if (isHistoryNode(stateNode)) {
    if (historyValue[stateNode.id]) {
      const historyStateNodes = historyValue[stateNode.id];
      for (const s of historyStateNodes) {
        statesToEnter.add(s);
        addDescendantStatesToEnter(s, historyValue, statesForDefaultEntry, statesToEnter);
      }
      for (const s of historyStateNodes) {
        addProperAncestorStatesToEnter(s, stateNode.parent, statesToEnter, historyValue, statesForDefaultEntry);
      }
    } else {
      const historyDefaultTransition = resolveHistoryDefaultTransition(stateNode);
      for (const s of historyDefaultTransition.target) {
        statesToEnter.add(s);
        if (historyDefaultTransition === stateNode.parent?.initial) {
          statesForDefaultEntry.add(stateNode.parent);
        }
        addDescendantStatesToEnter(s, historyValue, statesForDefaultEntry, statesToEnter);
      }
      for (const s of historyDefaultTransition.target) {
        addProperAncestorStatesToEnter(s, stateNode.parent, statesToEnter, historyValue, statesForDefaultEntry);
      }
    }
  } else {
    if (stateNode.type === "compound") {
      const [initialState] = stateNode.initial.target;
      if (!isHistoryNode(initialState)) {
        statesToEnter.add(initialState);
        statesForDefaultEntry.add(initialState);
      }
      addDescendantStatesToEnter(initialState, historyValue, statesForDefaultEntry, statesToEnter);
      addProperAncestorStatesToEnter(initialState, stateNode, statesToEnter, historyValue, statesForDefaultEntry);
    } else {
      if (stateNode.type === "parallel") {
        for (const child of getChildren(stateNode).filter((sn) => !isHistoryNode(sn))) {
          if (![...statesToEnter].some((s) => isDescendant(s, child))) {
            if (!isHistoryNode(child)) {
              statesToEnter.add(child);
              statesForDefaultEntry.add(child);
            }
            addDescendantStatesToEnter(child, historyValue, statesForDefaultEntry, statesToEnter);
          }
        }
      }
    }
  }
}
function addAncestorStatesToEnter(statesToEnter, historyValue, statesForDefaultEntry, ancestors, reentrancyDomain) {
  for (const anc of ancestors) {
    if (!reentrancyDomain || isDescendant(anc, reentrancyDomain)) {
      statesToEnter.add(anc);
    }
    if (anc.type === "parallel") {
      for (const child of getChildren(anc).filter((sn) => !isHistoryNode(sn))) {
        if (![...statesToEnter].some((s) => isDescendant(s, child))) {
          statesToEnter.add(child);
          addDescendantStatesToEnter(child, historyValue, statesForDefaultEntry, statesToEnter);
        }
      }
    }
  }
}
function addProperAncestorStatesToEnter(stateNode, toStateNode, statesToEnter, historyValue, statesForDefaultEntry) {
  addAncestorStatesToEnter(statesToEnter, historyValue, statesForDefaultEntry, getProperAncestors(stateNode, toStateNode));
}
function exitStates(currentSnapshot, event, actorScope, transitions, mutStateNodeSet, historyValue, internalQueue, _actionExecutor) {
  let nextSnapshot = currentSnapshot;
  const statesToExit = computeExitSet(transitions, mutStateNodeSet, historyValue);
  statesToExit.sort((a, b) => b.order - a.order);
  let changedHistory;
  for (const exitStateNode of statesToExit) {
    for (const historyNode of getHistoryNodes(exitStateNode)) {
      let predicate;
      if (historyNode.history === "deep") {
        predicate = (sn) => isAtomicStateNode(sn) && isDescendant(sn, exitStateNode);
      } else {
        predicate = (sn) => {
          return sn.parent === exitStateNode;
        };
      }
      changedHistory ??= {
        ...historyValue
      };
      changedHistory[historyNode.id] = Array.from(mutStateNodeSet).filter(predicate);
    }
  }
  for (const s of statesToExit) {
    nextSnapshot = resolveActionsAndContext(nextSnapshot, event, actorScope, [...s.exit, ...s.invoke.map((def) => stopChild(def.id))], internalQueue, void 0);
    mutStateNodeSet.delete(s);
  }
  return [nextSnapshot, changedHistory || historyValue];
}
function getAction(machine2, actionType) {
  return machine2.implementations.actions[actionType];
}
function resolveAndExecuteActionsWithContext(currentSnapshot, event, actorScope, actions, extra, retries) {
  const {
    machine: machine2
  } = currentSnapshot;
  let intermediateSnapshot = currentSnapshot;
  for (const action of actions) {
    const isInline = typeof action === "function";
    const resolvedAction = isInline ? action : (
      // the existing type of `.actions` assumes non-nullable `TExpressionAction`
      // it's fine to cast this here to get a common type and lack of errors in the rest of the code
      // our logic below makes sure that we call those 2 "variants" correctly
      getAction(machine2, typeof action === "string" ? action : action.type)
    );
    const actionArgs = {
      context: intermediateSnapshot.context,
      event,
      self: actorScope.self,
      system: actorScope.system
    };
    const actionParams = isInline || typeof action === "string" ? void 0 : "params" in action ? typeof action.params === "function" ? action.params({
      context: intermediateSnapshot.context,
      event
    }) : action.params : void 0;
    if (!resolvedAction || !("resolve" in resolvedAction)) {
      actorScope.actionExecutor({
        type: typeof action === "string" ? action : typeof action === "object" ? action.type : action.name || "(anonymous)",
        info: actionArgs,
        params: actionParams,
        exec: resolvedAction
      });
      continue;
    }
    const builtinAction = resolvedAction;
    const [nextState, params, actions2] = builtinAction.resolve(
      actorScope,
      intermediateSnapshot,
      actionArgs,
      actionParams,
      resolvedAction,
      // this holds all params
      extra
    );
    intermediateSnapshot = nextState;
    if ("retryResolve" in builtinAction) {
      retries?.push([builtinAction, params]);
    }
    if ("execute" in builtinAction) {
      actorScope.actionExecutor({
        type: builtinAction.type,
        info: actionArgs,
        params,
        exec: builtinAction.execute.bind(null, actorScope, params)
      });
    }
    if (actions2) {
      intermediateSnapshot = resolveAndExecuteActionsWithContext(intermediateSnapshot, event, actorScope, actions2, extra, retries);
    }
  }
  return intermediateSnapshot;
}
function resolveActionsAndContext(currentSnapshot, event, actorScope, actions, internalQueue, deferredActorIds) {
  const retries = deferredActorIds ? [] : void 0;
  const nextState = resolveAndExecuteActionsWithContext(currentSnapshot, event, actorScope, actions, {
    internalQueue,
    deferredActorIds
  }, retries);
  retries?.forEach(([builtinAction, params]) => {
    builtinAction.retryResolve(actorScope, nextState, params);
  });
  return nextState;
}
function macrostep(snapshot, event, actorScope, internalQueue) {
  let nextSnapshot = snapshot;
  const microsteps = [];
  function addMicrostep(step, event2, transitions) {
    actorScope.system._sendInspectionEvent({
      type: "@xstate.microstep",
      actorRef: actorScope.self,
      event: event2,
      snapshot: step[0],
      _transitions: transitions
    });
    microsteps.push(step);
  }
  if (event.type === XSTATE_STOP) {
    nextSnapshot = cloneMachineSnapshot(stopChildren(nextSnapshot, event, actorScope), {
      status: "stopped"
    });
    addMicrostep([nextSnapshot, []], event, []);
    return {
      snapshot: nextSnapshot,
      microsteps
    };
  }
  let nextEvent = event;
  if (nextEvent.type !== XSTATE_INIT) {
    const currentEvent = nextEvent;
    const isErr = isErrorActorEvent(currentEvent);
    const transitions = selectTransitions(currentEvent, nextSnapshot);
    if (isErr && !transitions.length) {
      nextSnapshot = cloneMachineSnapshot(stopChildren(nextSnapshot, currentEvent, actorScope), {
        status: "error",
        error: currentEvent.error
      });
      addMicrostep([nextSnapshot, []], currentEvent, []);
      return {
        snapshot: nextSnapshot,
        microsteps
      };
    }
    const step = microstep(
      transitions,
      snapshot,
      actorScope,
      nextEvent,
      false,
      // isInitial
      internalQueue
    );
    nextSnapshot = step[0];
    addMicrostep(step, currentEvent, transitions);
  }
  let shouldSelectEventlessTransitions = true;
  const maxIterations = snapshot.machine.options?.maxIterations ?? Infinity;
  let iterationCount = 0;
  while (nextSnapshot.status === "active") {
    iterationCount++;
    if (iterationCount > maxIterations) {
      throw new Error(`Infinite loop detected: the machine has processed more than ${maxIterations} microsteps without reaching a stable state. This usually happens when there's a cycle of transitions (e.g., eventless transitions or raised events causing state A -> B -> C -> A).`);
    }
    let enabledTransitions = shouldSelectEventlessTransitions ? selectEventlessTransitions(nextSnapshot, nextEvent) : [];
    const previousState = enabledTransitions.length ? nextSnapshot : void 0;
    if (!enabledTransitions.length) {
      if (!internalQueue.length) {
        break;
      }
      nextEvent = internalQueue.shift();
      enabledTransitions = selectTransitions(nextEvent, nextSnapshot);
    }
    const step = microstep(enabledTransitions, nextSnapshot, actorScope, nextEvent, false, internalQueue);
    nextSnapshot = step[0];
    shouldSelectEventlessTransitions = nextSnapshot !== previousState;
    addMicrostep(step, nextEvent, enabledTransitions);
  }
  if (nextSnapshot.status !== "active") {
    stopChildren(nextSnapshot, nextEvent, actorScope);
  }
  return {
    snapshot: nextSnapshot,
    microsteps
  };
}
function stopChildren(nextState, event, actorScope) {
  return resolveActionsAndContext(nextState, event, actorScope, Object.values(nextState.children).map((child) => stopChild(child)), [], void 0);
}
function selectTransitions(event, nextState) {
  return nextState.machine.getTransitionData(nextState, event);
}
function selectEventlessTransitions(nextState, event) {
  const enabledTransitionSet = /* @__PURE__ */ new Set();
  const atomicStates = nextState._nodes.filter(isAtomicStateNode);
  for (const stateNode of atomicStates) {
    loop: for (const s of [stateNode].concat(getProperAncestors(stateNode, void 0))) {
      if (!s.always) {
        continue;
      }
      for (const transition of s.always) {
        if (transition.guard === void 0 || evaluateGuard(transition.guard, nextState.context, event, nextState)) {
          enabledTransitionSet.add(transition);
          break loop;
        }
      }
    }
  }
  return removeConflictingTransitions(Array.from(enabledTransitionSet), new Set(nextState._nodes), nextState.historyValue);
}
function resolveStateValue(rootNode, stateValue) {
  const allStateNodes = getAllStateNodes(getStateNodes(rootNode, stateValue));
  return getStateValue(rootNode, [...allStateNodes]);
}
function isMachineSnapshot(value) {
  return !!value && typeof value === "object" && "machine" in value && "value" in value;
}
var machineSnapshotMatches = function matches(testValue) {
  return matchesState(testValue, this.value);
};
var machineSnapshotHasTag = function hasTag(tag) {
  return this.tags.has(tag);
};
var machineSnapshotCan = function can(event) {
  const transitionData = this.machine.getTransitionData(this, event);
  return !!transitionData?.length && // Check that at least one transition is not forbidden
  transitionData.some((t) => t.target !== void 0 || t.actions.length);
};
var machineSnapshotToJSON = function toJSON() {
  const {
    _nodes: nodes,
    tags,
    machine: machine2,
    getMeta: getMeta2,
    toJSON: toJSON2,
    can: can2,
    hasTag: hasTag2,
    matches: matches3,
    ...jsonValues
  } = this;
  return {
    ...jsonValues,
    tags: Array.from(tags)
  };
};
var machineSnapshotGetMeta = function getMeta() {
  return this._nodes.reduce((acc, stateNode) => {
    if (stateNode.meta !== void 0) {
      acc[stateNode.id] = stateNode.meta;
    }
    return acc;
  }, {});
};
function createMachineSnapshot(config, machine2) {
  return {
    status: config.status,
    output: config.output,
    error: config.error,
    machine: machine2,
    context: config.context,
    _nodes: config._nodes,
    value: getStateValue(machine2.root, config._nodes),
    tags: new Set(config._nodes.flatMap((sn) => sn.tags)),
    children: config.children,
    historyValue: config.historyValue || {},
    matches: machineSnapshotMatches,
    hasTag: machineSnapshotHasTag,
    can: machineSnapshotCan,
    getMeta: machineSnapshotGetMeta,
    toJSON: machineSnapshotToJSON
  };
}
function cloneMachineSnapshot(snapshot, config = {}) {
  return createMachineSnapshot({
    ...snapshot,
    ...config
  }, snapshot.machine);
}
function serializeHistoryValue(historyValue) {
  if (typeof historyValue !== "object" || historyValue === null) {
    return {};
  }
  const result = {};
  for (const key in historyValue) {
    const value = historyValue[key];
    if (Array.isArray(value)) {
      result[key] = value.map((item) => ({
        id: item.id
      }));
    }
  }
  return result;
}
function getPersistedSnapshot(snapshot, options) {
  const {
    _nodes: nodes,
    tags,
    machine: machine2,
    children,
    context,
    can: can2,
    hasTag: hasTag2,
    matches: matches3,
    getMeta: getMeta2,
    toJSON: toJSON2,
    ...jsonValues
  } = snapshot;
  const childrenJson = {};
  for (const id in children) {
    const child = children[id];
    childrenJson[id] = {
      snapshot: child.getPersistedSnapshot(options),
      src: child.src,
      systemId: child.systemId,
      syncSnapshot: child._syncSnapshot
    };
  }
  const persisted = {
    ...jsonValues,
    context: persistContext(context),
    children: childrenJson,
    historyValue: serializeHistoryValue(jsonValues.historyValue)
  };
  return persisted;
}
function persistContext(contextPart) {
  let copy;
  for (const key in contextPart) {
    const value = contextPart[key];
    if (value && typeof value === "object") {
      if ("sessionId" in value && "send" in value && "ref" in value) {
        copy ??= Array.isArray(contextPart) ? contextPart.slice() : {
          ...contextPart
        };
        copy[key] = {
          xstate$$type: $$ACTOR_TYPE,
          id: value.id
        };
      } else {
        const result = persistContext(value);
        if (result !== value) {
          copy ??= Array.isArray(contextPart) ? contextPart.slice() : {
            ...contextPart
          };
          copy[key] = result;
        }
      }
    }
  }
  return copy ?? contextPart;
}
function resolveRaise(_, snapshot, args, actionParams, {
  event: eventOrExpr,
  id,
  delay
}, {
  internalQueue
}) {
  const delaysMap = snapshot.machine.implementations.delays;
  if (typeof eventOrExpr === "string") {
    throw new Error(
      // oxlint-disable-next-line typescript/restrict-template-expressions
      `Only event objects may be used with raise; use raise({ type: "${eventOrExpr}" }) instead`
    );
  }
  const resolvedEvent = typeof eventOrExpr === "function" ? eventOrExpr(args, actionParams) : eventOrExpr;
  let resolvedDelay;
  if (typeof delay === "string") {
    const configDelay = delaysMap && delaysMap[delay];
    resolvedDelay = typeof configDelay === "function" ? configDelay(args, actionParams) : configDelay;
  } else {
    resolvedDelay = typeof delay === "function" ? delay(args, actionParams) : delay;
  }
  if (typeof resolvedDelay !== "number") {
    internalQueue.push(resolvedEvent);
  }
  return [snapshot, {
    event: resolvedEvent,
    id,
    delay: resolvedDelay
  }, void 0];
}
function executeRaise(actorScope, params) {
  const {
    event,
    delay,
    id
  } = params;
  if (typeof delay === "number") {
    actorScope.defer(() => {
      const self2 = actorScope.self;
      actorScope.system.scheduler.schedule(self2, self2, event, delay, id);
    });
    return;
  }
}
function raise(eventOrExpr, options) {
  function raise2(_args, _params) {
  }
  raise2.type = "xstate.raise";
  raise2.event = eventOrExpr;
  raise2.id = options?.id;
  raise2.delay = options?.delay;
  raise2.resolve = resolveRaise;
  raise2.execute = executeRaise;
  return raise2;
}

// node_modules/xstate/dist/assign-1f0d7720.esm.js
function createSpawner(actorScope, {
  machine: machine2,
  context
}, event, spawnedChildren) {
  const spawn = (src, options) => {
    if (typeof src === "string") {
      const logic = resolveReferencedActor(machine2, src);
      if (!logic) {
        throw new Error(`Actor logic '${src}' not implemented in machine '${machine2.id}'`);
      }
      const actorRef = createActor(logic, {
        id: options?.id,
        parent: actorScope.self,
        syncSnapshot: options?.syncSnapshot,
        input: typeof options?.input === "function" ? options.input({
          context,
          event,
          self: actorScope.self
        }) : options?.input,
        src,
        systemId: options?.systemId
      });
      spawnedChildren[actorRef.id] = actorRef;
      return actorRef;
    } else {
      const actorRef = createActor(src, {
        id: options?.id,
        parent: actorScope.self,
        syncSnapshot: options?.syncSnapshot,
        input: options?.input,
        src,
        systemId: options?.systemId
      });
      return actorRef;
    }
  };
  return (src, options) => {
    const actorRef = spawn(src, options);
    spawnedChildren[actorRef.id] = actorRef;
    actorScope.defer(() => {
      if (actorRef._processingStatus === ProcessingStatus.Stopped) {
        return;
      }
      actorRef.start();
    });
    return actorRef;
  };
}
function resolveAssign(actorScope, snapshot, actionArgs, actionParams, {
  assignment
}) {
  if (!snapshot.context) {
    throw new Error("Cannot assign to undefined `context`. Ensure that `context` is defined in the machine config.");
  }
  const spawnedChildren = {};
  const assignArgs = {
    context: snapshot.context,
    event: actionArgs.event,
    spawn: createSpawner(actorScope, snapshot, actionArgs.event, spawnedChildren),
    self: actorScope.self,
    system: actorScope.system
  };
  let partialUpdate = {};
  if (typeof assignment === "function") {
    partialUpdate = assignment(assignArgs, actionParams);
  } else {
    for (const key of Object.keys(assignment)) {
      const propAssignment = assignment[key];
      partialUpdate[key] = typeof propAssignment === "function" ? propAssignment(assignArgs, actionParams) : propAssignment;
    }
  }
  const updatedContext = Object.assign({}, snapshot.context, partialUpdate);
  return [cloneMachineSnapshot(snapshot, {
    context: updatedContext,
    children: Object.keys(spawnedChildren).length ? {
      ...snapshot.children,
      ...spawnedChildren
    } : snapshot.children
  }), void 0, void 0];
}
function assign(assignment) {
  function assign3(_args, _params) {
  }
  assign3.type = "xstate.assign";
  assign3.assignment = assignment;
  assign3.resolve = resolveAssign;
  return assign3;
}

// node_modules/xstate/dist/StateMachine-ae06a22b.esm.js
var cache = /* @__PURE__ */ new WeakMap();
function memo(object, key, fn) {
  let memoizedData = cache.get(object);
  if (!memoizedData) {
    memoizedData = {
      [key]: fn()
    };
    cache.set(object, memoizedData);
  } else if (!(key in memoizedData)) {
    memoizedData[key] = fn();
  }
  return memoizedData[key];
}
var EMPTY_OBJECT = {};
var toSerializableAction = (action) => {
  if (typeof action === "string") {
    return {
      type: action
    };
  }
  if (typeof action === "function") {
    if ("resolve" in action) {
      return {
        type: action.type
      };
    }
    return {
      type: action.name
    };
  }
  return action;
};
var StateNode = class _StateNode {
  constructor(config, options) {
    this.config = config;
    this.key = void 0;
    this.id = void 0;
    this.type = void 0;
    this.path = void 0;
    this.states = void 0;
    this.history = void 0;
    this.entry = void 0;
    this.exit = void 0;
    this.parent = void 0;
    this.machine = void 0;
    this.meta = void 0;
    this.output = void 0;
    this.order = -1;
    this.description = void 0;
    this.tags = [];
    this.transitions = void 0;
    this.always = void 0;
    this.parent = options._parent;
    this.key = options._key;
    this.machine = options._machine;
    this.path = this.parent ? this.parent.path.concat(this.key) : [];
    this.id = this.config.id || [this.machine.id, ...this.path].join(STATE_DELIMITER);
    this.type = this.config.type || (this.config.states && Object.keys(this.config.states).length ? "compound" : this.config.history ? "history" : "atomic");
    this.description = this.config.description;
    this.order = this.machine.idMap.size;
    this.machine.idMap.set(this.id, this);
    this.states = this.config.states ? mapValues(this.config.states, (stateConfig, key) => {
      const stateNode = new _StateNode(stateConfig, {
        _parent: this,
        _key: key,
        _machine: this.machine
      });
      return stateNode;
    }) : EMPTY_OBJECT;
    if (this.type === "compound" && !this.config.initial) {
      throw new Error(`No initial state specified for compound state node "#${this.id}". Try adding { initial: "${Object.keys(this.states)[0]}" } to the state config.`);
    }
    this.history = this.config.history === true ? "shallow" : this.config.history || false;
    this.entry = toArray(this.config.entry).slice();
    this.exit = toArray(this.config.exit).slice();
    this.meta = this.config.meta;
    this.output = this.type === "final" || !this.parent ? this.config.output : void 0;
    this.tags = toArray(config.tags).slice();
  }
  /** @internal */
  _initialize() {
    this.transitions = formatTransitions(this);
    if (this.config.always) {
      this.always = toTransitionConfigArray(this.config.always).map((t) => formatTransition(this, NULL_EVENT, t));
    }
    Object.keys(this.states).forEach((key) => {
      this.states[key]._initialize();
    });
  }
  /** The well-structured state node definition. */
  get definition() {
    return {
      id: this.id,
      key: this.key,
      version: this.machine.version,
      type: this.type,
      initial: this.initial ? {
        target: this.initial.target,
        source: this,
        actions: this.initial.actions.map(toSerializableAction),
        eventType: null,
        reenter: false,
        meta: this.initial.meta,
        description: this.initial.description,
        toJSON: () => ({
          target: this.initial.target.map((t) => `#${t.id}`),
          source: `#${this.id}`,
          actions: this.initial.actions.map(toSerializableAction),
          eventType: null,
          meta: this.initial.meta,
          description: this.initial.description
        })
      } : void 0,
      history: this.history,
      states: mapValues(this.states, (state) => state.definition),
      on: this.on,
      transitions: [...this.transitions.values()].flat().map((t) => ({
        ...t,
        actions: t.actions.map(toSerializableAction)
      })),
      entry: this.entry.map(toSerializableAction),
      exit: this.exit.map(toSerializableAction),
      meta: this.meta,
      order: this.order || -1,
      output: this.output,
      invoke: this.invoke,
      description: this.description,
      tags: this.tags
    };
  }
  /** @internal */
  toJSON() {
    return this.definition;
  }
  /** The logic invoked as actors by this state node. */
  get invoke() {
    return memo(this, "invoke", () => toArray(this.config.invoke).map((invokeConfig, i) => {
      const {
        src,
        systemId
      } = invokeConfig;
      const resolvedId = invokeConfig.id ?? createInvokeId(this.id, i);
      const sourceName = typeof src === "string" ? src : `xstate.invoke.${createInvokeId(this.id, i)}`;
      return {
        ...invokeConfig,
        src: sourceName,
        id: resolvedId,
        systemId,
        toJSON() {
          const {
            onDone,
            onError,
            ...invokeDefValues
          } = invokeConfig;
          return {
            ...invokeDefValues,
            type: "xstate.invoke",
            src: sourceName,
            id: resolvedId
          };
        }
      };
    }));
  }
  /** The mapping of events to transitions. */
  get on() {
    return memo(this, "on", () => {
      const transitions = this.transitions;
      return [...transitions].flatMap(([descriptor, t]) => t.map((t2) => [descriptor, t2])).reduce((map, [descriptor, transition]) => {
        map[descriptor] = map[descriptor] || [];
        map[descriptor].push(transition);
        return map;
      }, {});
    });
  }
  get after() {
    return memo(this, "delayedTransitions", () => getDelayedTransitions(this));
  }
  get initial() {
    return memo(this, "initial", () => formatInitialTransition(this, this.config.initial));
  }
  /** @internal */
  next(snapshot, event) {
    const eventType = event.type;
    const actions = [];
    let selectedTransition;
    const candidates = memo(this, `candidates-${eventType}`, () => getCandidates(this, eventType));
    for (const candidate of candidates) {
      const {
        guard
      } = candidate;
      const resolvedContext = snapshot.context;
      let guardPassed = false;
      try {
        guardPassed = !guard || evaluateGuard(guard, resolvedContext, event, snapshot);
      } catch (err2) {
        const guardType = typeof guard === "string" ? guard : typeof guard === "object" ? guard.type : void 0;
        throw new Error(`Unable to evaluate guard ${guardType ? `'${guardType}' ` : ""}in transition for event '${eventType}' in state node '${this.id}':
${err2.message}`);
      }
      if (guardPassed) {
        actions.push(...candidate.actions);
        selectedTransition = candidate;
        break;
      }
    }
    return selectedTransition ? [selectedTransition] : void 0;
  }
  /** All the event types accepted by this state node and its descendants. */
  get events() {
    return memo(this, "events", () => {
      const {
        states
      } = this;
      const events = new Set(this.ownEvents);
      if (states) {
        for (const stateId of Object.keys(states)) {
          const state = states[stateId];
          if (state.states) {
            for (const event of state.events) {
              events.add(`${event}`);
            }
          }
        }
      }
      return Array.from(events);
    });
  }
  /**
   * All the events that have transitions directly from this state node.
   *
   * Excludes any inert events.
   */
  get ownEvents() {
    const keys = Object.keys(Object.fromEntries(this.transitions));
    const events = new Set(keys.filter((descriptor) => {
      return this.transitions.get(descriptor).some((transition) => !(!transition.target && !transition.actions.length && !transition.reenter));
    }));
    return Array.from(events);
  }
};
var STATE_IDENTIFIER2 = "#";
var StateMachine = class _StateMachine {
  constructor(config, implementations) {
    this.config = config;
    this.version = void 0;
    this.schemas = void 0;
    this.implementations = void 0;
    this.options = void 0;
    this.__xstatenode = true;
    this.idMap = /* @__PURE__ */ new Map();
    this.root = void 0;
    this.id = void 0;
    this.states = void 0;
    this.events = void 0;
    this.id = config.id || "(machine)";
    this.implementations = {
      actors: implementations?.actors ?? {},
      actions: implementations?.actions ?? {},
      delays: implementations?.delays ?? {},
      guards: implementations?.guards ?? {}
    };
    this.version = this.config.version;
    this.schemas = this.config.schemas;
    this.options = {
      maxIterations: Infinity,
      ...this.config.options
    };
    this.transition = this.transition.bind(this);
    this.getInitialSnapshot = this.getInitialSnapshot.bind(this);
    this.getPersistedSnapshot = this.getPersistedSnapshot.bind(this);
    this.restoreSnapshot = this.restoreSnapshot.bind(this);
    this.start = this.start.bind(this);
    this.root = new StateNode(config, {
      _key: this.id,
      _machine: this
    });
    this.root._initialize();
    formatRouteTransitions(this.root);
    this.states = this.root.states;
    this.events = this.root.events;
  }
  /**
   * Clones this state machine with the provided implementations.
   *
   * @param implementations Options (`actions`, `guards`, `actors`, `delays`) to
   *   recursively merge with the existing options.
   * @returns A new `StateMachine` instance with the provided implementations.
   */
  provide(implementations) {
    const {
      actions,
      guards,
      actors,
      delays
    } = this.implementations;
    return new _StateMachine(this.config, {
      actions: {
        ...actions,
        ...implementations.actions
      },
      guards: {
        ...guards,
        ...implementations.guards
      },
      actors: {
        ...actors,
        ...implementations.actors
      },
      delays: {
        ...delays,
        ...implementations.delays
      }
    });
  }
  resolveState(config) {
    const resolvedStateValue = resolveStateValue(this.root, config.value);
    const nodeSet = getAllStateNodes(getStateNodes(this.root, resolvedStateValue));
    return createMachineSnapshot({
      _nodes: [...nodeSet],
      context: config.context || {},
      children: {},
      status: isInFinalState(nodeSet, this.root) ? "done" : config.status || "active",
      output: config.output,
      error: config.error,
      historyValue: config.historyValue
    }, this);
  }
  /**
   * Determines the next snapshot given the current `snapshot` and received
   * `event`. Calculates a full macrostep from all microsteps.
   *
   * @param snapshot The current snapshot
   * @param event The received event
   */
  transition(snapshot, event, actorScope) {
    return macrostep(snapshot, event, actorScope, []).snapshot;
  }
  /**
   * Determines the next state given the current `state` and `event`. Calculates
   * a microstep.
   *
   * @param state The current state
   * @param event The received event
   */
  microstep(snapshot, event, actorScope) {
    return macrostep(snapshot, event, actorScope, []).microsteps.map(([s]) => s);
  }
  getTransitionData(snapshot, event) {
    return transitionNode(this.root, snapshot.value, snapshot, event) || [];
  }
  /**
   * The initial state _before_ evaluating any microsteps. This "pre-initial"
   * state is provided to initial actions executed in the initial state.
   *
   * @internal
   */
  _getPreInitialState(actorScope, initEvent, internalQueue) {
    const {
      context
    } = this.config;
    const preInitial = createMachineSnapshot({
      context: typeof context !== "function" && context ? context : {},
      _nodes: [this.root],
      children: {},
      status: "active"
    }, this);
    if (typeof context === "function") {
      const assignment = ({
        spawn,
        event,
        self: self2
      }) => context({
        spawn,
        input: event.input,
        self: self2
      });
      return resolveActionsAndContext(preInitial, initEvent, actorScope, [assign(assignment)], internalQueue, void 0);
    }
    return preInitial;
  }
  /**
   * Returns the initial `State` instance, with reference to `self` as an
   * `ActorRef`.
   */
  getInitialSnapshot(actorScope, input) {
    const initEvent = createInitEvent(input);
    const internalQueue = [];
    let snapshot = createMachineSnapshot({
      context: typeof this.config.context !== "function" && this.config.context ? this.config.context : {},
      _nodes: [this.root],
      children: {},
      status: "active"
    }, this);
    try {
      snapshot = this._getPreInitialState(actorScope, initEvent, internalQueue);
      const [nextState] = initialMicrostep(this.root, snapshot, actorScope, initEvent, internalQueue);
      const {
        snapshot: macroState
      } = macrostep(nextState, initEvent, actorScope, internalQueue);
      return macroState;
    } catch (error) {
      return cloneMachineSnapshot(snapshot, {
        status: "error",
        error
      });
    }
  }
  start(snapshot) {
    Object.values(snapshot.children).forEach((child) => {
      if (child.getSnapshot().status === "active") {
        child.start();
      }
    });
  }
  getStateNodeById(stateId) {
    const fullPath = toStatePath(stateId);
    const relativePath = fullPath.slice(1);
    const resolvedStateId = isStateId(fullPath[0]) ? fullPath[0].slice(STATE_IDENTIFIER2.length) : fullPath[0];
    const stateNode = this.idMap.get(resolvedStateId);
    if (!stateNode) {
      throw new Error(`Child state node '#${resolvedStateId}' does not exist on machine '${this.id}'`);
    }
    return getStateNodeByPath(stateNode, relativePath);
  }
  get definition() {
    return this.root.definition;
  }
  toJSON() {
    return this.definition;
  }
  getPersistedSnapshot(snapshot, options) {
    return getPersistedSnapshot(snapshot, options);
  }
  restoreSnapshot(snapshot, _actorScope) {
    const children = {};
    const snapshotChildren = snapshot.children;
    Object.keys(snapshotChildren).forEach((actorId) => {
      const actorData = snapshotChildren[actorId];
      const childState = actorData.snapshot;
      const src = actorData.src;
      const logic = typeof src === "string" ? resolveReferencedActor(this, src) : src;
      if (!logic) {
        return;
      }
      const actorRef = createActor(logic, {
        id: actorId,
        parent: _actorScope.self,
        syncSnapshot: actorData.syncSnapshot,
        snapshot: childState,
        src,
        systemId: actorData.systemId
      });
      children[actorId] = actorRef;
    });
    function resolveHistoryReferencedState(root, referenced) {
      if (referenced instanceof StateNode) {
        return referenced;
      }
      try {
        return root.machine.getStateNodeById(referenced.id);
      } catch {
      }
    }
    function reviveHistoryValue(root, historyValue) {
      if (!historyValue || typeof historyValue !== "object") {
        return {};
      }
      const revived = {};
      for (const key in historyValue) {
        const arr = historyValue[key];
        for (const item of arr) {
          const resolved = resolveHistoryReferencedState(root, item);
          if (!resolved) {
            continue;
          }
          revived[key] ??= [];
          revived[key].push(resolved);
        }
      }
      return revived;
    }
    const revivedHistoryValue = reviveHistoryValue(this.root, snapshot.historyValue);
    const restoredSnapshot = createMachineSnapshot({
      ...snapshot,
      children,
      _nodes: Array.from(getAllStateNodes(getStateNodes(this.root, snapshot.value))),
      historyValue: revivedHistoryValue
    }, this);
    const seen = /* @__PURE__ */ new Set();
    function reviveContext(contextPart, children2) {
      if (seen.has(contextPart)) {
        return;
      }
      seen.add(contextPart);
      for (const key in contextPart) {
        const value = contextPart[key];
        if (value && typeof value === "object") {
          if ("xstate$$type" in value && value.xstate$$type === $$ACTOR_TYPE) {
            contextPart[key] = children2[value.id];
            continue;
          }
          reviveContext(value, children2);
        }
      }
    }
    reviveContext(restoredSnapshot.context, children);
    return restoredSnapshot;
  }
};

// node_modules/xstate/dist/log-6a5e50a8.esm.js
function resolveEmit(_, snapshot, args, actionParams, {
  event: eventOrExpr
}) {
  const resolvedEvent = typeof eventOrExpr === "function" ? eventOrExpr(args, actionParams) : eventOrExpr;
  return [snapshot, {
    event: resolvedEvent
  }, void 0];
}
function executeEmit(actorScope, {
  event
}) {
  actorScope.defer(() => actorScope.emit(event));
}
function emit(eventOrExpr) {
  function emit2(_args, _params) {
  }
  emit2.type = "xstate.emit";
  emit2.event = eventOrExpr;
  emit2.resolve = resolveEmit;
  emit2.execute = executeEmit;
  return emit2;
}
var SpecialTargets = /* @__PURE__ */ (function(SpecialTargets2) {
  SpecialTargets2["Parent"] = "#_parent";
  SpecialTargets2["Internal"] = "#_internal";
  return SpecialTargets2;
})({});
function resolveSendTo(actorScope, snapshot, args, actionParams, {
  to,
  event: eventOrExpr,
  id,
  delay
}, extra) {
  const delaysMap = snapshot.machine.implementations.delays;
  if (typeof eventOrExpr === "string") {
    throw new Error(
      // oxlint-disable-next-line typescript/restrict-template-expressions
      `Only event objects may be used with sendTo; use sendTo({ type: "${eventOrExpr}" }) instead`
    );
  }
  const resolvedEvent = typeof eventOrExpr === "function" ? eventOrExpr(args, actionParams) : eventOrExpr;
  let resolvedDelay;
  if (typeof delay === "string") {
    const configDelay = delaysMap && delaysMap[delay];
    resolvedDelay = typeof configDelay === "function" ? configDelay(args, actionParams) : configDelay;
  } else {
    resolvedDelay = typeof delay === "function" ? delay(args, actionParams) : delay;
  }
  const resolvedTarget = typeof to === "function" ? to(args, actionParams) : to;
  let targetActorRef;
  if (typeof resolvedTarget === "string") {
    if (resolvedTarget === SpecialTargets.Parent) {
      targetActorRef = actorScope.self._parent;
    } else if (resolvedTarget === SpecialTargets.Internal) {
      targetActorRef = actorScope.self;
    } else if (resolvedTarget.startsWith("#_")) {
      targetActorRef = snapshot.children[resolvedTarget.slice(2)];
    } else {
      targetActorRef = extra.deferredActorIds?.includes(resolvedTarget) ? resolvedTarget : snapshot.children[resolvedTarget];
    }
    if (!targetActorRef) {
      throw new Error(`Unable to send event to actor '${resolvedTarget}' from machine '${snapshot.machine.id}'.`);
    }
  } else {
    targetActorRef = resolvedTarget || actorScope.self;
  }
  return [snapshot, {
    to: targetActorRef,
    targetId: typeof resolvedTarget === "string" ? resolvedTarget : void 0,
    event: resolvedEvent,
    id,
    delay: resolvedDelay
  }, void 0];
}
function retryResolveSendTo(_, snapshot, params) {
  if (typeof params.to === "string") {
    params.to = snapshot.children[params.to];
  }
}
function executeSendTo(actorScope, params) {
  actorScope.defer(() => {
    const {
      to,
      event,
      delay,
      id
    } = params;
    if (typeof delay === "number") {
      actorScope.system.scheduler.schedule(actorScope.self, to, event, delay, id);
      return;
    }
    actorScope.system._relay(
      actorScope.self,
      // at this point, in a deferred task, it should already be mutated by retryResolveSendTo
      // if it initially started as a string
      to,
      event.type === XSTATE_ERROR ? createErrorActorEvent(actorScope.self.id, event.data) : event
    );
  });
}
function sendTo(to, eventOrExpr, options) {
  function sendTo2(_args, _params) {
  }
  sendTo2.type = "xstate.sendTo";
  sendTo2.to = to;
  sendTo2.event = eventOrExpr;
  sendTo2.id = options?.id;
  sendTo2.delay = options?.delay;
  sendTo2.resolve = resolveSendTo;
  sendTo2.retryResolve = retryResolveSendTo;
  sendTo2.execute = executeSendTo;
  return sendTo2;
}
function sendParent(event, options) {
  return sendTo(SpecialTargets.Parent, event, options);
}
function resolveEnqueueActions(actorScope, snapshot, args, actionParams, {
  collect
}) {
  const actions = [];
  const enqueue = function enqueue2(action) {
    actions.push(action);
  };
  enqueue.assign = (...args2) => {
    actions.push(assign(...args2));
  };
  enqueue.cancel = (...args2) => {
    actions.push(cancel(...args2));
  };
  enqueue.raise = (...args2) => {
    actions.push(raise(...args2));
  };
  enqueue.sendTo = (...args2) => {
    actions.push(sendTo(...args2));
  };
  enqueue.sendParent = (...args2) => {
    actions.push(sendParent(...args2));
  };
  enqueue.spawnChild = (...args2) => {
    actions.push(spawnChild(...args2));
  };
  enqueue.stopChild = (...args2) => {
    actions.push(stopChild(...args2));
  };
  enqueue.emit = (...args2) => {
    actions.push(emit(...args2));
  };
  collect({
    context: args.context,
    event: args.event,
    enqueue,
    check: (guard) => evaluateGuard(guard, snapshot.context, args.event, snapshot),
    self: actorScope.self,
    system: actorScope.system
  }, actionParams);
  return [snapshot, void 0, actions];
}
function enqueueActions(collect) {
  function enqueueActions2(_args, _params) {
  }
  enqueueActions2.type = "xstate.enqueueActions";
  enqueueActions2.collect = collect;
  enqueueActions2.resolve = resolveEnqueueActions;
  return enqueueActions2;
}
function resolveLog(_, snapshot, actionArgs, actionParams, {
  value,
  label
}) {
  return [snapshot, {
    value: typeof value === "function" ? value(actionArgs, actionParams) : value,
    label
  }, void 0];
}
function executeLog({
  logger
}, {
  value,
  label
}) {
  if (label) {
    logger(label, value);
  } else {
    logger(value);
  }
}
function log(value = ({
  context,
  event
}) => ({
  context,
  event
}), label) {
  function log2(_args, _params) {
  }
  log2.type = "xstate.log";
  log2.value = value;
  log2.label = label;
  log2.resolve = resolveLog;
  log2.execute = executeLog;
  return log2;
}

// node_modules/xstate/dist/xstate.esm.js
function createMachine(config, implementations) {
  return new StateMachine(config, implementations);
}
function setup({
  schemas,
  actors,
  actions,
  guards,
  delays
}) {
  return {
    assign,
    sendTo,
    raise,
    log,
    cancel,
    stopChild,
    enqueueActions,
    emit,
    spawnChild,
    createStateConfig: (config) => config,
    createAction: (fn) => fn,
    createMachine: (config) => createMachine({
      ...config,
      schemas
    }, {
      actors,
      actions,
      guards,
      delays
    }),
    extend: (extended) => setup({
      schemas,
      actors,
      actions: {
        ...actions,
        ...extended.actions
      },
      guards: {
        ...guards,
        ...extended.guards
      },
      delays: {
        ...delays,
        ...extended.delays
      }
    })
  };
}

// src/tracker/corrections.ts
var distance = (a, b) => Math.abs(a % 9 - b % 9) + Math.abs(Math.floor(a / 9) - Math.floor(b / 9));
function pairCorrections(expected, observed) {
  const out = [];
  for (const kind of ["x", "r", "b"]) {
    const extra = [];
    const missing = [];
    for (let sq2 = 0; sq2 < 90; sq2++) {
      if (observed[sq2] === kind && expected[sq2] !== kind) extra.push(sq2);
      if (expected[sq2] === kind && observed[sq2] !== kind) missing.push(sq2);
    }
    if (extra.length === 0 && missing.length === 0) continue;
    const pairs = assign2(extra, missing);
    const usedExtra = /* @__PURE__ */ new Set();
    const usedMissing = /* @__PURE__ */ new Set();
    for (const [i, j] of pairs) {
      usedExtra.add(i);
      usedMissing.add(j);
      const from = makeSquareName(extra[i]);
      const to = makeSquareName(missing[j]);
      out.push({ kind: "move", from, to, text: `move ${from} to ${to}` });
    }
    extra.forEach((s, i) => {
      if (!usedExtra.has(i))
        out.push({ kind: "remove", at: makeSquareName(s), text: `remove ${makeSquareName(s)}` });
    });
    missing.forEach((s, j) => {
      if (usedMissing.has(j)) return;
      const colour = kind === "r" ? "red " : kind === "b" ? "black " : "";
      out.push({
        kind: "add",
        at: makeSquareName(s),
        piece: kind,
        text: `put a ${colour}piece on ${makeSquareName(s)}`
      });
    });
  }
  return out;
}
function assign2(rows, cols) {
  const n = Math.max(rows.length, cols.length);
  if (n === 0 || rows.length === 0 || cols.length === 0) return [];
  const BIG = 1e3;
  const cost = (i, j) => i < rows.length && j < cols.length ? distance(rows[i], cols[j]) : BIG;
  const u = new Array(n + 1).fill(0);
  const v = new Array(n + 1).fill(0);
  const p = new Array(n + 1).fill(0);
  const way = new Array(n + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Array(n + 1).fill(Number.POSITIVE_INFINITY);
    const used = new Array(n + 1).fill(false);
    do {
      used[j0] = true;
      const i0 = p[j0];
      let delta = Number.POSITIVE_INFINITY;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const cur = cost(i0 - 1, j - 1) - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[p[j]] = u[p[j]] + delta;
          v[j] = v[j] - delta;
        } else {
          minv[j] = minv[j] - delta;
        }
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0);
  }
  const pairs = [];
  for (let j = 1; j <= n; j++) {
    const i = p[j] - 1;
    if (i < rows.length && j - 1 < cols.length) pairs.push([i, j - 1]);
  }
  return pairs;
}

// src/tracker/reader.ts
function expectedCells(pos, sensing) {
  let s = "";
  for (let sq2 = 0; sq2 < 90; sq2++) {
    const c = pos.colorAt(sq2);
    s += c === 0 ? "." : sensing === "occupancy" ? "x" : c === 1 ? "r" : "b";
  }
  return s;
}
var DEFAULT_READER_TIMING = { strayMs: 2500, maskAfterMs: 2500 };
var MAX_LINES = 32;
var OBS_CODE = { ".": 0, r: 1, b: 2, x: 3 };
var matches2 = (code, o) => o === 3 ? code !== 0 : code === o;
function judge(input) {
  const timing = input.timing ?? DEFAULT_READER_TIMING;
  const obs = new Uint8Array(90);
  for (let sq2 = 0; sq2 < 90; sq2++) obs[sq2] = OBS_CODE[input.observed[sq2]] ?? 3;
  const ctx = {
    obs,
    mask: input.mask,
    covered: input.covered ?? NONE_COVERED,
    evidence: input.evidence,
    now: input.now,
    timing,
    sensing: input.sensing,
    refilled: [...input.evidence.lifted.keys()].filter((sq2) => obs[sq2] !== 0 && !input.mask.has(sq2)),
    captures: /* @__PURE__ */ new WeakSet(),
    first: input.evidence.firstLifted ?? input.evidence.lifted,
    trails: slideTrails(input, obs),
    lastLanded: input.landedAt ?? Number.NEGATIVE_INFINITY,
    previous: input.previous
  };
  if (exactly(input.base, ctx)) return { kind: "idle" };
  const held = input.held?.[0];
  if (held !== void 0 && obs[held.to] === 0 && !input.mask.has(held.to))
    return { kind: "commit", moves: [...input.held], revision: false, ready: true };
  const found = [];
  const roots = [[], ...input.pending.slice(0, MAX_LINES)].map((l) => {
    const line = [...l];
    const pos = input.base.clone();
    let hidden = 0;
    line.forEach((m, k) => {
      if (pos.colorAt(m.to) !== 0) ctx.captures.add(m);
      if (isHidden(pos, m, false, line[k - 1], ctx)) hidden++;
      pos.play(m);
    });
    return { line, pos, hidden };
  });
  for (const root of roots) explain(root.pos, root.line, root.hidden, false, void 0, ctx, found);
  const revisable = input.revisable && input.previous !== void 0 && input.evidence.buttonBy !== input.base.turn && !moverLifted(input.base, input.evidence.lifted, input.observed, input.landedAt);
  if (revisable) explain(input.previous.position.clone(), [], 0, true, input.previous.move, ctx, found);
  let fits = found.filter((e) => e.bad === void 0);
  const nearFits = found.filter((e) => e.bad !== void 0);
  const button = input.evidence.buttonBy;
  if (button !== void 0 && button === input.base.turn) {
    fits = fits.filter((e) => e.revision || e.line.length > 0);
  }
  const considered = fits;
  const best = Math.min(...fits.map((e) => e.unexplained));
  fits = fits.filter((e) => e.unexplained === best);
  const trailed = Math.min(...fits.map((e) => e.offTrail));
  fits = fits.filter((e) => e.offTrail === trailed);
  const fewest = Math.min(...fits.map((e) => e.strays));
  const least = fits.filter((e) => e.strays === fewest);
  const knocked = (e) => e.strays === fewest + 1 && e.hidden === 0 && e.strayAt.every((sq2) => byHand(input, e, sq2, ctx));
  const doubtful = (e) => e.hidden > 0 && e.line.length > 0 && (knockedByLast(e.line[0].from, ctx) || replyMayBeKnock(input, e, ctx));
  fits = least.every(doubtful) ? [...least, ...fits.filter(knocked)] : least;
  const blindest = Math.min(...fits.map((e) => e.masked));
  fits = fits.filter((e) => e.masked === blindest);
  if (fits.length > 0 && fewest > 0) {
    const dead = overdueSensor(input, nearFits, ctx);
    if (dead !== void 0)
      return { kind: "suspect", square: dead, reads: obs[dead] === 0 ? "empty" : "occupied" };
  }
  if (fits.length > 0) {
    const verdict = decide(input, fits);
    if (trailed > 0 && (verdict.kind === "commit" || button === input.base.turn)) {
      const dead = trailEnd(input, ctx);
      if (dead !== void 0) return { kind: "suspect", square: dead, reads: "empty" };
    }
    if (verdict.kind === "commit" && fewest > 0 && nearFits.some((e) => strayless(e, obs))) {
      return waitVerdict(input, soonest(fits.map((e) => e.expires)));
    }
    if (verdict.kind === "commit" && verdict.revision && fits.some((e) => e.hidden > 0) && considered.some((e) => !e.revision)) {
      return waitVerdict(input, soonest(considered.map((e) => e.expires)), [verdict.moves]);
    }
    if (verdict.kind === "commit" && verdict.revision && verdict.moves.length === 0 && !input.takebacks) {
      if (fits.some((e) => e.hand.length === 0)) return { kind: "takeback_refused" };
      return waitVerdict(input, void 0);
    }
    if (verdict.kind === "commit" && !verdict.revision && verdict.moves.length > 0) {
      const rivals = dedupe(
        considered.filter((e) => !e.revision && parts(e.line, verdict.moves)).map((e) => e.line.slice(0, verdict.moves.length))
      );
      const unseen2 = fits.some((e) => e.hidden > 0);
      const knock = knockDoubt(input, verdict.moves, considered, fits, ctx);
      if (knock) {
        const until = (ctx.evidence.changedAt[verdict.moves[0].to] ?? input.now) + KNOCK_HOLD_MS;
        if (input.now < until) return waitVerdict(input, until, [], verdict.moves);
      }
      const blind = blindCaptures(input, verdict.moves, ctx);
      if (rivals.length > 0 || unseen2 || knock || blind.length > 0)
        return {
          ...verdict,
          ...rivals.length > 0 ? { rivals } : {},
          ...unseen2 ? { unseen: unseen2 } : {},
          ...knock ? { knocked: true } : {},
          ...blind.length > 0 ? { blind } : {}
        };
    }
    return verdict;
  }
  const phantom = phantomSquare(input, nearFits, ctx);
  if (phantom !== void 0) {
    const origins = stuckOrigins(input, phantom, ctx);
    if (origins.length > 0)
      return { kind: "doubt", worlds: [...origins, { square: phantom, reads: "occupied", moves: [] }] };
    return { kind: "suspect", square: phantom, reads: "occupied", phantom: true };
  }
  if (!input.probing && !moverLifted(input.base, input.evidence.lifted, input.observed) && (button === input.base.turn || input.now - lastChange(ctx) >= timing.maskAfterMs)) {
    const stuck = stuckOrigins(input, void 0, ctx);
    if (stuck.length > 0) return { kind: "doubt", worlds: [...stuck, ...unseenLanding(input, ctx)] };
  }
  const illegal = findIllegal(roots, ctx) ?? displaced(input, nearFits, ctx);
  if (illegal) return { kind: "illegal", displacement: illegal };
  const unseen = unseenLanding(input, ctx);
  if (unseen.length === 1) return { kind: "suspect", square: unseen[0].square, reads: "empty" };
  if (unseen.length > 1) return { kind: "doubt", worlds: unseen };
  return suspectDeadSquare(input, nearFits, ctx);
}
function suspectDeadSquare(input, nearFits, ctx) {
  if (input.probing) return { kind: "unknown" };
  const { obs, timing } = ctx;
  const candidates = new Set(nearFits.map((e) => e.bad));
  let recheckAt;
  const found = [];
  for (const sq3 of candidates) {
    if (input.mask.has(sq3)) continue;
    const since = input.evidence.changedAt[sq3] ?? 0;
    if (input.now - since < timing.maskAfterMs) {
      recheckAt = Math.min(recheckAt ?? Number.POSITIVE_INFINITY, since + timing.maskAfterMs);
      continue;
    }
    const v2 = judge({ ...input, mask: /* @__PURE__ */ new Set([...input.mask, sq3]), probing: true });
    if (v2.kind !== "unknown" && v2.kind !== "suspect" && v2.kind !== "illegal") found.push({ sq: sq3, v: v2 });
    if (found.length > 1) return { kind: "unknown", recheckAt };
  }
  if (found.length === 0) return { kind: "unknown", recheckAt };
  const { sq: sq2, v } = found[0];
  const reads = obs[sq2] === 0 ? "empty" : "occupied";
  if (v.kind === "commit" && v.revision && v.moves.length === 0) {
    const stuck = stuckOrigins(input, void 0, ctx);
    if (stuck.length > 0)
      return { kind: "doubt", worlds: [{ square: sq2, reads, moves: [], retract: true }, ...stuck] };
  }
  return { kind: "suspect", square: sq2, reads };
}
function overdueSensor(input, nearFits, ctx) {
  if (input.probing) return void 0;
  const unseen = unseenLanding(input, ctx);
  if (unseen.length === 1) return unseen[0].square;
  if (unseen.length > 1) return void 0;
  const candidates = /* @__PURE__ */ new Set();
  for (const e of nearFits) {
    const sq3 = e.bad;
    if (!e.overdue || input.mask.has(sq3)) continue;
    if (ctx.now - (ctx.evidence.changedAt[sq3] ?? 0) >= ctx.timing.maskAfterMs) candidates.add(sq3);
  }
  if (candidates.size !== 1) return void 0;
  const [sq2] = candidates;
  const v = judge({ ...input, mask: /* @__PURE__ */ new Set([...input.mask, sq2]), probing: true });
  return v.kind === "commit" && !v.revision ? sq2 : void 0;
}
function unseenLanding(input, ctx) {
  if (input.probing) return [];
  const base = input.base;
  const side = base.turnCode;
  const found = [];
  for (const [from, at] of ctx.first) {
    if (base.colorAt(from) !== side || ctx.obs[from] !== 0 || ctx.mask.has(from)) continue;
    if (ctx.now - at < ctx.timing.maskAfterMs) continue;
    let replyAt = Number.POSITIVE_INFINITY;
    for (const [sq2, t] of ctx.first)
      if (t > at && base.colorAt(sq2) === 3 - side) replyAt = Math.min(replyAt, t);
    if (replyAt === Number.POSITIVE_INFINITY) continue;
    for (const m of base.legalMovesFrom((sq2) => sq2 === from)) {
      const to = m.to;
      if (ctx.mask.has(to) || ctx.obs[to] !== 0 || base.colorAt(to) !== 0) continue;
      if ((ctx.evidence.changedAt[to] ?? Number.NEGATIVE_INFINITY) >= at) continue;
      const v = judge({ ...input, mask: /* @__PURE__ */ new Set([...input.mask, to]), probing: true });
      if (v.kind !== "commit" || v.revision || v.moves[0]?.from !== from || v.moves[0].to !== to) continue;
      const early = v.moves.some(
        (m2, k) => k % 2 === 0 && k > 0 && !v.moves.slice(0, k).some((p) => p.to === m2.from) && (ctx.evidence.changedAt[m2.from] ?? Number.NEGATIVE_INFINITY) < replyAt
      );
      if (!early) found.push({ square: to, reads: "empty", moves: v.moves });
    }
  }
  return found;
}
function phantomSquare(input, nearFits, ctx) {
  if (input.probing) return void 0;
  let shown = 0;
  let pieces = 0;
  for (let sq3 = 0; sq3 < 90; sq3++) {
    if (ctx.mask.has(sq3)) continue;
    if (ctx.obs[sq3] !== 0) shown++;
    if (input.base.colorAt(sq3) !== 0) pieces++;
  }
  if (shown <= pieces) return void 0;
  const candidates = /* @__PURE__ */ new Set();
  for (const e of nearFits) {
    if (e.revision || ctx.obs[e.bad] === 0) continue;
    const pos = input.base.clone();
    for (const m of e.line) pos.play(m);
    if (pos.colorAt(e.bad) === 0) candidates.add(e.bad);
  }
  if (candidates.size !== 1) return void 0;
  const [sq2] = candidates;
  const v = judge({ ...input, mask: /* @__PURE__ */ new Set([...input.mask, sq2]), probing: true });
  return v.kind === "unknown" || v.kind === "suspect" || v.kind === "illegal" ? void 0 : sq2;
}
function stuckOrigins(input, landing, ctx) {
  const base = input.base;
  const side = base.turnCode;
  const found = [];
  for (let from = 0; from < 90; from++) {
    if (base.colorAt(from) !== side || ctx.obs[from] === 0 || ctx.mask.has(from)) continue;
    const to = base.legalDestinations(from);
    if (landing !== void 0 ? !to.includes(landing) : to.length === 0) continue;
    const v = judge({ ...input, mask: /* @__PURE__ */ new Set([...input.mask, from]), probing: true });
    if (v.kind !== "commit" || v.revision || v.moves[0]?.from !== from) continue;
    if (landing === void 0 || v.moves[0].to === landing)
      found.push({ square: from, reads: "occupied", moves: v.moves });
  }
  return found;
}
function lastChange(ctx) {
  let latest = Number.NEGATIVE_INFINITY;
  for (let sq2 = 0; sq2 < 90; sq2++) latest = Math.max(latest, ctx.evidence.changedAt[sq2] ?? latest);
  return latest;
}
function waitVerdict(input, recheckAt, revised = [], hold) {
  return {
    kind: "wait",
    lifted: liftedNow(input),
    candidates: [],
    ambiguous: false,
    ...revised.length > 0 ? { revised } : {},
    ...hold !== void 0 ? { hold } : {},
    keep: [],
    recheckAt
  };
}
function decide(input, fits) {
  const revisions = fits.filter((e) => e.revision);
  const recheckAt = soonest(fits.map((e) => e.expires));
  if (revisions.length > 0 && revisions.length < fits.length) {
    const revised = dedupe(revisions.filter((e) => e.hand.length === 0).map((e) => e.line));
    return waitVerdict(input, recheckAt, revised);
  }
  const lifted = liftedNow(input);
  const lines = fits.map((e) => e.line);
  const agreed = commonPrefix(lines);
  const revision = revisions.length > 0;
  if (agreed.length > 0 || revision && lines.every((l) => l.length === 0)) {
    const previous = input.previous;
    const capture = previous !== void 0 && previous.position.colorAt(previous.move.to) !== 0;
    if (agreed.length === 0 && capture && fits.every((e) => e.hand.includes(previous.move.from)))
      return waitVerdict(input, recheckAt);
    const base = revision ? input.previous.position : input.base;
    const ready = isReady(input, base, agreed, fits);
    if (revision && !ready && input.takebacks && agreed.length > 0 && !input.mask.has(agreed[0].to))
      return { kind: "commit", moves: [], revision, ready: true, movedOn: true };
    return { kind: "commit", moves: agreed, revision, ready };
  }
  const candidates = dedupe(lines.filter((l) => l.length > 0));
  if (!input.settled && !revision && lines.some((l) => isExtendable(input.base, l))) {
    const at = input.settleAt ?? input.now;
    return {
      kind: "wait",
      lifted,
      candidates,
      ambiguous: false,
      keep: [...input.pending.map((l) => [...l])],
      recheckAt: Math.min(recheckAt ?? at, at)
    };
  }
  const ambiguous = !revision && lines.every((l) => l.length >= 2);
  const deepFits = fits.filter((e) => !e.revision && e.line.length >= 2);
  const exact = deepFits.filter((e) => e.hand.length === 0);
  const deep = dedupe((exact.length > 0 ? exact : deepFits).map((e) => e.line));
  const keep = ambiguous || input.pending.length > 0 ? dedupe([...input.pending.map((l) => [...l]), ...deep]).slice(0, MAX_LINES) : [];
  return { kind: "wait", lifted, candidates, ambiguous, keep, recheckAt };
}
function isReady(input, base, moves, fits) {
  if (moves.length === 0 || input.settled) return true;
  if (!isExtendable(base, moves)) return true;
  if (input.evidence.buttonBy !== void 0 && input.evidence.buttonBy === base.turn && moves.length === 1)
    return true;
  const pos = base.clone();
  for (const m of moves) pos.play(m);
  const next2 = pos.turnCode;
  const last = moves[moves.length - 1];
  return fits.every(
    (e) => e.line.length > moves.length || e.hand.some(
      (sq2) => pos.colorAt(sq2) === next2 && e.strayAt.indexOf(sq2) < 0 && !nearSlide(base, moves, last, sq2)
    )
  );
}
function nearSlide(base, moves, last, sq2) {
  if (near(sq2, last.from)) return true;
  const df = Math.sign(squareFile(last.to) - squareFile(last.from));
  const dr = Math.sign(squareRank(last.to) - squareRank(last.from));
  const pos = beforeLast(base, moves);
  for (let at = squareAt(squareFile(last.from) + df, squareRank(last.from) + dr); at !== void 0; at = squareAt(squareFile(at) + df, squareRank(at) + dr)) {
    if (near(sq2, at)) return true;
    if (at !== last.to && pos.colorAt(at) !== 0 && at !== last.from) return false;
  }
  return false;
}
var soonest = (times) => {
  const finite = times.filter((t) => Number.isFinite(t));
  return finite.length > 0 ? Math.min(...finite) : void 0;
};
function moverLifted(pos, lifted, observed, landedAt = Number.NEGATIVE_INFINITY) {
  const side = pos.turnCode;
  for (const [sq2, since] of lifted) {
    if (since < landedAt) continue;
    if (pos.colorAt(sq2) === side && (observed === void 0 || observed[sq2] === ".")) return true;
  }
  return false;
}
function exactly(pos, ctx) {
  for (let sq2 = 0; sq2 < 90; sq2++) {
    if (ctx.mask.has(sq2)) continue;
    if (!matches2(pos.colorAt(sq2), ctx.obs[sq2])) return false;
  }
  return true;
}
var MAX_DEPTH = 3;
function explain(root, line, hiddenInLine, revision, revising, ctx, out) {
  const { obs, mask } = ctx;
  add(root, line, hiddenInLine, revision, ctx, out);
  const depth = revising ? 1 : MAX_DEPTH;
  const { first } = ctx;
  const landedAt = (m) => landingTime(m, ctx);
  const latestStart = (path) => {
    let latest = Number.NEGATIVE_INFINITY;
    for (const m of line) latest = Math.max(latest, first.get(m.from) ?? latest);
    for (const m of path) latest = Math.max(latest, first.get(m.from) ?? latest);
    return latest;
  };
  const shown = new Uint8Array(90);
  for (let sq2 = 0; sq2 < 90; sq2++) shown[sq2] = root.colorAt(sq2);
  const covered = [];
  let hidden = hiddenInLine;
  const search = (pos, path, left) => {
    const appeared = appearedSquares(pos, ctx, covered);
    if (appeared.length > left) return;
    const movable = (sq2) => mask.has(sq2) || obs[sq2] === 0 || left >= 2 && ctx.evidence.lifted.has(sq2);
    for (const m of pos.legalMovesFrom(revising ? (sq2) => sq2 === revising.from : movable)) {
      if (revising && (m.from !== revising.from || m.to === revising.to)) continue;
      const mover = pos.colorAt(m.from);
      if (pos.colorAt(m.to) !== 0) ctx.captures.add(m);
      const prev = path.length > 0 ? path[path.length - 1] : line[line.length - 1];
      const before = path.length > 1 ? path[path.length - 2] : line[line.length - 2 + path.length];
      const onTop = !mask.has(m.to) && pos.colorAt(m.to) !== 0 && shown[m.to] === pos.colorAt(m.to) && matches2(shown[m.to], obs[m.to]) && !victimTaken(m, prev, ctx);
      if (!mask.has(m.to) && !onTop && !matches2(mover, obs[m.to])) {
        const takenAway = obs[m.to] === 0 && pos.colorAt(m.to) !== 0 && (ctx.evidence.lifted.get(m.to) ?? Number.NEGATIVE_INFINITY) > (first.get(m.from) ?? Number.NEGATIVE_INFINITY);
        const setDownThenTaken = obs[m.to] === 0 && pos.colorAt(m.to) === 0 && landingSpell(m, ctx) !== void 0;
        if (!takenAway && !setDownThenTaken && (obs[m.to] === 0 || left < 2)) continue;
      } else if (appeared.length === left && appeared.indexOf(m.to) < 0 && appeared.indexOf(m.from) < 0) {
        continue;
      }
      if (!mask.has(m.from) && obs[m.from] !== 0) {
        if (left < 2 || !ctx.evidence.lifted.has(m.from)) continue;
      }
      if (before && before.to === m.from && !ctx.captures.has(before) && pos.isSlider(m.from) && sameDirection(before, m) && !(prev && landedAt(prev) < stoodUntil(before, ctx)))
        continue;
      if (shown[m.to] === 0 && pos.colorAt(m.to) !== 0 && retakenAt(m.to, ctx) === void 0) continue;
      const leftAt = first.get(m.from);
      if (leftAt !== void 0) {
        const liftedAt = ctx.evidence.lifted.get(m.from) ?? leftAt;
        if (prev && m.from !== prev.to) {
          const captured = ctx.captures.has(prev);
          if ((m.to !== prev.to || captured) && liftedAt < landedAt(prev) + (captured ? REPLY_AFTER_LANDING_MS : 0))
            continue;
        } else if (!prev && !revising && liftedAt < ctx.lastLanded) continue;
        if (pos.colorAt(m.to) !== 0 && obs[m.to] !== 0 && !mask.has(m.to)) {
          const victimLeft = ctx.evidence.lifted.get(m.to);
          const answered = prev ? earliestLanding(prev, ctx) : ctx.lastLanded;
          if (victimLeft !== void 0 && victimLeft < answered) continue;
        }
        if (pos.colorAt(m.to) === 0 && obs[m.to] !== 0 && !mask.has(m.to) && (ctx.evidence.changedAt[m.to] ?? Number.NEGATIVE_INFINITY) < leftAt)
          continue;
        if (pos.colorAt(m.to) !== 0 && obs[m.to] !== 0 && ctx.evidence.lifted.has(m.to) && (ctx.evidence.changedAt[m.to] ?? Number.NEGATIVE_INFINITY) < leftAt)
          continue;
        const original = !line.some((x) => x.to === m.from) && !path.some((x) => x.to === m.from);
        if (original && leftAt < latestStart(path)) continue;
      }
      const unseen = isHidden(pos, m, onTop, prev, ctx) ? 1 : 0;
      pos.play(m);
      path.push(m);
      hidden += unseen;
      if (onTop) covered.push(m.to);
      add(pos, [...line, ...path], hidden, revision, ctx, out, covered);
      if (left > 1) search(pos, path, left - 1);
      if (onTop) covered.pop();
      hidden -= unseen;
      path.pop();
      pos.undo();
    }
  };
  search(root, [], depth);
}
function isHidden(pos, m, onTop, prev, ctx) {
  if (pos.colorAt(m.to) === 0 || ctx.mask.has(m.to)) return false;
  if (victimTaken(m, prev, ctx)) return false;
  return onTop || ctx.sensing === "occupancy" || !matches2(pos.colorAt(m.from), ctx.obs[m.to]);
}
function blindCaptures(input, moves, ctx) {
  const out = [];
  const pos = input.base.clone();
  moves.forEach((m, k) => {
    if (pos.colorAt(m.to) !== 0 && isHidden(pos, m, false, moves[k - 1], ctx)) {
      const elsewhere = pos.legalDestinations(m.from).some((to) => to !== m.to && pos.colorAt(to) === 0 && (ctx.obs[to] === 0 || ctx.mask.has(to)));
      if (elsewhere) out.push(m);
    }
    pos.play(m);
  });
  return out;
}
function victimTaken(m, prev, ctx) {
  const taken = ctx.evidence.lifted.get(m.to) ?? retakenAt(m.to, ctx);
  const began = prev ? ctx.first.get(prev.from) : void 0;
  return taken !== void 0 && (began === void 0 || taken > began);
}
function landingSpell(m, ctx) {
  const spells = ctx.evidence.history?.spells(m.to);
  if (spells === void 0 || spells.length === 0) return void 0;
  const left = ctx.first.get(m.from) ?? Number.NEGATIVE_INFINITY;
  for (let k = spells.length - 1; k >= 0; k--) {
    const spell = spells[k];
    if (spell.from < left) return void 0;
    if (Number.isFinite(spell.to) && spell.to - spell.from >= REPLY_AFTER_LANDING_MS) return spell;
  }
  return void 0;
}
function stoodUntil(m, ctx) {
  const left = ctx.first.get(m.from) ?? Number.NEGATIVE_INFINITY;
  const spell = ctx.evidence.history?.spells(m.to).find((sp) => sp.from > left);
  return spell?.to ?? Number.NEGATIVE_INFINITY;
}
function retakenAt(sq2, ctx) {
  if (ctx.obs[sq2] === 0) return void 0;
  const spells = ctx.evidence.history?.spells(sq2);
  if (spells === void 0 || spells.length < 2) return void 0;
  const last = spells[spells.length - 1];
  return Number.isFinite(last.to) ? void 0 : spells[spells.length - 2].to;
}
function landingTime(m, ctx) {
  const left = ctx.first.get(m.from) ?? Number.NEGATIVE_INFINITY;
  if (ctx.obs[m.to] === 0 && !ctx.mask.has(m.to) && !ctx.captures.has(m)) {
    const spell = landingSpell(m, ctx);
    if (spell !== void 0) return Math.max(left, spell.from);
  }
  if (ctx.mask.has(m.to) || ctx.obs[m.to] === 0 || ctx.captures.has(m)) return left + MIN_CARRY_MS;
  return Math.max(left, ctx.evidence.changedAt[m.to] ?? Number.NEGATIVE_INFINITY);
}
function earliestLanding(m, ctx) {
  const left = ctx.first.get(m.from) ?? Number.NEGATIVE_INFINITY;
  if (ctx.captures.has(m) || ctx.mask.has(m.to)) return left + MIN_CARRY_MS;
  const spell = ctx.evidence.history?.spells(m.to).find((sp) => sp.from > left);
  return spell !== void 0 ? spell.from : left + MIN_CARRY_MS;
}
var SLIDE_STEP_MAX_MS = 700;
var MIN_CARRY_MS = 100;
var REPLY_AFTER_LANDING_MS = 50;
var KNOCK_AFTER_LANDING_MS = 300;
function slideTrails(input, obs) {
  const visited = input.evidence.visited;
  if (visited === void 0 || visited.size < 2) return [];
  const out = [];
  const history = input.evidence.history;
  for (const [from, left] of input.evidence.lifted) {
    for (const [df, dr] of ORTHOGONAL) {
      let reach;
      let n = 0;
      let at = left;
      for (let sq2 = squareAt(squareFile(from) + df, squareRank(from) + dr); sq2 !== void 0 && visited.has(sq2) && obs[sq2] === 0 && !input.mask.has(sq2); sq2 = squareAt(squareFile(sq2) + df, squareRank(sq2) + dr)) {
        const seen = history?.firstVisit(sq2);
        if (seen !== void 0 && (seen < at || seen > at + SLIDE_STEP_MAX_MS)) break;
        if (seen !== void 0) at = seen;
        reach = sq2;
        n++;
      }
      if (reach !== void 0 && n >= 2) out.push({ from, reach, df, dr });
    }
  }
  return out;
}
function trailEnd(input, ctx) {
  if (input.probing) return void 0;
  const side = input.base.turnCode;
  const ends = /* @__PURE__ */ new Set();
  for (const t of ctx.trails) {
    if (input.base.colorAt(t.from) !== side) continue;
    const next2 = squareAt(squareFile(t.reach) + t.df, squareRank(t.reach) + t.dr);
    if (next2 === void 0 || ctx.obs[next2] !== 0 || ctx.mask.has(next2) || input.base.colorAt(next2) !== 0)
      continue;
    if (input.base.legalDestinations(t.from).includes(next2)) ends.add(next2);
  }
  if (ends.size !== 1) return void 0;
  const [sq2] = ends;
  const v = judge({ ...input, mask: /* @__PURE__ */ new Set([...input.mask, sq2]), probing: true });
  return v.kind === "commit" && v.moves.some((m) => m.to === sq2) ? sq2 : void 0;
}
var travels = (m, t) => m.from === t.from && heading(m.from, m.to) === heading(t.from, t.reach) && apart(m.from, m.to) >= apart(t.from, t.reach);
function byHand(input, e, sq2, ctx) {
  const { first } = ctx;
  const left = first.get(sq2);
  if (left === void 0) return false;
  const last = input.previous?.move;
  if (e.line.some((m) => m.to === sq2)) return false;
  const justMoved = sq2 === last?.to;
  if (justMoved && input.revisable && !moverLifted(input.base, first, input.observed, input.landedAt))
    return false;
  const inTime = (began) => left >= began && (!justMoved || left - began <= KNOCK_AFTER_LIFT_MS);
  if (!justMoved && knockedByLast(sq2, ctx)) return true;
  for (const m of e.line) {
    const began = first.get(m.from);
    if (began !== void 0 && inTime(began) && (near(sq2, m.from) || near(sq2, m.to))) return true;
  }
  return e.hand.some((h) => {
    const began = first.get(h);
    if (h === sq2 || e.strayAt.indexOf(h) >= 0 || began === void 0 || !inTime(began)) return false;
    return near(sq2, h) || left - began <= KNOCK_AFTER_LIFT_MS && heldNear(input, e, h, sq2);
  });
}
function heldNear(input, e, h, sq2) {
  const pos = (e.revision ? input.previous.position : input.base).clone();
  for (const m of e.line) pos.play(m);
  return pos.legalDestinations(h).some((to) => near(sq2, to));
}
function knockedAside(m, sq2, ctx) {
  if (m.to !== sq2 || !ctx.captures.has(m) || !near(m.from, sq2)) return false;
  const capturer = ctx.first.get(m.from);
  const victim = ctx.first.get(sq2);
  return capturer !== void 0 && victim !== void 0 && victim >= capturer && victim - capturer < MIN_CARRY_MS;
}
var KNOCK_AFTER_LIFT_MS = 300;
var KNOCK_HOLD_MS = 2e3;
function knockDoubt(input, moves, considered, fits, ctx) {
  if (moves.length !== 1) return false;
  const m = moves[0];
  if (!ctx.captures.has(m) || ctx.mask.has(m.to)) return false;
  const others = input.base.legalDestinations(m.from).filter((to) => to !== m.to);
  if (!near(m.from, m.to) && !others.some((to) => near(to, m.to))) return false;
  const capturer = ctx.first.get(m.from);
  const victim = ctx.first.get(m.to);
  if (capturer === void 0 || victim === void 0 || victim < capturer) return false;
  if (victim - capturer >= KNOCK_AFTER_LIFT_MS) return false;
  if (input.evidence.buttonBy === input.base.turn) return false;
  if (!considered.some((e) => !e.revision && e.line.length === 0 && e.hand.includes(m.from))) return false;
  const pos = input.base.clone();
  pos.play(m);
  const next2 = pos.turnCode;
  if (fits.some((e) => e.hand.some((sq2) => sq2 !== m.to && pos.colorAt(sq2) === next2))) return false;
  return true;
}
function replyMayBeKnock(input, e, ctx) {
  const last = e.line[e.line.length - 1];
  const began = ctx.first.get(last.from);
  if (began === void 0 || e.hand.length === 0) return false;
  let instead;
  const insteadNear = (h) => {
    if (instead === void 0) {
      const pos = beforeLast(e.revision ? input.previous.position : input.base, e.line);
      instead = pos.legalDestinations(last.from).filter((to) => pos.colorAt(to) === 0 && ctx.obs[to] === 0);
    }
    return instead.some((to) => near(h, to));
  };
  return e.hand.every((h) => {
    const left = ctx.first.get(h);
    return left !== void 0 && left - began <= MIN_CARRY_MS + KNOCK_AFTER_LANDING_MS && (near(h, last.from) || near(h, last.to) || insteadNear(h));
  });
}
function knockedByLine(sq2, line, ctx) {
  const left = ctx.first.get(sq2) ?? ctx.evidence.changedAt[sq2] ?? Number.NEGATIVE_INFINITY;
  for (const m of line) {
    if (m.to === sq2 || !near(sq2, m.from) && !near(sq2, m.to)) continue;
    if (left <= landingTime(m, ctx) + KNOCK_AFTER_LANDING_MS) return true;
  }
  return knockedByLast(sq2, ctx);
}
function knockedByLast(sq2, ctx) {
  const left = ctx.first.get(sq2);
  const last = ctx.previous?.move;
  if (left === void 0 || !last || sq2 === last.to) return false;
  if (ctx.previous.position.colorAt(last.to) !== 0 || !(near(sq2, last.from) || near(sq2, last.to)))
    return false;
  return left <= (ctx.evidence.changedAt[last.to] ?? 0) + KNOCK_AFTER_LANDING_MS;
}
var ORTHOGONAL = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1]
];
var heading = (from, to) => Math.sign(squareFile(to) - squareFile(from)) + 10 * Math.sign(squareRank(to) - squareRank(from));
var apart = (a, b) => Math.abs(squareFile(a) - squareFile(b)) + Math.abs(squareRank(a) - squareRank(b));
var sameDirection = (a, b) => heading(a.from, a.to) === heading(b.from, b.to);
var near = (a, b) => Math.abs(squareFile(a) - squareFile(b)) <= 1 && Math.abs(squareRank(a) - squareRank(b)) <= 1;
var isCovered = (pos, ctx, covered, sq2) => pos.colorAt(sq2) !== 0 && (ctx.covered.has(sq2) || covered.includes(sq2));
var NONE_COVERED = /* @__PURE__ */ new Set();
function appearedSquares(pos, ctx, covered) {
  const out = [];
  for (let sq2 = 0; sq2 < 90; sq2++) {
    const o = ctx.obs[sq2];
    if (o !== 0 && !ctx.mask.has(sq2) && !matches2(pos.colorAt(sq2), o) && !isCovered(pos, ctx, covered, sq2))
      out.push(sq2);
  }
  return out;
}
var strayless = (e, obs) => e.strays === 0 && !e.revision && e.bad !== void 0 && obs[e.bad] !== 0;
function add(pos, line, hidden, revision, ctx, out, covered = []) {
  const { obs, mask, now, timing } = ctx;
  const hand = [];
  let bad;
  let nbad = 0;
  for (let sq2 = 0; sq2 < 90; sq2++) {
    if (mask.has(sq2)) continue;
    const c = pos.colorAt(sq2);
    const o = obs[sq2];
    if (matches2(c, o) || o !== 0 && isCovered(pos, ctx, covered, sq2)) continue;
    if (o !== 0 || c === 0) {
      bad = sq2;
      if (++nbad > 1) return;
    } else hand.push(sq2);
  }
  if (hand.length > 4) return;
  const side = pos.turnCode;
  let own = 0;
  let taken = 0;
  let targets;
  let expires = Number.POSITIVE_INFINITY;
  let strays = 0;
  let overdue = false;
  const strayAt = [];
  const last = line[line.length - 1];
  const landed = last ? landingTime(last, ctx) + (ctx.captures.has(last) ? REPLY_AFTER_LANDING_MS : 0) : Number.NEGATIVE_INFINITY;
  if (hand.length > 1) {
    const leftAt = (sq2) => ctx.first.get(sq2) ?? Number.POSITIVE_INFINITY;
    const knocked = (sq2) => line.length === 0 && knockedByLast(sq2, ctx) ? 1 : 0;
    hand.sort((a, b) => knocked(a) - knocked(b) || leftAt(a) - leftAt(b));
  }
  for (const sq2 of hand) {
    const early = (ctx.evidence.changedAt[sq2] ?? 0) < landed;
    if (!early && pos.colorAt(sq2) === side && own === 0) {
      own++;
      continue;
    }
    if (!early && pos.colorAt(sq2) !== side && taken === 0) {
      targets ??= new Set(pos.legalMoves().map((m) => m.to));
      if (targets.has(sq2)) {
        taken++;
        continue;
      }
    }
    if (early && !knockedByLine(sq2, line, ctx)) {
      bad = sq2;
      if (++nbad > 1) return;
      continue;
    }
    strays++;
    strayAt.push(sq2);
    const until = (ctx.evidence.changedAt[sq2] ?? 0) + timing.strayMs;
    if (until <= now) {
      bad = sq2;
      overdue = true;
      if (++nbad > 1) return;
    } else expires = Math.min(expires, until);
  }
  let unexplained = 0;
  const lifted = ctx.evidence.lifted;
  const { first } = ctx;
  for (const sq2 of ctx.refilled) {
    const at = lifted.get(sq2);
    let ok2 = false;
    for (let k = 0; k < line.length && !ok2; k++) {
      const m = line[k];
      if (m.from !== sq2 && m.to !== sq2) continue;
      const next2 = line[k + 1];
      const prev = line[k - 1];
      ok2 = (next2 === void 0 || at < (lifted.get(next2.from) ?? Number.POSITIVE_INFINITY)) && (prev === void 0 || at > (first.get(prev.from) ?? Number.NEGATIVE_INFINITY)) && !knockedAside(m, sq2, ctx);
    }
    if (!ok2) unexplained++;
  }
  let offTrail = 0;
  for (const trail of ctx.trails) if (!line.some((m) => travels(m, trail))) offTrail++;
  let masked = 0;
  for (const m of line) if (mask.has(m.to)) masked++;
  out.push({
    line,
    revision,
    unexplained,
    offTrail,
    strays,
    strayAt,
    hidden,
    hand,
    expires,
    bad,
    overdue,
    masked
  });
}
function findIllegal(roots, ctx) {
  for (const { line, pos } of roots) {
    const diff = [];
    for (let sq2 = 0; sq2 < 90 && diff.length <= 2; sq2++) {
      if (!ctx.mask.has(sq2) && !matches2(pos.colorAt(sq2), ctx.obs[sq2])) diff.push(sq2);
    }
    if (diff.length !== 2) continue;
    const [a, b] = diff;
    for (const [from, to] of [
      [a, b],
      [b, a]
    ]) {
      const piece = pos.colorAt(from);
      if (ctx.obs[from] !== 0 || piece === 0) continue;
      const o = ctx.obs[to];
      if (o === 0) continue;
      if (ctx.sensing === "occupancy" ? pos.colorAt(to) !== 0 : o !== piece || pos.colorAt(to) === piece)
        continue;
      if (!pos.isLegal({ from, to })) return { from, to, after: line };
    }
  }
  return void 0;
}
function displaced(input, nearFits, ctx) {
  for (const e of nearFits) {
    const to = e.bad;
    const o = ctx.obs[to];
    if (o === 0 || e.revision || e.hand.length > 2) continue;
    const pos = input.base.clone();
    for (const m of e.line) pos.play(m);
    if (pos.colorAt(to) !== 0) continue;
    const side = pos.turnCode;
    const hands = [...e.hand].sort(
      (a, b) => (pos.colorAt(b) === side ? 1 : 0) - (pos.colorAt(a) === side ? 1 : 0)
    );
    for (const from of hands) {
      if (!matches2(pos.colorAt(from), o)) continue;
      if (!pos.isLegal({ from, to })) return { from, to, after: e.line };
    }
  }
  return void 0;
}
function liftedNow(input) {
  const out = [];
  for (let sq2 = 0; sq2 < 90; sq2++) {
    if (input.base.colorAt(sq2) !== 0 && input.observed[sq2] === "." && !input.mask.has(sq2)) out.push(sq2);
  }
  return out;
}
function dedupe(lines) {
  const seen = /* @__PURE__ */ new Set();
  const out = [];
  for (const l of lines) {
    const key = l.map((m) => `${m.from}-${m.to}`).join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(l);
  }
  return out;
}
function isExtendable(base, moves) {
  if (moves.length === 0) return false;
  const pos = beforeLast(base, moves);
  const last = moves[moves.length - 1];
  if (!pos.isSlider(last.from) || pos.colorAt(last.to) !== 0) return false;
  const way = heading(last.from, last.to);
  return pos.legalDestinations(last.from).some((to) => to !== last.to && heading(last.to, to) === way);
}
function beforeLast(base, moves) {
  if (moves.length <= 1) return base;
  const pos = base.clone();
  for (let k = 0; k < moves.length - 1; k++) pos.play(moves[k]);
  return pos;
}
function parts(a, b) {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) if (a[k].from !== b[k].from || a[k].to !== b[k].to) return true;
  return false;
}
function commonPrefix(lines) {
  if (lines.length === 0) return [];
  const first = lines[0];
  let n = first.length;
  for (const l of lines) {
    let k = 0;
    while (k < n && k < l.length && l[k].from === first[k].from && l[k].to === first[k].to) k++;
    n = k;
  }
  return first.slice(0, n);
}

// src/tracker/lifts.ts
var Lifts = class {
  constructor(bounceMs) {
    this.bounceMs = bounceMs;
  }
  bounceMs;
  open = /* @__PURE__ */ new Map();
  closed = /* @__PURE__ */ new Map();
  /** The first lift of each square since the confirmed position: when its piece left. */
  firstClosed = /* @__PURE__ */ new Map();
  /**
   * Empty intersections seen occupied since the confirmed position: the points a sliding piece
   * passed over (or a flicker).
   */
  visits = /* @__PURE__ */ new Set();
  /**
   * For each of those empty intersections, the times its reading changed since the confirmed
   * position (first to occupied, then to empty, and so on): when a piece landed there and when it
   * was taken off again (a piece just set down and taken at once by the opponent's hand).
   */
  visitTimes = /* @__PURE__ */ new Map();
  /**
   * A frame at `t`: `expected` are the cells of the confirmed position. A masked square (a dead
   * sensor) is no evidence: its reading says nothing of a piece lifted.
   */
  observe(expected, cells, t, mask) {
    for (let sq2 = 0; sq2 < 90; sq2++) {
      if (expected[sq2] === ".") {
        const occupied = cells[sq2] !== ".";
        if (occupied) this.visits.add(sq2);
        const times = this.visitTimes.get(sq2);
        if (times === void 0) {
          if (occupied) this.visitTimes.set(sq2, [t]);
        } else if (occupied === (times.length % 2 === 0)) times.push(t);
        continue;
      }
      if (mask !== void 0 && mask.size > 0 && mask.has(sq2)) {
        this.open.delete(sq2);
        continue;
      }
      const lift = this.open.get(sq2);
      if (cells[sq2] === ".") {
        if (!lift) this.open.set(sq2, { since: t });
        else if (lift.back !== void 0) {
          if (t - lift.back < this.bounceMs)
            lift.back = void 0;
          else {
            this.close(sq2, lift);
            this.open.set(sq2, { since: t });
          }
        }
      } else if (lift && lift.back === void 0) {
        lift.back = t;
      }
    }
  }
  /** Lifts that lasted at least a bounce window, with the time each began (the latest per square). */
  at(now, mask) {
    const out = new Map(this.closed);
    for (const [sq2, lift] of this.open) {
      if ((lift.back ?? now) - lift.since >= this.bounceMs) out.set(sq2, lift.since);
    }
    return unmasked(out, mask);
  }
  /** Like `at`, but the first lift of each square: the order in which pieces left. */
  firstAt(now, mask) {
    const out = new Map(this.firstClosed);
    for (const [sq2, lift] of this.open) {
      if (!out.has(sq2) && (lift.back ?? now) - lift.since >= this.bounceMs) out.set(sq2, lift.since);
    }
    return unmasked(out, mask);
  }
  /** Empty points seen occupied since the confirmed position (see `visits`). */
  visited() {
    return this.visits;
  }
  /** When an empty point of the confirmed position first read occupied since then (any reading). */
  firstVisit(sq2) {
    return this.visitTimes.get(sq2)?.[0];
  }
  /**
   * The spells an empty point of the confirmed position read occupied since then, flickers
   * (shorter than a bounce window, either way) left out: `[from, to)`, `to` infinite while it
   * still reads occupied. Empty when it never did.
   */
  spells(sq2) {
    const times = this.visitTimes.get(sq2);
    const out = [];
    if (times === void 0) return out;
    for (let k = 0; k < times.length; k += 2) {
      const from = times[k];
      const to = times[k + 1] ?? Number.POSITIVE_INFINITY;
      const prev = out[out.length - 1];
      if (prev !== void 0 && from - prev.to < this.bounceMs) prev.to = to;
      else out.push({ from, to });
    }
    return out.filter((spell) => spell.to - spell.from >= this.bounceMs);
  }
  /**
   * A move was committed: only lifts still under way on squares the new position occupies remain,
   * and those that came after the next mover began (`mover`: a square of the side to move now):
   * they are the next move's evidence (a target lifted after its capturer).
   */
  reset(expected, mover) {
    this.visits.clear();
    this.visitTimes.clear();
    let start = Number.POSITIVE_INFINITY;
    if (mover) {
      for (const [sq2, lift] of this.open) {
        if (lift.back === void 0 && expected[sq2] !== "." && mover(sq2)) start = Math.min(start, lift.since);
      }
    }
    for (const [sq2, since] of [...this.closed]) if (since < start) this.closed.delete(sq2);
    for (const [sq2, since] of [...this.firstClosed]) if (since < start) this.firstClosed.delete(sq2);
    for (const [sq2, lift] of [...this.open]) {
      if (expected[sq2] === "." || lift.back !== void 0 && lift.since < start) this.open.delete(sq2);
    }
  }
  /** A point of the confirmed position has read empty since `t`: a lift under way. */
  liftedSince(sq2, t) {
    if (!this.open.has(sq2)) this.open.set(sq2, { since: t });
  }
  close(sq2, lift) {
    if (lift.back !== void 0 && lift.back - lift.since >= this.bounceMs) {
      this.closed.set(sq2, lift.since);
      if (!this.firstClosed.has(sq2)) this.firstClosed.set(sq2, lift.since);
    }
    this.open.delete(sq2);
  }
};
function unmasked(lifts, mask) {
  if (mask !== void 0) for (const sq2 of mask) lifts.delete(sq2);
  return lifts;
}

// src/tracker/readings.ts
var Readings = class {
  constructor(sensing, bounceMs, now) {
    this.sensing = sensing;
    this.readAt = now;
    this.squareChangedAt = new Float64Array(90).fill(now);
    this.lifts = new Lifts(bounceMs);
  }
  sensing;
  /** The latest cells read (undefined before the first frame). */
  cells = void 0;
  /** Time of the last change of the board (the frame that completes a move). */
  changedAt = 0;
  /**
   * When the latest change was read (the clock's time): the bounce window runs from it. Frames that
   * change the board within the window are recorded without starting the window again.
   */
  readAt;
  /** Time of the latest frame, changed or not (a heartbeat shows the board is current). */
  frameAt = 0;
  /**
   * Moves committed or taken back since the board last changed. The same board read again and
   * again must not keep changing the record: past a few, the reader stops and says so.
   */
  commitsSinceChange = 0;
  /** When each square's reading last changed (evidence for strays and dead sensors). */
  squareChangedAt;
  /** Squares lifted since the confirmed position: evidence for captures. */
  lifts;
  /**
   * Points where a committed capture's capturer stands on its victim and a colour sensor still reads
   * the victim (rule 15): any piece read there fits, until the reading changes.
   */
  covered = /* @__PURE__ */ new Set();
  /** Squares taken for dead sensors: their readings are ignored (a new set at each change). */
  mask = /* @__PURE__ */ new Set();
  /** The cells of the last position asked for (the game hands out one object per position). */
  expected;
  /** What `pos` shows the sensors, worked out once per position: every frame needs it. */
  cellsOf(pos) {
    if (this.expected?.pos !== pos) this.expected = { pos, cells: expectedCells(pos, this.sensing) };
    return this.expected.cells;
  }
  /**
   * A frame at `t` (read at the clock's `readAt`) that changed the board, `confirmed` the cells
   * of the confirmed position. A dead sensor whose reading changes is alive after all: unmasked.
   */
  record(t, cells, readAt, confirmed) {
    const previous = this.cells;
    const squareChangedAt = this.squareChangedAt;
    let mask = this.mask;
    for (let s = 0; s < 90; s++) {
      if (previous !== void 0 && previous[s] === cells[s]) continue;
      squareChangedAt[s] = t;
      if (this.covered.size > 0) this.covered.delete(s);
      if (previous !== void 0 && mask.has(s)) {
        mask = new Set(mask);
        mask.delete(s);
      }
    }
    this.mask = mask;
    this.lifts.observe(confirmed, cells, t, mask);
    this.cells = cells;
    this.commitsSinceChange = 0;
    this.changedAt = t;
    this.readAt = readAt;
    this.frameAt = t;
  }
  /** A frame that shows the board unchanged: it is current at `t`. */
  heartbeat(t) {
    this.frameAt = t;
  }
  /** A masked square changes in `cells` (its sensor is alive: the fault alert ends). */
  unmasks(cells) {
    if (this.mask.size === 0 || this.cells === void 0) return false;
    for (const s of this.mask) if (this.cells[s] !== cells[s]) return true;
    return false;
  }
};

// src/tracker/machine.ts
var DEFAULT_TRACKER_OPTIONS = {
  bounceMs: 35,
  settleMs: 130,
  outOfSyncMs: 1e3,
  takebacks: true,
  foulAfterMs: 0,
  strayMs: DEFAULT_READER_TIMING.strayMs,
  maskAfterMs: DEFAULT_READER_TIMING.maskAfterMs,
  buttonGraceMs: 1200,
  unseenReplyMs: 1e3,
  setupFaultMs: 1e3
};
var sq = (s) => makeSquareName(s);
var sameMove = (a, b) => a.from === b.from && a.to === b.to;
var NEVER = 2e9;
var MAX_COMMITS_PER_BOARD = 6;
var RECORDS_CHANGES = "recordsChanges";
var NOTES_HEARTBEATS = "notesHeartbeats";
function frameStage(snapshot) {
  return {
    recordsChanges: snapshot.hasTag(RECORDS_CHANGES),
    notesHeartbeats: snapshot.hasTag(NOTES_HEARTBEATS) && !buttonUnjudged(snapshot.context)
  };
}
var buttonUnjudged = (context) => context.button !== void 0 || context.replyButton !== void 0;
function createTrackerMachine() {
  return setup({
    types: {
      context: {},
      events: {},
      input: {},
      emitted: {}
    },
    delays: {
      bounce: ({ context }) => context.options.bounceMs,
      /** What is left of the bounce window since the latest change (all of it at a change). */
      bounceRest: ({ context }) => Math.max(0, context.readings.readAt + context.options.bounceMs - context.now()),
      settleRest: ({ context }) => Math.max(0, context.options.settleMs - context.options.bounceMs),
      outOfSync: ({ context }) => Math.max(0, (context.unfitSince ?? context.now()) + context.options.outOfSyncMs - context.now()),
      recheck: ({ context }) => {
        const v = context.verdict;
        const at = v.kind === "wait" || v.kind === "unknown" ? v.recheckAt : void 0;
        return at === void 0 ? NEVER : Math.max(1, at - context.now() + 1);
      },
      buttonGrace: ({ context }) => context.button === void 0 ? NEVER : Math.max(1, context.button.t + context.options.buttonGraceMs - context.now() + 1),
      setupFault: ({ context }) => context.options.setupFaultMs,
      foul: ({ context }) => context.options.foulAfterMs
    },
    guards: {
      changed: ({ context, event }) => event.type === "snapshot" && event.cells !== context.readings.cells,
      /** The board changed again within the bounce window: the window goes on from that change. */
      held: ({ context }) => context.readings.readAt + context.options.bounceMs > context.now(),
      boardIsTarget: ({ context }) => boardMatches(context),
      oneSquareWrong: ({ context }) => setupFault(context) !== void 0,
      // (Idle keeps a button only until a frame or the grace shows the board after it.)
      buttonUnjudged: ({ context }) => buttonUnjudged(context),
      isIdle: ({ context }) => context.verdict.kind === "idle",
      isWait: ({ context }) => context.verdict.kind === "wait",
      isSuspect: ({ context }) => context.verdict.kind === "suspect",
      isDoubt: ({ context }) => context.verdict.kind === "doubt",
      commitNow: ({ context }) => {
        const v = context.verdict;
        if (v.kind !== "commit") return false;
        return v.ready && (!v.revision || context.settled || v.movedOn === true);
      },
      commitLater: ({ context }) => context.verdict.kind === "commit",
      isTakebackRefused: ({ context }) => context.verdict.kind === "takeback_refused",
      isIllegal: ({ context }) => context.verdict.kind === "illegal",
      tournament: ({ context }) => context.options.foulAfterMs > 0,
      // (The event's own answer: the context still holds the previous one when guards run.)
      rejected: ({ event }) => event.type === "applied" && event.rejected !== void 0,
      appliedOver: ({ event }) => event.type === "applied" && event.game.over && !event.game.canPlayOn,
      appliedCanPlayOn: ({ event }) => event.type === "applied" && event.game.over && event.game.canPlayOn
    },
    actions: {
      record: assign(({ context, event }) => {
        if (event.type !== "snapshot") return {};
        context.readings.record(event.t, event.cells, context.now(), confirmedCells(context));
        return { settled: false };
      }),
      unmaskAlert: enqueueActions(({ context, event, enqueue }) => {
        if (event.type === "snapshot" && context.readings.unmasks(event.cells))
          enqueue.emit({ type: "alertCleared", kind: "sensor_fault", t: event.t });
      }),
      heartbeat: assign(({ context, event }) => {
        if (event.type === "snapshot") context.readings.heartbeat(event.t);
        return {};
      }),
      recordButton: assign(({ context, event }) => {
        if (event.type !== "button") return {};
        if (event.side !== context.game.position.turn)
          return { replyButton: { side: event.side, t: event.t } };
        return { button: { side: event.side, t: event.t } };
      }),
      markSettled: assign({ settled: true }),
      /** The board judged as it stands, and the alerts that follow (one copy of the context for both). */
      judge: enqueueActions(({ context, enqueue }) => {
        const judged = evaluate(context);
        const alerts = syncAlerts({ ...context, ...judged }, (e) => enqueue.emit(e));
        enqueue.assign(() => ({ ...judged, ...alerts }));
      }),
      options: assign(
        ({ context, event }) => event.type === "options" ? { options: { ...context.options, ...event.options } } : {}
      ),
      applied: assign(({ context, event }) => {
        if (event.type !== "applied") return {};
        const moved = event.game.position !== context.game.position;
        if (!moved) return { game: event.game };
        const landedAt = landingSeen(context);
        const v = context.verdict;
        const done = v.kind === "commit" && !v.revision && !event.rejected ? v.moves : void 0;
        const pending = done ? context.pending.filter((l) => l.length > done.length && done.every((m, k) => sameMove(m, l[k]))).map((l) => l.slice(done.length)) : [];
        const fresh = freshEvidence(context, event.game.position, true);
        const r = context.readings;
        for (const m of done ?? []) {
          if (r.cells?.[m.to] === "." && !r.mask.has(m.to))
            r.lifts.liftedSince(m.to, r.squareChangedAt[m.to] ?? context.now());
        }
        if (done === void 0) r.covered.clear();
        else if (context.options.sensing === "colour") {
          const pos = context.game.position.clone();
          for (const m of done) {
            const victim = pos.colorAt(m.to);
            if (victim !== 0 && r.cells?.[m.to] === (victim === 1 ? "r" : "b") && !r.mask.has(m.to))
              r.covered.add(m.to);
            pos.play(m);
          }
        }
        return { game: event.game, ...fresh, pending, landedAt };
      }),
      emitCommit: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind !== "commit") return;
        enqueue.assign(() => {
          context.readings.commitsSinceChange++;
          return {};
        });
        enqueue.emit({
          type: "commit",
          moves: v.moves,
          revision: v.revision,
          t: context.now(),
          frameT: context.readings.changedAt
        });
      }),
      emitFoul: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind !== "illegal") return;
        const side = illegalSide(context, v.displacement);
        const t = context.now();
        enqueue.emit({ type: "foul", side, t });
        enqueue.emit({
          type: "alert",
          t,
          alert: { kind: "foul", side, message: `foul: ${side}'s illegal move was not corrected in time` }
        });
      }),
      mask: assign(({ context }) => {
        const v = context.verdict;
        if (v.kind === "suspect") context.readings.mask = /* @__PURE__ */ new Set([...context.readings.mask, v.square]);
        return {};
      }),
      resume: assign(({ context, event }) => {
        if (event.type === "resume")
          context.readings.mask = /* @__PURE__ */ new Set([...context.readings.mask, ...event.mask]);
        return freshEvidence(context, context.game.position, context.game.previous !== void 0);
      }),
      emitFork: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind !== "doubt") return;
        const t = context.now();
        enqueue.assign({ raised: /* @__PURE__ */ new Set(["ambiguous"]) });
        enqueue.emit({ type: "alert", t, alert: deadDoubtAlert(context, v.worlds) });
        enqueue.emit({
          type: "fork",
          worlds: v.worlds,
          mask: [...context.readings.mask],
          t,
          frameT: context.readings.changedAt
        });
      }),
      emitSensorFault: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind === "suspect") enqueue.emit(sensorFault(context, v.square, v.reads, v.phantom));
      }),
      startWithFault: enqueueActions(({ context, enqueue }) => {
        const fault = setupFault(context);
        if (!fault) return;
        enqueue.assign(() => {
          context.readings.mask = /* @__PURE__ */ new Set([...context.readings.mask, fault.square]);
          return {};
        });
        enqueue.emit(sensorFault(context, fault.square, fault.reads));
      }),
      raiseOutOfSync: enqueueActions(({ context, enqueue }) => {
        if (context.raised.has("out_of_sync")) return;
        const t = context.now();
        const corrections = correctionsFor(context);
        enqueue.assign({ raised: /* @__PURE__ */ new Set([...context.raised, "out_of_sync"]) });
        enqueue.emit({
          type: "alert",
          t,
          alert: {
            kind: "out_of_sync",
            message: `the board does not match the game: ${corrections.map((c) => c.text).join("; ")}`,
            corrections
          }
        });
        enqueue.emit({ type: "state", state: "out_of_sync", t, detail: { corrections } });
      }),
      clearAll: enqueueActions(({ context, enqueue }) => {
        const t = context.now();
        for (const kind of context.raised) enqueue.emit({ type: "alertCleared", kind, t });
        enqueue.assign({ raised: /* @__PURE__ */ new Set(), doubted: false });
      }),
      resetEvidence: assign(({ context }) => freshEvidence(context, context.game.position, false)),
      emitGameStart: enqueueActions(
        ({ context, enqueue }) => enqueue.emit({ type: "gameStart", t: context.now() })
      ),
      emitSetup: enqueueActions(
        ({ context, enqueue }) => enqueue.emit(stateEvent(context, "setup", { corrections: correctionsFor(context) }))
      ),
      emitIdle: enqueueActions(
        ({ context, enqueue }) => enqueue.emit(stateEvent(context, "awaiting_move", {}))
      ),
      emitWaiting: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind !== "wait") return;
        if (v.candidates.length > 0) {
          const candidates = v.candidates.map((l) => l.map(makeIccs));
          enqueue.emit(stateEvent(context, "pending_capture", { candidates }));
        } else enqueue.emit(stateEvent(context, "piece_lifted", liftedDetail(context, v.lifted)));
      }),
      emitIllegal: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind !== "illegal") return;
        const t = context.now();
        enqueue.emit({ type: "alert", t, alert: illegalAlert(context, v.displacement) });
        enqueue.emit({ type: "state", state: "illegal", t, detail: {} });
      }),
      clearIllegal: enqueueActions(
        ({ context, enqueue }) => enqueue.emit({ type: "alertCleared", kind: "illegal_move", t: context.now() })
      ),
      emitTakebackRefused: enqueueActions(
        ({ context, enqueue }) => enqueue.emit({
          type: "alert",
          t: context.now(),
          alert: {
            kind: "takeback_forbidden",
            message: "takebacks are not allowed in this game: play the last move again"
          }
        })
      ),
      clearTakebackRefused: enqueueActions(
        ({ context, enqueue }) => enqueue.emit({ type: "alertCleared", kind: "takeback_forbidden", t: context.now() })
      ),
      emitGameOver: enqueueActions(({ context, enqueue }) => {
        const outcome = context.game.outcome;
        if (outcome) enqueue.emit({ type: "gameOver", ...outcome, t: context.now() });
        enqueue.emit(stateEvent(context, "game_over", {}));
      })
    }
  }).createMachine({
    id: "tracker",
    context: ({ input }) => ({
      options: { ...DEFAULT_TRACKER_OPTIONS, ...input.options },
      game: input.game,
      now: input.now,
      readings: new Readings(input.options.sensing, input.options.bounceMs, input.now()),
      pending: [],
      button: void 0,
      verdict: { kind: "unknown" },
      settled: false,
      revisable: false,
      landedAt: Number.NEGATIVE_INFINITY,
      unfitSince: void 0,
      replySince: void 0,
      raised: /* @__PURE__ */ new Set(),
      doubted: false,
      unreadButton: void 0,
      replyButton: void 0
    }),
    on: {
      options: { actions: "options" }
    },
    initial: "setup",
    states: {
      /** Waiting for the board to show the game's position (the start, a FEN, or a resumed game). */
      setup: {
        initial: "reading",
        on: {
          snapshot: {
            guard: "changed",
            target: ".reading",
            reenter: true,
            actions: ["unmaskAlert", "record"]
          },
          resume: { target: "#tracker.playing", actions: "resume" }
        },
        states: {
          reading: {
            after: {
              bounce: [
                {
                  guard: "boardIsTarget",
                  target: "#tracker.playing",
                  actions: ["resetEvidence", "emitGameStart"]
                },
                { target: "wrong", actions: "emitSetup" }
              ]
            }
          },
          // One square alone wrong for long enough: a dead sensor must not stop the game.
          wrong: {
            after: {
              setupFault: {
                guard: "oneSquareWrong",
                target: "#tracker.playing",
                actions: ["startWithFault", "resetEvidence", "emitGameStart"]
              }
            }
          }
        }
      },
      playing: {
        initial: "idle",
        // (An unchanged frame with no button waiting only notes the time: see `frameStage`.)
        tags: [NOTES_HEARTBEATS],
        on: {
          snapshot: [
            { guard: "changed", target: ".changing", reenter: true, actions: ["unmaskAlert", "record"] },
            // A heartbeat: the board is as we last read it, so a button before it can count.
            { guard: "buttonUnjudged", target: ".judging", reenter: true, actions: "heartbeat" },
            { actions: "heartbeat" }
          ]
        },
        states: {
          idle: {
            entry: "emitIdle",
            on: { button: { target: "judging", actions: "recordButton" } },
            after: { buttonGrace: "judging" }
          },
          changing: {
            // (A change is only recorded here: the stage in front of the machine records it, see
            // `frameStage`. `settled` is already false: the change that entered the state said so.)
            tags: [RECORDS_CHANGES],
            on: {
              button: { actions: "recordButton" },
              // Recorded without leaving the state: no timer cancelled and set again per frame.
              snapshot: { guard: "changed", actions: ["unmaskAlert", "record"] }
            },
            // The window from the latest change: a change within it waits out the rest.
            after: {
              bounceRest: [{ guard: "held", target: "changing", reenter: true }, { target: "judging" }]
            }
          },
          judging: {
            entry: "judge",
            always: [
              { guard: "isSuspect", target: "judging", reenter: true, actions: ["mask", "emitSensorFault"] },
              { guard: "isDoubt", target: "#tracker.forked", actions: ["clearAll", "emitFork"] },
              { guard: "commitNow", target: "committing" },
              { guard: "commitLater", target: "settling" },
              { guard: "isWait", target: "waiting" },
              { guard: "isIdle", target: "idle" },
              { guard: "isTakebackRefused", target: "takebackRefused" },
              { guard: "isIllegal", target: "illegalCandidate" },
              { target: "unmatched" }
            ]
          },
          settling: {
            // A button is evidence once a frame after it shows the board: the settle goes on.
            on: { button: { actions: "recordButton" } },
            after: { settleRest: { target: "judging", actions: "markSettled" } }
          },
          committing: {
            entry: "emitCommit",
            on: {
              // (The game the event brings decides where to: no step through a state of its own.)
              applied: [
                { guard: "rejected", target: "unmatched", actions: "applied" },
                { guard: "appliedCanPlayOn", target: "ended", actions: "applied" },
                { guard: "appliedOver", target: "#tracker.gameOver", actions: "applied" },
                { target: "judging", actions: "applied" }
              ]
            }
          },
          waiting: {
            entry: "emitWaiting",
            on: { button: { target: "judging", actions: "recordButton" } },
            after: { recheck: "judging" }
          },
          takebackRefused: { entry: "emitTakebackRefused", exit: "clearTakebackRefused" },
          illegalCandidate: { after: { settleRest: "illegal" } },
          illegal: {
            entry: "emitIllegal",
            exit: "clearIllegal",
            initial: "standing",
            states: {
              standing: {
                after: { foul: { guard: "tournament", target: "fouled", actions: "emitFoul" } }
              },
              fouled: {
                on: {
                  applied: [
                    { guard: "appliedOver", target: "#tracker.gameOver", actions: "applied" },
                    { actions: "applied" }
                  ]
                }
              }
            }
          },
          /** Ended by an ending the players may play past: the board is still read. */
          ended: { entry: "emitGameOver" },
          unmatched: {
            on: { button: { actions: "recordButton" } },
            after: {
              outOfSync: { target: "outOfSync" },
              recheck: "judging"
            }
          },
          outOfSync: {
            entry: "raiseOutOfSync",
            after: { recheck: "judging" }
          }
        }
      },
      gameOver: { entry: ["clearAll", "emitGameOver"] },
      /** Read on in the worlds of a dead sensor (the tracker's business): this actor is done. */
      forked: {}
    }
  });
}
var stateEvent = (context, state, detail) => ({
  type: "state",
  state,
  detail,
  t: context.now()
});
function syncAlerts(context, emit2) {
  const t = context.now();
  const v = context.verdict;
  let raised = context.raised;
  const raise2 = (kind) => {
    if (!raised.has(kind)) raised = /* @__PURE__ */ new Set([...raised, kind]);
  };
  const end = (kind) => {
    if (!raised.has(kind)) return false;
    raised = new Set([...raised].filter((k) => k !== kind));
    return true;
  };
  const fits = v.kind !== "unknown" && v.kind !== "suspect" && v.kind !== "doubt";
  if (fits && end("out_of_sync")) emit2({ type: "alertCleared", kind: "out_of_sync", t });
  const ambiguous = v.kind === "wait" && v.ambiguous;
  if (context.unreadButton !== void 0) {
    if (!context.doubted) {
      raise2("ambiguous");
      emit2({ type: "alert", t, alert: unreadButtonAlert(context.unreadButton) });
    }
    return { raised, doubted: true, unreadButton: void 0 };
  }
  if (v.kind === "commit" && v.knocked) {
    raise2("ambiguous");
    emit2({ type: "alert", t, alert: knockAlert(context, v.moves[0]) });
    return { raised, doubted: true };
  }
  if (v.kind === "commit" && v.blind !== void 0) {
    raise2("ambiguous");
    emit2({ type: "alert", t, alert: blindAlert(context, v.blind) });
    return { raised, doubted: true };
  }
  if (v.kind === "commit" && (v.rivals !== void 0 || v.unseen && raised.has("ambiguous"))) {
    raise2("ambiguous");
    emit2({ type: "alert", t, alert: doubtAlert(context, v.moves, v.rivals ?? []) });
    return { raised, doubted: true };
  }
  const settled = !context.doubted || v.kind === "commit" && v.moves.length > 0;
  let doubted = context.doubted;
  if (!ambiguous && v.kind !== "unknown" && settled && end("ambiguous")) {
    emit2({ type: "alertCleared", kind: "ambiguous", t });
    doubted = false;
  }
  if (ambiguous && !raised.has("ambiguous")) {
    raise2("ambiguous");
    emit2({
      type: "alert",
      t,
      alert: v.revised ? revisedAlert(context, v.revised) : ambiguousAlert(context, v.candidates)
    });
  }
  return { raised, doubted };
}
function evaluate(context) {
  const r = context.readings;
  const cells = r.cells;
  if (cells === void 0) return { verdict: { kind: "unknown" } };
  const now = context.now();
  const grace = context.options.buttonGraceMs;
  const shown = (b) => r.frameAt >= b.t || now >= b.t + grace;
  const fresh = context.button && shown(context.button);
  const button = fresh ? context.button.side : void 0;
  const judged = judge({
    base: context.game.position,
    previous: context.game.previous,
    revisable: context.revisable,
    landedAt: context.landedAt,
    takebacks: context.options.takebacks,
    pending: context.pending,
    // (A capture the last judgement held back in doubt of a knock.)
    held: context.verdict.kind === "wait" ? context.verdict.hold : void 0,
    observed: cells,
    covered: r.covered,
    sensing: context.options.sensing,
    mask: r.mask,
    evidence: {
      lifted: r.lifts.at(now, r.mask),
      firstLifted: r.lifts.firstAt(now, r.mask),
      buttonBy: button,
      changedAt: r.squareChangedAt,
      visited: r.lifts.visited(),
      history: r.lifts
    },
    now,
    settled: context.settled || now >= r.changedAt + context.options.settleMs,
    settleAt: r.changedAt + context.options.settleMs,
    timing: {
      strayMs: context.options.strayMs,
      maskAfterMs: context.options.maskAfterMs
    }
  });
  const verdict = judged.kind === "commit" && r.commitsSinceChange >= MAX_COMMITS_PER_BOARD ? { kind: "unknown" } : judged;
  const out = { verdict };
  const mover = context.game.position.turn;
  if (button === mover && (verdict.kind === "idle" || verdict.kind === "unknown" || verdict.kind === "wait" && verdict.candidates.length === 0))
    out.unreadButton = { side: mover, reply: false };
  const reply = context.replyButton;
  if (reply !== void 0 && shown(reply)) {
    out.replyButton = void 0;
    if (verdict.kind === "wait" && !verdict.candidates.some((l) => l.length >= 2)) {
      const sides = new Set(verdict.lifted.map((s) => context.game.position.colorAt(s)));
      if (sides.has(1) && sides.has(2)) out.unreadButton = { side: reply.side, reply: true };
    }
  }
  const fits = verdict.kind !== "unknown" && verdict.kind !== "suspect" && verdict.kind !== "doubt";
  out.unfitSince = fits ? void 0 : context.unfitSince ?? now;
  if (verdict.kind === "wait") {
    out.pending = verdict.keep;
    const unshown = [context.button, reply].filter((b) => b !== void 0 && !shown(b));
    if (unshown.length > 0) {
      const at = Math.min(...unshown.map((b) => b.t)) + grace;
      out.verdict = { ...verdict, recheckAt: Math.min(verdict.recheckAt ?? at, at) };
    }
    const v = out.verdict;
    const replied = verdict.candidates.length > 1 && verdict.candidates.some((l) => l.length > 1) || verdict.revised !== void 0;
    out.replySince = replied ? context.replySince ?? now : void 0;
    const since = out.replySince;
    if (button === mover && verdict.candidates.length > 1) out.verdict = { ...v, ambiguous: true };
    else if (since !== void 0 && now - since >= context.options.unseenReplyMs)
      out.verdict = { ...v, ambiguous: true };
    else if (since !== void 0) {
      const at = since + context.options.unseenReplyMs;
      out.verdict = { ...v, recheckAt: Math.min(v.recheckAt ?? at, at) };
    }
  } else out.replySince = void 0;
  if (verdict.kind === "idle") {
    const waitingButton = !fresh && context.button?.side === mover ? context.button : void 0;
    return {
      ...out,
      ...freshEvidence(
        context,
        context.game.position,
        context.revisable && !moverLifted(context.game.position, r.lifts.at(context.now(), r.mask), void 0, context.landedAt)
      ),
      button: waitingButton
    };
  }
  return out;
}
function landingSeen(context) {
  const v = context.verdict;
  const last = v.kind === "commit" ? v.moves.at(-1) : void 0;
  if (!last) return Number.NEGATIVE_INFINITY;
  const r = context.readings;
  const left = r.lifts.firstAt(context.now(), r.mask).get(last.from);
  const moves = v.kind === "commit" ? v.moves : [];
  const before = positionAfter(context, moves.slice(0, -1));
  if (left !== void 0 && before.colorAt(last.to) !== 0) {
    const reads = r.cells?.[last.to];
    const mover = before.colorAt(last.from) === 1 ? "r" : "b";
    const shows = reads === "x" || reads === mover;
    const changed2 = r.squareChangedAt[last.to] ?? Number.NEGATIVE_INFINITY;
    return shows && changed2 > left ? changed2 : left + MIN_CARRY_MS;
  }
  const spell = left === void 0 ? void 0 : r.lifts.spells(last.to).find((sp) => sp.from > left);
  if (spell !== void 0) return spell.from;
  const changed = r.squareChangedAt[last.to];
  return left !== void 0 && changed !== void 0 && changed > left ? changed : Number.NEGATIVE_INFINITY;
}
function freshEvidence(context, pos, revisable) {
  const cells = context.readings.cellsOf(pos);
  const side = pos.turnCode;
  context.readings.lifts.reset(cells, (s) => pos.colorAt(s) === side);
  return {
    button: void 0,
    replyButton: void 0,
    pending: [],
    settled: false,
    revisable,
    unfitSince: void 0,
    replySince: void 0
  };
}
function confirmedCells(context) {
  return context.readings.cellsOf(context.game.position);
}
function boardMatches(context) {
  const { cells, mask } = context.readings;
  if (cells === void 0) return false;
  const expected = confirmedCells(context);
  if (mask.size === 0) return cells === expected;
  for (let s = 0; s < 90; s++) if (!mask.has(s) && cells[s] !== expected[s]) return false;
  return true;
}
function setupFault(context) {
  const { cells, mask } = context.readings;
  if (cells === void 0) return void 0;
  const expected = confirmedCells(context);
  let wrong;
  for (let s = 0; s < 90; s++) {
    if (mask.has(s) || cells[s] === expected[s]) continue;
    if (wrong !== void 0) return void 0;
    wrong = s;
  }
  if (wrong === void 0) return void 0;
  const since = context.readings.squareChangedAt[wrong] ?? 0;
  if (context.now() - since < context.options.setupFaultMs) return void 0;
  return { square: wrong, reads: cells[wrong] === "." ? "empty" : "occupied" };
}
function sensorFault(context, square, reads, phantom) {
  return {
    type: "alert",
    t: context.now(),
    alert: sensorFaultAlert(context.options.sensing, context.game.position, square, reads, phantom)
  };
}
function sensorFaultAlert(sensing, position, square, reads, phantom) {
  const name2 = sq(square);
  const message = phantom ? `${name2} reads a piece the game does not have there: take off any piece standing on ${name2}; if there is none, its sensor is faulty and should be repaired; moves are read from the other squares` : void 0;
  const wrongColour = reads === "occupied" && sensing === "colour" && position.colorAt(square) !== 0;
  const what = wrongColour ? "the wrong colour" : `${reads} (it should read ${reads === "empty" ? "occupied" : "empty"})`;
  return {
    kind: "sensor_fault",
    square: name2,
    reads,
    message: message ?? `the sensor on ${name2} always reads ${what}: check the piece there stands in the middle of its point, or have the sensor repaired; moves are read from the other squares`
  };
}
function deadDoubtAlert(context, worlds) {
  const pos = context.game.position;
  const each = worlds.map((w) => {
    const first = w.moves[0];
    const last = context.game.previous?.move;
    const what = w.retract ? `the last move${last ? ` ${makeIccs(last)}` : ""} taken back` : first ? `${makeIccs(first)}${w.moves.length > 1 ? ` (then ${w.moves.slice(1).map(makeIccs).join(" ")})` : ""}` : "no move";
    return `${what} if the sensor of ${sq(w.square)} always reads ${w.reads}`;
  });
  return {
    kind: "ambiguous",
    side: pos.turn,
    message: `one sensor reads wrong, and the board cannot tell which yet: ${each.join("; ")}. Play goes on; the moves are recorded once play shows which. To tell at once, lift each piece standing on those points and set it back: the point that does not notice has the faulty sensor`,
    candidates: worlds.map((w) => w.moves.map(makeIccs)),
    check: [...new Set(worlds.map((w) => sq(w.square)))]
  };
}
function ambiguousAlert(context, candidates) {
  const pos = context.game.position;
  const firsts = [...new Set(candidates.map((l) => makeIccs(l[0])))];
  const from = candidates[0]?.[0]?.from;
  const piece = from !== void 0 ? pos.pieceAt(from) : void 0;
  const what = piece ? `the ${piece.color} ${ROLE_NAMES[piece.role]} from ${sq(from)}` : "the last piece moved";
  return {
    kind: "ambiguous",
    side: pos.turn,
    message: `cannot tell what ${what} did (${firsts.join(" or ")}, or it is still in the hand): take the moves since back and play the capture again, lifting the captured piece off first`,
    candidates: candidates.map((l) => l.map(makeIccs))
  };
}
function revisedAlert(context, lines) {
  const last = context.game.previous?.move;
  const ways = lines.map((l) => l.length === 0 ? "taken back" : `changed to ${l.map(makeIccs).join(" ")}`);
  return {
    kind: "ambiguous",
    side: context.game.position.turn,
    message: `the last move${last ? ` ${makeIccs(last)}` : ""} may have been ${ways.join(" or ")}, or a piece is still in the hand: set every piece in the hand down in the middle of its point, and the record follows the board`,
    candidates: lines.filter((l) => l.length > 0).map((l) => l.map(makeIccs))
  };
}
function doubtAlert(context, moves, rivals) {
  const line = (l) => l.map(makeIccs).join(" ");
  const instead = rivals.length > 0 ? `it may have been ${rivals.map(line).join(" or ")}` : "its capture was never seen land";
  return {
    kind: "ambiguous",
    side: context.game.position.turn,
    message: `recorded ${line(moves)}, but ${instead}: if it was another move, take the moves since back and play them again, lifting a captured piece off first`,
    candidates: [moves, ...rivals].map((l) => l.map(makeIccs))
  };
}
function unreadButtonAlert({ side, reply }) {
  const other = opposite(side);
  return {
    kind: "ambiguous",
    side,
    message: reply ? `${side} pressed the clock, but neither ${other}'s move nor ${side}'s reply was seen complete: lift each piece that moved and set it down again in the middle of its point (its sensor may not read it)` : `${side} pressed the clock, but no move of ${side}'s was seen complete: lift the piece that moved and set it down again in the middle of its point (its sensor may not read it); if nothing moved, make the move`
  };
}
function blindAlert(context, moves) {
  const pieces = moves.map((m, k) => {
    const piece = positionAfter(context, moves.slice(0, k)).pieceAt(m.from);
    return piece ? `the ${piece.color} ${ROLE_NAMES[piece.role]} from ${sq(m.from)}` : `the piece from ${sq(m.from)}`;
  });
  return {
    kind: "ambiguous",
    side: context.game.position.turn,
    message: `recorded ${moves.map(makeIccs).join(", ")}, a capture nobody saw: nothing was seen taken off ${moves.map((m) => sq(m.to)).join(", ")}. If ${pieces.join(" or ")} went to another point instead, that point's sensor may not read it: take the moves since back and play them again, lifting the captured piece off first`,
    candidates: [moves.map(makeIccs)]
  };
}
function knockAlert(context, move) {
  const from = sq(move.from);
  const to = sq(move.to);
  return {
    kind: "ambiguous",
    side: context.game.position.turn,
    message: `recorded ${makeIccs(move)}, but the piece on ${to} may only have been knocked and put back: if the piece from ${from} is still in the hand, set it down where it goes and the record follows`,
    candidates: [[makeIccs(move)]]
  };
}
function liftedDetail(context, lifted) {
  const pos = context.game.position;
  const side = pos.turnCode;
  const own = lifted.filter((s) => pos.colorAt(s) === side);
  const targets = own.length === 1 ? pos.legalDestinations(own[0]).map(sq) : [];
  return { lifted: lifted.map(sq), targets };
}
function correctionsFor(context) {
  const expected = confirmedCells(context);
  const { mask } = context.readings;
  let observed = context.readings.cells ?? ".".repeat(90);
  if (mask.size > 0) {
    observed = [...observed].map((c, s) => mask.has(s) ? expected[s] : c).join("");
  }
  return pairCorrections(expected, observed);
}
function positionAfter(context, moves) {
  const pos = context.game.position.clone();
  for (const m of moves) pos.play(m);
  return pos;
}
function illegalSide(context, d) {
  const pos = positionAfter(context, d.after);
  const c = pos.colorAt(d.from);
  return c === 1 ? "red" : c === 2 ? "black" : pos.turn;
}
function illegalAlert(context, d) {
  const pos = positionAfter(context, d.after);
  const why = explainIllegal(pos, { from: d.from, to: d.to }) ?? {
    code: "illegal",
    message: "the move is not legal"
  };
  const side = illegalSide(context, d);
  return {
    kind: "illegal_move",
    reason: why.code,
    message: why.message,
    from: sq(d.from),
    to: sq(d.to),
    side,
    legalTargets: side === pos.turn ? pos.legalDestinations(d.from).map(sq) : []
  };
}

// src/util/listeners.ts
var Listeners = class {
  set = /* @__PURE__ */ new Set();
  /** Returns the unsubscribe function. */
  add(listener) {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }
  emit(event) {
    for (const listener of this.set) listener(event);
  }
};

// src/tracker/clock.ts
function xstateClock(clock) {
  return {
    setTimeout: (fn, ms) => clock.setTimer(fn, ms),
    clearTimeout: (cancel2) => cancel2()
  };
}

// src/tracker/frames.ts
function takeFrame(stage, readings, confirmed, t, cells, now) {
  if (cells === readings.cells) {
    if (!stage.notesHeartbeats) return false;
    readings.heartbeat(t);
    return true;
  }
  if (!stage.recordsChanges || readings.unmasks(cells)) return false;
  readings.record(t, cells, now, readings.cellsOf(confirmed));
  return true;
}

// src/tracker/game-port.ts
var TrackedGame = class {
  constructor(game, record) {
    this.game = game;
    this.record = record;
    this.current = game.position;
    this.before = this.game.positionAfter(game.moves.length - 1);
  }
  game;
  record;
  current;
  before;
  /** The side whose general is in check, while the check alert stands. */
  checked;
  /** The session's veto on a move the game would take (play against the engine): why, or undefined. */
  refuse;
  view() {
    const last = this.game.moves.at(-1);
    const o = this.game.outcome;
    return {
      position: this.current,
      previous: this.before && last ? { position: this.before, move: last.move } : void 0,
      plies: this.game.moves.length,
      over: this.game.isOver,
      canPlayOn: this.game.canPlayOn,
      outcome: o ? { result: o.result, reason: o.reason, ...o.detail ? { detail: o.detail } : {} } : void 0
    };
  }
  /**
   * Carries out a commit: the public events it makes, and whether the game refused a move. A write
   * the record refused undoes its step: with nothing done, `retryMs` asks for the same commit again
   * later (the machine is not answered meanwhile); after some steps, the machine is answered with
   * what was recorded and judges the board again from there.
   */
  commit(c) {
    const events = [];
    const { t } = c;
    let progressed = false;
    const refused = (retryMs) => progressed ? { events } : { events, retryMs };
    if (c.revision) {
      const ply = this.game.moves.length;
      const last = this.game.moves.at(-1);
      if (!this.undoLast(t)) {
        return {
          events: [
            { type: "alert", t, alert: { kind: "move_rejected", message: "the game refused the takeback" } }
          ],
          rejected: "takeback refused"
        };
      }
      const written = this.record?.retract(ply, t);
      if (written && !written.ok) {
        this.replay(last, t);
        return refused(written.retryMs);
      }
      events.push({ type: "retract", ply, t });
      progressed = true;
    }
    for (const move of c.moves) {
      const ended = this.game.outcome;
      const offer = this.game.pendingDrawOffer;
      const before = this.current;
      const veto = this.refuse?.(this.game, move);
      const played = veto ? { ok: false, error: { message: veto } } : this.game.play(move, this.gameTime(t));
      if (!played.ok) {
        events.push({ type: "alert", t, alert: { kind: "move_rejected", message: played.error.message } });
        this.checkAlert(events, t);
        return { events, rejected: played.error.message };
      }
      const written = this.record?.move(played.value, t);
      if (written && !written.ok) {
        this.game.undoLast(this.gameTime(t));
        if (offer && !this.game.pendingDrawOffer) this.game.offerDraw(offer, this.gameTime(t));
        this.checkAlert(events, t);
        return refused(written.retryMs);
      }
      this.before = before;
      this.current = this.game.position;
      if (ended) {
        events.push({
          type: "alert",
          t,
          alert: {
            kind: "play_on",
            message: `play goes on past the ${ended.reason.replace(/_/g, " ")} (${ended.result})`
          }
        });
      }
      events.push({
        type: "move",
        ply: this.game.moves.length,
        move,
        iccs: makeIccs(move),
        t,
        frameT: c.frameT
      });
      progressed = true;
      if (this.game.isOver && !this.game.canPlayOn) break;
    }
    this.checkAlert(events, t);
    return { events };
  }
  /** A check is announced once, and ended when the side is out of it (or the game is over). */
  checkAlert(events, t) {
    const inCheck = !this.game.isOver && this.current.isCheck() ? this.current.turn : void 0;
    if (this.checked !== void 0 && this.checked !== inCheck) {
      events.push({ type: "alertCleared", kind: "check", t });
      this.checked = void 0;
    }
    if (inCheck !== void 0 && this.checked === void 0) {
      events.push({
        type: "alert",
        t,
        alert: { kind: "check", side: inCheck, message: `${inCheck} is in check` }
      });
      this.checked = inCheck;
    }
  }
  foul(color, t) {
    this.game.reportIllegal(
      { color, kind: "illegal_move", uncorrectedMs: Number.POSITIVE_INFINITY },
      this.gameTime(t)
    );
  }
  /** A move taken back in the game whose takeback could not be recorded, played again. */
  replay(last, t) {
    if (!this.game.play(last.move, this.gameTime(t)).ok) return;
    this.current = this.game.position;
    this.before = this.game.positionAfter(this.game.moves.length - 1);
  }
  undoLast(t) {
    if (!this.game.undoLast(this.gameTime(t)).ok) return false;
    this.current = this.game.position;
    this.before = this.game.positionAfter(this.game.moves.length - 1);
    return true;
  }
  /** The board's clock may start behind a resumed game's last move: game time never goes back. */
  gameTime(t) {
    return Math.max(t, this.game.moves.at(-1)?.t ?? t);
  }
};

// src/tracker/tracker.ts
var machine = createTrackerMachine();
var PUBLIC = ["alert", "alertCleared", "state", "gameStart", "gameOver"];
var BROKEN = /* @__PURE__ */ new Set(["out_of_sync", "sensor_fault", "move_rejected", "takeback_forbidden"]);
var ILLEGAL_BREAKS_MS = 4e3;
var DOUBT_MAX_MS = 12e4;
var Tracker = class _Tracker {
  constructor(game, options, clock, record) {
    this.game = game;
    this.options = options;
    this.clock = clock;
    this.port = new TrackedGame(game, record);
  }
  game;
  options;
  clock;
  port;
  actor;
  listeners = new Listeners();
  stateListeners = new Listeners();
  cancelRetry;
  /** What the machine does with a frame, worked out once per machine snapshot (see frames.ts). */
  stage;
  stagedFor;
  /** Machine events being handed out: a frame sent meanwhile waits its turn in the machine. */
  delivering = 0;
  /** The latest frame (its time and cells): a machine started in mid-game reads the board from it. */
  lastFrameT = 0;
  lastCells;
  /** A doubt over which sensor is dead: the worlds read on, this tracker's machine waits. */
  doubt;
  /** A world's tracker: a doubt of its own breaks its story (one dead sensor at a time). */
  onFork;
  start() {
    this.launch(void 0);
  }
  /** Starts the machine: in setup, or (`resume`) in play with these sensors dead, from the latest frame. */
  launch(resume) {
    const actor = createActor(machine, {
      input: { options: this.options, game: this.port.view(), now: () => this.clock.now() },
      clock: xstateClock(this.clock)
    });
    for (const type of PUBLIC)
      actor.on(type, (e) => this.deliver(() => this.listeners.emit(e)));
    const commit = (c) => {
      this.cancelRetry?.();
      this.cancelRetry = void 0;
      const done = this.port.commit(c);
      this.announce(done.events);
      if (done.retryMs !== void 0) {
        this.cancelRetry = this.clock.setTimer(() => {
          const again = { ...c, t: Math.max(c.t, this.clock.now()) };
          if (this.actor === actor && actor.getSnapshot().matches({ playing: "committing" })) commit(again);
        }, done.retryMs);
        return;
      }
      actor.send({ type: "applied", game: this.port.view(), rejected: done.rejected });
    };
    actor.on("commit", commit);
    actor.on("foul", (f) => {
      this.port.foul(f.side, f.t);
      actor.send({ type: "applied", game: this.port.view() });
    });
    actor.on("fork", (f) => this.fork(f));
    actor.subscribe((s) => this.deliver(() => this.stateListeners.emit(s.value)));
    actor.start();
    this.actor = actor;
    if (resume) {
      actor.send({ type: "resume", mask: resume.mask });
      if (this.lastCells !== void 0)
        actor.send({ type: "snapshot", t: this.lastFrameT, cells: this.lastCells });
    }
  }
  stop() {
    this.cancelRetry?.();
    this.actor?.stop();
    this.actor = void 0;
    this.endDoubt();
  }
  /**
   * The machine cannot tell which of several sensors is dead: read on in a world for each (its
   * square masked, its line played) until one is left, then record what that world read.
   */
  fork(f) {
    if (this.onFork) {
      this.onFork();
      return;
    }
    const worlds = [];
    globalThis.__fork?.(f.t, f.worlds.map((w) => w.square), f.worlds);
    this.doubt = { fork: f, worlds, timers: [] };
    for (const w of f.worlds) {
      const copy = Game.fromRecord(
        { fen: this.port.game.startFen, moves: this.port.game.moves },
        { playOn: true }
      );
      if (!copy.ok) continue;
      const game = copy.value;
      if (w.retract && !game.undoLast(f.t).ok) continue;
      if (!w.moves.every((m) => game.play(m, f.t).ok)) continue;
      const tracker = new _Tracker(game, this.options, this.clock);
      const world = {
        square: w.square,
        reads: w.reads,
        moves: w.moves,
        retract: w.retract === true,
        tracker,
        plies: game.moves.length,
        recorded: [],
        broken: false,
        idle: false,
        illegalAt: void 0,
        written: 0
      };
      tracker.lastFrameT = this.lastFrameT;
      tracker.lastCells = this.lastCells;
      tracker.onFork = () => this.worldEvent(world, void 0);
      tracker.subscribe((e) => this.worldEvent(world, e));
      worlds.push(world);
    }
    for (const w of worlds) w.tracker.launch({ mask: [...f.mask, w.square] });
    this.later(() => this.resolve(), 1);
  }
  /** What a world's reading says of its story (`undefined`: it forked itself). */
  worldEvent(world, e) {
    if (world.broken) return;
    if (e === void 0 || e.type === "alert" && BROKEN.has(e.alert.kind) || e.type === "alertCleared" && e.kind === "sensor_fault" || e.type === "retract" && e.ply <= world.plies)
      world.broken = true;
    else if (e.type === "move" || e.type === "retract") {
      world.recorded.push(e);
      world.idle = false;
    } else if (e.type === "state") world.idle = e.state === "awaiting_move";
    else if (e.type === "alert" && e.alert.kind === "illegal_move") {
      world.illegalAt = e.t;
      this.later(() => this.resolve(), ILLEGAL_BREAKS_MS);
    } else if (e.type === "alertCleared" && e.kind === "illegal_move") world.illegalAt = void 0;
    if (world.broken || world.idle) this.later(() => this.resolve(), 1);
  }
  /** Runs `fn` in `ms` if the doubt still stands (outside any world's machine step). */
  later(fn, ms) {
    const doubt = this.doubt;
    if (!doubt) return;
    const cancel2 = this.clock.setTimer(() => {
      const k = doubt.timers.indexOf(cancel2);
      if (k >= 0) doubt.timers.splice(k, 1);
      if (this.doubt === doubt) fn();
    }, ms);
    doubt.timers.push(cancel2);
  }
  /** One world left and at rest: its reading is the game's. None left: read the board afresh. */
  resolve() {
    const doubt = this.doubt;
    if (!doubt) return;
    const now = this.clock.now();
    for (const w of doubt.worlds)
      if (w.illegalAt !== void 0 && now - w.illegalAt >= ILLEGAL_BREAKS_MS) w.broken = true;
    const open = doubt.worlds.filter((w) => !w.broken);
    globalThis.__doubt?.(now, doubt.fork.t, open.map((w) => w.square));
    const expired = now - doubt.fork.t >= DOUBT_MAX_MS;
    if (open.length > 1 && !expired) return;
    if (open.length > 0 && !open[0].idle) {
      this.later(() => this.resolve(), 50);
      return;
    }
    const world = open.length === 1 ? open[0] : void 0;
    const { fork } = doubt;
    const events = [];
    if (world) {
      const steps = [
        ...world.retract ? [{ moves: [], revision: true, t: fork.t, frameT: fork.frameT }] : [],
        ...world.moves.map((m) => ({ moves: [m], revision: false, t: fork.t, frameT: fork.frameT })),
        ...world.recorded.map(
          (e) => e.type === "move" ? { moves: [e.move], revision: false, t: e.t, frameT: e.frameT } : { moves: [], revision: true, t: e.t, frameT: e.t }
        )
      ];
      for (; world.written < steps.length; world.written++) {
        const done = this.port.commit({ type: "commit", ...steps[world.written] });
        events.push(...done.events);
        if (done.retryMs !== void 0) {
          this.announce(events);
          this.later(() => this.resolve(), done.retryMs);
          return;
        }
        if (done.rejected !== void 0) break;
      }
    }
    this.endDoubt();
    this.actor?.stop();
    events.push({ type: "alertCleared", kind: "ambiguous", t: this.clock.now() });
    let mask = fork.mask;
    if (world) {
      mask = [...mask, world.square];
      events.push({
        type: "alert",
        t: this.clock.now(),
        alert: sensorFaultAlert(
          this.options.sensing,
          this.port.game.position,
          world.square,
          world.reads,
          world.reads === "occupied" && world.moves.length === 0
        )
      });
    }
    this.announce(events);
    this.launch({ mask });
  }
  /** Hands the game's own events (moves, takebacks, alerts) to the listeners. */
  announce(events) {
    this.deliver(() => {
      for (const e of events) this.listeners.emit(e);
    });
  }
  endDoubt() {
    const doubt = this.doubt;
    if (!doubt) return;
    this.doubt = void 0;
    for (const cancel2 of doubt.timers) cancel2();
    for (const w of doubt.worlds) w.tracker.stop();
  }
  subscribe(listener) {
    return this.listeners.add(listener);
  }
  /** Every state value the machine passes through (for tests of its coverage). */
  subscribeStates(listener) {
    return this.stateListeners.add(listener);
  }
  /** Changes the rules of reading while a game is under way (takebacks, the foul policy). */
  setOptions(options) {
    this.options = { ...this.options, ...options };
    this.actor?.send({ type: "options", options });
    for (const w of this.doubt?.worlds ?? []) w.tracker.setOptions(options);
  }
  /**
   * Feeds one sensor event (link events are the controller's business); ignored once stopped. A
   * frame the machine would only record is recorded by the stage in front of it (frames.ts).
   */
  send(event) {
    const actor = this.actor;
    if (!actor) return;
    const changed = event.type === "snapshot" && event.cells !== this.lastCells;
    if (event.type === "snapshot") {
      this.lastFrameT = event.t;
      this.lastCells = event.cells;
    }
    if (this.doubt) {
      for (const w of this.doubt.worlds) {
        if (w.broken) continue;
        if (changed) w.idle = false;
        w.tracker.send(event);
      }
      return;
    }
    if (event.type === "snapshot") {
      if (this.delivering === 0) {
        const s = actor.getSnapshot();
        if (s !== this.stagedFor) {
          this.stage = frameStage(s);
          this.stagedFor = s;
        }
        const { readings, game } = s.context;
        if (takeFrame(this.stage, readings, game.position, event.t, event.cells, this.clock.now())) return;
      }
      actor.send({ type: "snapshot", t: event.t, cells: event.cells });
    } else if (event.type === "button") actor.send({ type: "button", t: event.t, side: event.side });
  }
  /** Hands machine events out to listeners (who may send frames meanwhile: they wait their turn). */
  deliver(emit2) {
    this.delivering++;
    try {
      emit2();
    } finally {
      this.delivering--;
    }
  }
  /** The machine's state value, for tests and status pages. */
  get state() {
    return this.actor?.getSnapshot().value;
  }
};

// src/tracker/run.ts
function runSensorEvents(start, events, options) {
  const started = Game.start(start, { playOn: true, ...options.game });
  if (!started.ok) return err({ code: "bad_position", message: started.error.message });
  const game = started.value;
  const trackerOptions = {
    ...DEFAULT_TRACKER_OPTIONS,
    ...options.tracker,
    sensing: options.sensing
  };
  const clock = new ManualClock(0);
  const tracker = new Tracker(game, trackerOptions, clock);
  const emitted = [];
  tracker.subscribe((e) => {
    emitted.push(e);
    options.onEvent?.(e, tracker);
  });
  tracker.start();
  for (const event of events) {
    if (event.t > clock.now()) clock.advance(event.t - clock.now());
    tracker.send(event);
  }
  clock.advance(
    Math.max(trackerOptions.outOfSyncMs, trackerOptions.settleMs, trackerOptions.foulAfterMs) + 1e3
  );
  tracker.stop();
  return ok({ game, emitted });
}

// src/simulation/classify.ts
var EPISODE_MIN_MS = 1e3;
var ALERT_WITHIN_MS = 2500;
var DEAD_NAMED_WITHIN_PLIES = 10;
var NOT_COVERING = /* @__PURE__ */ new Set(["check", "play_on"]);
var isPrefix = (a, b) => a.length <= b.length && a.every((m, i) => b[i] === m);
var same = (a, b) => a.length === b.length && isPrefix(a, b);
var divergent = (reader, game, shown = game) => !isPrefix(reader, game) || shown.length - reader.length >= 2;
function apply(record, kind, ply, iccs) {
  record.length = Math.min(record.length, ply - 1);
  if (kind === "move") record.push(iccs ?? "?");
}
function classify(input) {
  const truth = [...input.truth].sort((a, b) => a.t - b.t);
  const shownTruth = input.truth.map((e) => e.kind === "move" && e.seen !== void 0 ? { ...e, t: e.seen } : e).sort((a, b) => a.t - b.t);
  const recorded = input.emitted.filter(
    (e) => (e.type === "move" || e.type === "retract") && e.ply !== void 0
  );
  const times = [
    .../* @__PURE__ */ new Set([...truth.map((e) => e.t), ...shownTruth.map((e) => e.t), ...recorded.map((e) => e.t)])
  ].sort((a, b) => a - b);
  const horizon = Math.max(input.end, times.at(-1) ?? 0);
  const reader = [];
  const game = [];
  const shown = [];
  const spans = [];
  let gi = 0;
  let si = 0;
  let ri = 0;
  for (const t of times) {
    for (; gi < truth.length && truth[gi].t === t; gi++) {
      const e = truth[gi];
      apply(game, e.kind, e.ply, e.kind === "move" ? e.iccs : void 0);
    }
    for (; si < shownTruth.length && shownTruth[si].t === t; si++) {
      const e = shownTruth[si];
      apply(shown, e.kind, e.ply, e.kind === "move" ? e.iccs : void 0);
    }
    for (; ri < recorded.length && recorded[ri].t <= t; ri++) {
      const e = recorded[ri];
      apply(reader, e.type, e.ply, e.iccs);
    }
    spans.push({
      t,
      divergent: divergent(reader, game, shown),
      differs: !same(reader, game),
      reader: [...reader],
      game: [...game]
    });
  }
  const raw = [];
  for (let i = 0; i < spans.length; i++) {
    if (!spans[i].divergent) continue;
    let j = i;
    while (j + 1 < spans.length && spans[j + 1].divergent) j++;
    const end = j + 1 < spans.length ? spans[j + 1].t : void 0;
    if (end === void 0 || end - spans[i].t >= EPISODE_MIN_MS)
      raw.push({ start: spans[i].t, end, at: spans[i] });
    i = j;
  }
  if (!same(reader, game) && (raw.length === 0 || raw.at(-1).end !== void 0)) {
    let i = spans.length - 1;
    while (i > 0 && spans[i - 1].differs) i--;
    if (spans[i]) raw.push({ start: spans[i].t, end: void 0, at: spans[i] });
  }
  const episodes = raw.map(({ start, end, at }) => {
    let ply = 0;
    while (ply < at.reader.length && at.reader[ply] === at.game[ply]) ply++;
    return {
      start,
      end,
      ply: ply + 1,
      reader: at.reader.slice(ply),
      game: at.game.slice(ply),
      alert: coveringAlert(input.emitted, start)
    };
  });
  const kind = episodes.length === 0 && same(reader, game) ? "exact" : episodes.every((e) => e.alert !== void 0) ? "alerted" : "silent";
  const result = { kind, episodes, reader, game };
  if (!input.dead) return result;
  return { ...result, ...deadNaming(input, truth, horizon) };
}
function coveringAlert(emitted, start) {
  const standing = /* @__PURE__ */ new Map();
  for (const e of emitted) {
    if (e.t > start) break;
    if (e.type === "alert" && e.alert && !NOT_COVERING.has(e.alert.kind)) standing.set(e.alert.kind, e.t);
    else if (e.type === "alertCleared" && e.kind !== void 0) standing.delete(e.kind);
  }
  for (const [kind, t] of standing) if (t < start) return { kind, t };
  const late = emitted.find(
    (e) => e.type === "alert" && e.alert && !NOT_COVERING.has(e.alert.kind) && e.t >= start && e.t <= start + ALERT_WITHIN_MS
  );
  return late ? { kind: late.alert.kind, t: late.t } : void 0;
}
function deadNaming(input, truth, horizon) {
  const dead = input.dead;
  const named = input.emitted.find(
    (e) => e.type === "alert" && e.alert?.kind === "sensor_fault" && e.alert.square === dead.iccs && e.t >= dead.fromT
  );
  const out = named ? { deadNamedAt: named.t } : {};
  if (dead.firstUsePly === void 0) return out;
  const limitPly = dead.firstUsePly + DEAD_NAMED_WITHIN_PLIES;
  const deadline = truth.find((e) => e.kind === "move" && e.ply === limitPly)?.t ?? horizon + ALERT_WITHIN_MS;
  return { ...out, deadNamed: named !== void 0 && named.t <= deadline };
}

// src/simulation/random.ts
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = a + 1831565813 | 0;
    let t = Math.imul(a ^ a >>> 15, 1 | a);
    t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t;
    return ((t ^ t >>> 14) >>> 0) / 4294967296;
  };
}

// src/simulation/real-play.ts
var REAL_OFF = {
  fastPace: 0,
  fastReply: 0,
  hesitate: 0,
  dead: void 0,
  lostFrames: 0,
  knock: 0,
  lateRemoval: 0,
  lowerReads: false,
  nudge: 0,
  straighten: 0,
  answers: []
};
var REAL_SPEC = {
  fastPace: 1,
  fastReply: 1,
  hesitate: 1,
  lostFrames: 0.02,
  knock: 0.05,
  lateRemoval: 1,
  lowerReads: false,
  nudge: 0.3,
  straighten: 0.15
};
var newRealCounts = () => ({
  fast_pace: 0,
  fast_reply: 0,
  hesitate: 0,
  lost_frame: 0,
  heartbeat: 0,
  knock: 0,
  late_removal: 0,
  nudge: 0,
  straighten: 0,
  answer: 0
});
var Board = class {
  constructor(sensing, link) {
    this.sensing = sensing;
    this.link = link;
    this.nextBeat = link && link.heartbeatMs > 0 ? link.heartbeatMs : Number.POSITIVE_INFINITY;
  }
  sensing;
  link;
  pieces = new Array(90).fill(void 0);
  /** Captured pieces still under their capturer (rule 15). */
  under = /* @__PURE__ */ new Map();
  /** The sensor under a stack reads the lower piece (else the capturer on top). */
  lowerReads = false;
  events = [];
  /** When the sensors' reading changed (lost frames too) or a button was pressed: evidence. */
  changes = [];
  t = 0;
  last;
  dead;
  nextBeat;
  due = [];
  cellOf(piece) {
    if (!piece) return ".";
    if (this.sensing === "occupancy") return "x";
    return piece.color === "red" ? "r" : "b";
  }
  /** What the sensor under `sq` reads when nothing transient happens. */
  reading(sq2) {
    return this.cellOf((this.lowerReads ? this.under.get(sq2) : void 0) ?? this.pieces[sq2]);
  }
  cells(override) {
    let s = "";
    for (let sq2 = 0; sq2 < 90; sq2++) s += override?.get(sq2) ?? this.reading(sq2);
    if (!this.dead) return s;
    const d = this.dead.square;
    return s.slice(0, d) + this.dead.cell + s.slice(d + 1);
  }
  kill(dead) {
    const cell = dead.reads === "empty" ? "." : this.sensing === "occupancy" ? "x" : this.cellOf(this.pieces[dead.square]) === "b" ? "b" : "r";
    this.dead = { square: dead.square, cell };
  }
  /** Reports the current reading (with transient overrides) at time `t`, if it changed. */
  frame(t, override) {
    if (t < this.t) throw new Error(`time went back: ${t} < ${this.t}`);
    this.advance(t);
    this.t = t;
    const cells = this.cells(override);
    if (cells === this.last) return;
    this.send(t, cells);
  }
  /** Lets time run to `t` (heartbeats, what is due) before the board changes at `t`. */
  at(t) {
    if (t < this.t) throw new Error(`time went back: ${t} < ${this.t}`);
    this.advance(t);
    this.t = t;
  }
  /** Sets (or clears) the piece on `sq` at time `t` and reports the reading. */
  put(sq2, piece, t) {
    this.at(t);
    this.pieces[sq2] = piece;
    this.frame(t);
  }
  /** A frame repeating the reading unchanged (the board's heartbeat). */
  heartbeat(t) {
    this.advance(t);
    this.t = t;
    this.send(t, this.cells());
  }
  button(t, side) {
    this.advance(t);
    this.t = t;
    this.changes.push({ t, squares: void 0 });
    this.events.push({ type: "button", t, side });
  }
  /** Something that happens at `t` on `square` while play goes on (a piece put back, one taken away). */
  schedule(t, square, run) {
    this.due.push({ t, square, run });
    this.due.sort((a, b) => a.t - b.t);
  }
  /** Rule 14: the piece on `sq` off its intersection from `off` to `back`, while play goes on. */
  knockOff(sq2, off, back) {
    let piece;
    this.schedule(off, sq2, () => {
      piece = this.pieces[sq2];
      this.pieces[sq2] = void 0;
    });
    this.schedule(back, sq2, () => {
      this.pieces[sq2] = piece;
    });
  }
  busy(sq2) {
    return this.due.some((d) => d.square === sq2);
  }
  /**
   * Waits (from `t`) until nothing is due on `squares`; returns the time then. A hand that had to
   * put a piece back (or take one away) first reaches for the next one `gap()` ms later at the
   * soonest (rule 10: never sooner than 120 ms).
   */
  waitFor(squares, t, gap) {
    let last = -1;
    for (const d of this.due) if (squares.includes(d.square)) last = Math.max(last, d.t);
    if (last < 0) return t;
    const at = Math.max(t, last + gap());
    this.frame(at);
    return at;
  }
  /** Lets everything due happen; returns the time after it. */
  flush(t) {
    const last = this.due.reduce((m, d) => Math.max(m, d.t), -1);
    if (last < 0) return t;
    const at = Math.max(t, last + 1);
    this.frame(at);
    return at;
  }
  send(t, cells) {
    const first = this.events.length === 0;
    if (cells !== this.last) {
      const squares = [];
      for (let sq2 = 0; sq2 < 90; sq2++) if (cells[sq2] !== this.last?.[sq2]) squares.push(sq2);
      this.changes.push({ t, squares });
    }
    this.last = cells;
    const link = this.link;
    if (!first && link && link.lost > 0 && link.random() < link.lost) {
      link.counts.lost_frame++;
      return;
    }
    this.events.push({ type: "snapshot", t, cells });
  }
  /** Runs what is due and the heartbeats up to `t`, each at its own time. */
  advance(t) {
    for (; ; ) {
      const due = this.due[0];
      const dueT = due ? due.t : Number.POSITIVE_INFINITY;
      const next2 = Math.min(dueT, this.nextBeat);
      if (next2 > t) return;
      this.t = Math.max(this.t, next2);
      if (due && dueT <= this.nextBeat) {
        this.due.shift();
        due.run();
        const cells = this.cells();
        if (cells !== this.last) this.send(this.t, cells);
      } else {
        this.link.counts.heartbeat++;
        this.send(this.nextBeat, this.last ?? this.cells());
        this.nextBeat += this.link.heartbeatMs;
      }
    }
  }
};
function moveSquares(move) {
  const out = [move.from, move.to];
  const sameFile = squareFile(move.from) === squareFile(move.to);
  if (!sameFile && squareRank(move.from) !== squareRank(move.to)) return out;
  const step = (sameFile ? 9 : 1) * (move.to > move.from ? 1 : -1);
  for (let sq2 = move.from + step; sq2 !== move.to; sq2 += step) out.push(sq2);
  return out;
}
function withEvidence(truth, changes, moves, sensing, end) {
  const own = (c, move) => sensing === "colour" && c.squares !== void 0 && (c.squares.includes(move.from) || c.squares.includes(move.to));
  const out = [...truth];
  let next2 = end;
  for (let k = out.length - 1; k >= 0; k--) {
    const e = out[k];
    if (e.kind === "retract") {
      next2 = e.t;
      continue;
    }
    const move = moves[e.ply - 1];
    let seen = next2;
    let lo = 0;
    let hi = changes.length;
    while (lo < hi) {
      const mid = lo + hi >> 1;
      if (changes[mid].t < e.t) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < changes.length; i++) {
      const c = changes[i];
      if (c.t === e.t || !c.squares || own(c, move)) {
        seen = Math.min(seen, c.t);
        break;
      }
      if (c.t >= seen) break;
    }
    if (seen > e.t) out[k] = { ...e, seen };
    next2 = Math.max(e.t, seen);
  }
  return out;
}
function knockable(board, move) {
  const path = moveSquares(move);
  return [.../* @__PURE__ */ new Set([...neighbours2(move.from), ...neighbours2(move.to)])].sort((a, b) => a - b).filter((sq2) => !path.includes(sq2) && board.pieces[sq2] !== void 0 && !board.busy(sq2));
}
function neighbours2(sq2) {
  const out = [];
  const f = squareFile(sq2);
  const r = squareRank(sq2);
  for (let df = -1; df <= 1; df++)
    for (let dr = -1; dr <= 1; dr++) {
      if (df === 0 && dr === 0) continue;
      const nf = f + df;
      const nr = r + dr;
      if (nf >= 0 && nf < 9 && nr >= 0 && nr < 10) out.push(nr * 9 + nf);
    }
  return out;
}
function firstUse(moves, square, fromPly) {
  for (let i = fromPly; i < moves.length; i++) {
    const m = moves[i];
    if (m.from === square || m.to === square) return i + 1;
  }
  return void 0;
}
function pickDeadSquare(start, moves, kind, fromPly, random) {
  const pick = (list) => list.length === 0 ? void 0 : list[Math.floor(random() * list.length)];
  const endpoints = /* @__PURE__ */ new Set();
  for (const m of moves) endpoints.add(m.from).add(m.to);
  if (kind === "used") {
    const later = /* @__PURE__ */ new Set();
    for (const m of moves.slice(fromPly)) later.add(m.from).add(m.to);
    const square2 = pick([...later].sort((a, b) => a - b));
    if (square2 === void 0) return void 0;
    return { square: square2, reads: random() < 0.5 ? "empty" : "occupied", fromPly };
  }
  const pos = start.clone();
  const everOccupied = /* @__PURE__ */ new Set();
  const atDeath = /* @__PURE__ */ new Set();
  for (let i = 0; i <= moves.length; i++) {
    for (let sq2 = 0; sq2 < 90; sq2++) {
      if (!pos.pieceAt(sq2)) continue;
      everOccupied.add(sq2);
      if (i === fromPly) atDeath.add(sq2);
    }
    if (i < moves.length) pos.play(moves[i]);
  }
  const free = [];
  for (let sq2 = 0; sq2 < 90; sq2++) {
    if (endpoints.has(sq2)) continue;
    if (kind === "untouched" && everOccupied.has(sq2)) continue;
    free.push(sq2);
  }
  const square = pick(free);
  if (square === void 0) return void 0;
  return { square, reads: atDeath.has(square) ? "empty" : "occupied", fromPly };
}

// src/simulation/physical-play.ts
var DEFAULT_RATES = {
  bounce: 0.3,
  idle_flicker: 0.15,
  hover: 0.3,
  slide: 0.5,
  capture_capturer_first: 0.4,
  capture_captured_first: 0.3,
  capture_swap: 0.3,
  touch: 0.08,
  illegal_placement: 0.05,
  takeback: 0.04,
  button: 0.5,
  setup_wrong_square: 0.1
};
function setupPosition(pos) {
  const out = [];
  for (let sq2 = 0; sq2 < 90; sq2++) out.push(pos.pieceAt(sq2));
  return out;
}
function physicalPlay(start, moves, options) {
  const random = rng(options.seed);
  const rates = { ...DEFAULT_RATES, ...options.rates };
  const counts = Object.fromEntries(Object.keys(DEFAULT_RATES).map((k) => [k, 0]));
  const chance = (h) => random() < rates[h];
  const between3 = (lo, hi) => Math.floor(lo + random() * (hi - lo + 1));
  const real = { ...REAL_OFF, ...options.real };
  const realRandom = rng((options.seed ^ 1540483477) >>> 0);
  const realCounts = newRealCounts();
  const realChance = (p) => p > 0 && realRandom() < p;
  const realBetween = (lo, hi) => Math.floor(lo + realRandom() * (hi - lo + 1));
  const handGap = () => realBetween(120, 350);
  const answerRandom = rng((options.seed ^ 668265263) >>> 0);
  const answerBetween = (lo, hi) => Math.floor(lo + answerRandom() * (hi - lo + 1));
  const unanswered = [...real.answers].sort((a, b) => a.after - b.after);
  const heartbeatMs = options.heartbeatMs ?? (real.lostFrames > 0 ? 1e3 : 0);
  const board = new Board(
    options.sensing,
    heartbeatMs > 0 || real.lostFrames > 0 ? { lost: real.lostFrames, heartbeatMs, random: realRandom, counts: realCounts } : void 0
  );
  board.lowerReads = real.lowerReads;
  const truth = [];
  let dead;
  let doneAt = 0;
  const dieAt = (at) => {
    if (!real.dead) return;
    board.at(at);
    board.kill(real.dead);
    if (at > 0) board.frame(at);
    const sq2 = real.dead.square;
    dead = {
      square: sq2,
      iccs: makeSquareName(sq2),
      reads: real.dead.reads,
      fromPly: real.dead.fromPly,
      fromT: at,
      firstUsePly: firstUse(moves, sq2, real.dead.fromPly)
    };
  };
  let illegalPlacements = 0;
  const illegal = [];
  let takebacks = 0;
  const takebackPlies = [];
  const swapPlies = [];
  const lateRemovalPlies = [];
  let placedAt = 0;
  const settle = (sq2, t2) => {
    if (!chance("bounce")) return t2;
    counts.bounce++;
    const steady = board.reading(sq2);
    const other = steady === "." ? options.sensing === "occupancy" ? "x" : "r" : ".";
    const end = t2 + between3(4, 30);
    let at = t2;
    let flip = true;
    while (at < end) {
      at += between3(1, 8);
      if (at >= end) break;
      board.frame(at, /* @__PURE__ */ new Map([[sq2, flip ? other : steady]]));
      flip = !flip;
    }
    board.frame(end);
    return end;
  };
  const place = (sq2, piece, t2) => {
    board.put(sq2, piece, t2);
    placedAt = t2;
    return settle(sq2, t2);
  };
  const lift = (sq2, t2) => {
    board.at(t2);
    const piece = board.pieces[sq2];
    if (!piece) throw new Error(`no piece to lift on ${sq2}`);
    board.put(sq2, void 0, t2);
    return { piece, t: settle(sq2, t2) };
  };
  const maybeFlicker = (t2) => {
    if (!chance("idle_flicker")) return t2;
    counts.idle_flicker++;
    const sq2 = between3(0, 89);
    const steady = board.reading(sq2);
    const other = steady === "." ? options.sensing === "occupancy" ? "x" : "b" : ".";
    board.frame(t2, /* @__PURE__ */ new Map([[sq2, other]]));
    const end = t2 + between3(1, 30);
    board.frame(end);
    return end;
  };
  const hover = (t2) => {
    if (!chance("hover")) return t2 + between3(150, 600);
    counts.hover++;
    return maybeFlicker(t2 + between3(200, 1200)) + between3(200, 2500);
  };
  const target = setupPosition(start);
  let t = 0;
  if (real.dead?.fromPly === 0) dieAt(0);
  if (options.setupFromEmpty) {
    board.frame(0);
    const order = target.map((p, sq2) => p ? sq2 : -1).filter((sq2) => sq2 >= 0);
    shuffle(order, random);
    t = 500;
    for (const sq2 of order) {
      const piece = target[sq2];
      if (chance("setup_wrong_square")) {
        const wrong = emptySquares(board, target).filter((s) => s !== sq2);
        if (wrong.length > 0) {
          counts.setup_wrong_square++;
          const w = wrong[between3(0, wrong.length - 1)];
          t = place(w, piece, t) + between3(300, 1500);
          t = lift(w, t).t + between3(100, 400);
        }
      }
      t = place(sq2, piece, t) + between3(150, 700);
    }
  } else {
    for (let sq2 = 0; sq2 < 90; sq2++) board.pieces[sq2] = target[sq2];
    board.frame(0);
    t = 0;
  }
  t += between3(800, 1500);
  board.heartbeat(t);
  const pos = start.clone();
  let current = 0;
  let lastCaptured;
  for (let ply = 0; ply < moves.length; ply++) {
    current = ply;
    const move = moves[ply];
    const mover = pos.turn;
    if (ply > 0 && real.dead?.fromPly === ply) dieAt(t + 1);
    const pace = between3(350, 900);
    if (ply > 0 && realChance(real.fastReply)) {
      realCounts.fast_reply++;
      t = Math.max(t, doneAt + realBetween(50, 200));
    } else if (ply > 0 && realChance(real.fastPace)) {
      realCounts.fast_pace++;
      t = Math.max(t, doneAt + realBetween(120, 350));
    } else {
      t += pace;
    }
    t = board.waitFor(moveSquares(move), t, handGap);
    while (unanswered.length > 0 && unanswered[0].after <= t) t = answer(unanswered.shift(), t);
    t = maybeFlicker(t);
    if (realChance(real.straighten)) {
      const own = occupiedBy(board, mover).filter((sq2) => sq2 !== move.from);
      if (own.length > 0) {
        realCounts.straighten++;
        const sq2 = own[realBetween(0, own.length - 1)];
        const lifted2 = lift(sq2, t);
        t = place(sq2, lifted2.piece, t + realBetween(100, 400)) + realBetween(80, 300);
      }
    }
    if (chance("touch")) {
      const own = occupiedBy(board, mover);
      const sq2 = own[between3(0, own.length - 1)];
      counts.touch++;
      const lifted2 = lift(sq2, t);
      t = place(sq2, lifted2.piece, lifted2.t + between3(100, 900)) + between3(350, 800);
    }
    if (chance("illegal_placement")) {
      const wrong = illegalTarget(pos, move.from, board, random);
      if (wrong !== void 0) {
        counts.illegal_placement++;
        illegalPlacements++;
        const lifted2 = lift(move.from, t);
        t = place(wrong, lifted2.piece, lifted2.t + between3(200, 800));
        illegal.push({ from: move.from, to: wrong, t });
        t += between3(1200, 3e3);
        const back = lift(wrong, t);
        t = playMove(move, back.piece, back.t + between3(100, 500), true);
        finishMove(ply);
        continue;
      }
    }
    const lifted = board.pieces[move.from];
    if (!lifted) throw new Error(`ply ${ply + 1}: no piece on the board at the move's origin`);
    if (realChance(real.knock)) knock(move, t);
    t = playMove(move, void 0, t, false);
    if (!board.busy(move.to) && realChance(real.nudge)) {
      realCounts.nudge++;
      const l = lift(move.to, t + realBetween(30, 250));
      t = place(move.to, l.piece, l.t + realBetween(100, 370));
    }
    finishMove(ply);
    const unseen = options.sensing === "occupancy" && (swapPlies.includes(ply + 1) || lateRemovalPlies.includes(ply + 1));
    if (ply < moves.length - 1 && !unseen && chance("takeback")) {
      counts.takeback++;
      takebacks++;
      takebackPlies.push(ply + 1);
      t = takeBack(move, t);
      t = playMove(move, void 0, t + between3(400, 900), false);
      finishMove(ply);
    }
  }
  t = board.flush(t);
  t += between3(1e3, 2e3);
  board.heartbeat(t);
  return {
    events: board.events,
    counts,
    illegalPlacements,
    illegal,
    takebacks,
    takebackPlies,
    swapPlies,
    truth: withEvidence(truth, board.changes, moves, options.sensing, t),
    ...dead ? { dead } : {},
    realCounts
  };
  function finishMove(ply) {
    const move = moves[ply];
    const mover = pos.turn;
    if (!pos.isLegal(move)) throw new Error(`ply ${ply + 1}: ${JSON.stringify(move)} is not legal`);
    lastCaptured = pos.play(move);
    truth.push({ t: doneAt, kind: "move", ply: ply + 1, iccs: makeIccs(move) });
    if (options.buttons && (chance("button") || swapPlies.includes(ply + 1) || ply === moves.length - 1)) {
      counts.button++;
      t += between3(80, 300);
      board.button(t, mover);
    }
  }
  function answer(a, at) {
    realCounts.answer++;
    let time = at;
    for (const sq2 of a.squares) {
      const piece = board.pieces[sq2];
      if (!piece || board.busy(sq2)) continue;
      board.put(sq2, void 0, time);
      time += answerBetween(300, 800);
      board.put(sq2, piece, time);
      time += answerBetween(200, 500);
    }
    return time;
  }
  function playMove(move, inHand, at, fromHand) {
    const captured = board.pieces[move.to];
    let time = at;
    let piece = inHand;
    const line = squareFile(move.from) === squareFile(move.to) || squareRank(move.from) === squareRank(move.to);
    const role = (inHand ?? board.pieces[move.from])?.role;
    const canSlide = !captured && line && (role === "chariot" || role === "cannon") && !fromHand;
    if (!captured) {
      if (canSlide && chance("slide")) {
        counts.slide++;
        return slide(move, time);
      }
      if (!piece) {
        const l2 = lift(move.from, time);
        piece = l2.piece;
        time = hover(l2.t);
      } else {
        time += between3(100, 400);
      }
      return land(move.to, piece, time);
    }
    const r = random();
    if (lateRemovalAllowed() && realChance(real.lateRemoval)) return lateRemoval(move, piece, captured, time);
    const swapRate = rates.capture_swap;
    const firstRate = rates.capture_capturer_first;
    if (!fromHand && r < swapRate && swapAllowed(move)) {
      counts.capture_swap++;
      swapPlies.push(current + 1);
      const l2 = lift(move.from, time);
      time = hover(l2.t);
      board.put(move.to, l2.piece, time);
      doneAt = time;
      return time;
    }
    if (fromHand || r < swapRate + firstRate) {
      counts.capture_capturer_first++;
      if (!piece) {
        const l2 = lift(move.from, time);
        piece = l2.piece;
        time = l2.t + between3(100, 600);
      }
      time = lift(move.to, time).t + between3(100, 500);
      return land(move.to, piece, time);
    }
    counts.capture_captured_first++;
    time = lift(move.to, time).t + between3(100, 600);
    const l = lift(move.from, time);
    return land(move.to, l.piece, hover(l.t));
  }
  function land(sq2, piece, at) {
    const end = place(sq2, piece, at);
    doneAt = at;
    return end;
  }
  function lateRemovalAllowed() {
    if (real.lateRemoval <= 0) return false;
    return options.sensing === "colour" || current < moves.length - 1 || options.buttons === true;
  }
  function lateRemoval(move, inHand, captured, at) {
    realCounts.late_removal++;
    lateRemovalPlies.push(current + 1);
    let time = at;
    let piece = inHand;
    if (!piece) {
      const l = lift(move.from, time);
      piece = l.piece;
      time = hover(l.t);
    } else {
      time += realBetween(100, 400);
    }
    const to = move.to;
    board.at(time);
    board.under.set(to, captured);
    board.put(to, piece, time);
    doneAt = time;
    board.schedule(time + realBetween(1e3, 4e3), to, () => board.under.delete(to));
    return time;
  }
  function knock(move, at) {
    const near2 = knockable(board, move);
    if (near2.length === 0) return;
    realCounts.knock++;
    const sq2 = near2[realBetween(0, near2.length - 1)];
    const off = at + realBetween(20, 250);
    board.knockOff(sq2, off, off + realBetween(300, 2e3));
  }
  function swapAllowed(move) {
    if (options.sensing === "colour") return true;
    if (current === moves.length - 1 && !options.buttons) return false;
    const captures = pos.legalDestinations(move.from).filter((to) => pos.pieceAt(to));
    return captures.length === 1;
  }
  function slide(move, at) {
    const step = squareFile(move.from) === squareFile(move.to) ? 9 : 1;
    const dir = move.to > move.from ? step : -step;
    const piece = board.pieces[move.from];
    board.put(move.from, void 0, at);
    let time = at;
    let previous;
    const way = Math.abs(move.to - move.from) / step - 1;
    let rest;
    if (way > 0 && realChance(real.hesitate)) {
      realCounts.hesitate++;
      rest = move.from + dir * realBetween(1, way);
    }
    for (let sq2 = move.from + dir; sq2 !== move.to; sq2 += dir) {
      time += between3(20, 90);
      board.put(sq2, piece, time);
      if (previous !== void 0) {
        time += between3(0, 20);
        board.put(previous, void 0, time);
      }
      previous = sq2;
      if (sq2 === rest) time += realBetween(150, 600);
    }
    time += between3(20, 90);
    board.put(move.to, piece, time);
    if (previous !== void 0) {
      time += between3(0, 20);
      board.put(previous, void 0, time);
    }
    doneAt = time;
    return settle(move.to, time);
  }
  function takeBack(move, at) {
    const captured = lastCaptured;
    let time = board.waitFor([move.from, move.to], at + between3(350, 900), handGap);
    const l = lift(move.to, time);
    time = l.t + between3(100, 500);
    time = place(move.from, l.piece, time);
    if (captured) time = place(move.to, captured, time + between3(150, 600));
    truth.push({ t: placedAt, kind: "retract", ply: current + 1 });
    pos.undo();
    return time;
  }
}
function shuffle(a, random) {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
}
function emptySquares(board, target) {
  const out = [];
  for (let sq2 = 0; sq2 < 90; sq2++) if (!board.pieces[sq2] && !target[sq2]) out.push(sq2);
  return out;
}
function occupiedBy(board, color) {
  const out = [];
  for (let sq2 = 0; sq2 < 90; sq2++) if (board.pieces[sq2]?.color === color && !board.busy(sq2)) out.push(sq2);
  return out;
}
function illegalTarget(pos, from, board, random) {
  const options = [];
  for (let sq2 = 0; sq2 < 90; sq2++) {
    if (board.pieces[sq2] || sq2 === from || board.busy(sq2)) continue;
    const d = Math.abs(squareFile(sq2) - squareFile(from)) + Math.abs(squareRank(sq2) - squareRank(from));
    if (d > 3) continue;
    if (explainIllegal(pos, { from, to: sq2 }) !== void 0) options.push(sq2);
  }
  if (options.length === 0) return void 0;
  return options[Math.floor(random() * options.length)];
}

// src/simulation/real-play-judge.ts
var withReal = (real) => (_, base) => ({
  ...base,
  real
});
var deadSquare = (kind, fromPly) => (game, base, random) => {
  const ply = fromPly(game.moves.length, random);
  if (ply === void 0) return void 0;
  const dead = pickDeadSquare(game.start, game.moves, kind, ply, random);
  return dead ? { ...base, real: { dead } } : void 0;
};
var deadUsed = deadSquare(
  "used",
  (n, random) => n < 2 ? void 0 : random() < 0.5 ? 0 : 1 + Math.floor(random() * Math.floor(n / 2))
);
var CONDITIONS = [
  { id: "model", title: "the model (rules 1\u20139)", options: (_, base) => base },
  {
    id: "fast_pace",
    title: "10 blitz: next lift 120\u2013350 ms after the last landing",
    options: withReal({ fastPace: REAL_SPEC.fastPace })
  },
  {
    id: "fast_reply",
    title: "10 blitz: reply lifted 50\u2013200 ms after the landing",
    options: withReal({ fastReply: REAL_SPEC.fastReply })
  },
  {
    id: "hesitate",
    title: "11 slide resting 150\u2013600 ms on the way",
    options: withReal({ hesitate: REAL_SPEC.hesitate })
  },
  {
    id: "dead_used",
    title: "12 dead sensor on a square the game uses (from the start or mid-game)",
    dead: "used",
    options: deadUsed
  },
  {
    id: "dead_used_answered",
    title: "12 dead sensor the game uses, players lifting the pieces the alert asks for",
    dead: "used",
    answering: true,
    sameAs: "dead_used",
    options: deadUsed
  },
  {
    id: "dead_unused_start",
    title: "12 dead sensor on an unused square from the start",
    dead: "unused",
    options: deadSquare("unused", () => 0)
  },
  {
    id: "dead_unused_10",
    title: "12 dead sensor on an unused square from ply 10",
    dead: "unused",
    options: deadSquare("unused", (n) => n > 10 ? 10 : void 0)
  },
  {
    id: "lost_frames",
    title: "13 2 % of frames lost (heartbeat every 1 s)",
    options: withReal({ lostFrames: REAL_SPEC.lostFrames })
  },
  {
    id: "knock",
    title: "14 knocked neighbour (5 % of moves), back after 0.3\u20132 s",
    options: withReal({ knock: REAL_SPEC.knock })
  },
  {
    id: "late_removal",
    title: "15 captured piece removed 1\u20134 s late, every capture",
    options: withReal({ lateRemoval: REAL_SPEC.lateRemoval })
  },
  {
    id: "late_removal_lower",
    title: "15 late removal, the colour sensor reading the lower piece until then",
    options: withReal({ lateRemoval: REAL_SPEC.lateRemoval, lowerReads: true })
  },
  {
    id: "adjust",
    title: "16 adjusting: nudges and straightened pieces",
    options: withReal({ nudge: REAL_SPEC.nudge, straighten: REAL_SPEC.straighten })
  },
  {
    id: "knock_adjust",
    title: "14+16 knocked neighbour and adjusted pieces",
    options: withReal({ knock: REAL_SPEC.knock, nudge: REAL_SPEC.nudge, straighten: REAL_SPEC.straighten })
  }
];
var REACTION_MS = 1500;
var MAX_ANSWERS = 4;
function judgeGame(game, options, answering = false) {
  const answers = [];
  let answeredUpTo = Number.NEGATIVE_INFINITY;
  for (; ; ) {
    const played = answers.length > 0 ? { ...options, real: { ...options.real, answers: [...answers] } } : options;
    const judged = readBack(game, played);
    const next2 = answering && answers.length < MAX_ANSWERS ? firstCheck(judged.emitted, answeredUpTo) : void 0;
    if (!next2) return judged;
    answeredUpTo = next2.t;
    answers.push({ after: next2.t + REACTION_MS, squares: next2.squares });
  }
}
function firstCheck(emitted, after) {
  for (const e of emitted) {
    if (e.type !== "alert" || e.t <= after || !e.alert.check) continue;
    const squares = e.alert.check.map(parseSquare).filter((s) => s !== void 0);
    if (squares.length > 0) return { t: e.t, squares };
  }
  return void 0;
}
function readBack(game, options) {
  const play = physicalPlay(game.start, game.moves, options);
  const run = runSensorEvents(game.start, play.events, { sensing: options.sensing });
  if (!run.ok) throw new Error(`${game.label}: ${run.error.message}`);
  const emitted = run.value.emitted;
  const classification = classify({
    truth: play.truth,
    emitted,
    end: play.events.at(-1)?.t ?? 0,
    ...play.dead ? { dead: { iccs: play.dead.iccs, fromT: play.dead.fromT, firstUsePly: play.dead.firstUsePly } } : {}
  });
  return { classification, started: emitted.some((e) => e.type === "gameStart"), emitted, options };
}
function rowOptions(condition2, games, sensing, seed) {
  const id = condition2.sameAs ?? condition2.id;
  const random = rng(seed ^ hash(id));
  return games.map(
    (game, k) => condition2.options(
      game,
      {
        sensing,
        seed: seed * 1000003 + k * 1009 + hash(id) >>> 0,
        setupFromEmpty: k % 5 === 0,
        buttons: k % 2 === 0
      },
      random
    )
  );
}
function randomGame(start, plies, seed) {
  const random = rng(seed);
  const pos = start.clone();
  const moves = [];
  for (let k = 0; k < plies; k++) {
    const legal = pos.legalMoves();
    if (legal.length === 0) break;
    const move = legal[Math.floor(random() * legal.length)];
    moves.push(move);
    pos.play(move);
  }
  return moves;
}
function randomGames(count, seed) {
  const out = [];
  for (let k = 0; k < count; k++) {
    const start = Position.default();
    out.push({
      label: `random ${seed}/${k}`,
      start,
      moves: randomGame(start, 40 + k % 80, seed * 7919 + k)
    });
  }
  return out;
}
function sample(all, count, seed) {
  if (count >= all.length) return [...all];
  const step = all.length / count;
  const offset = Math.floor(rng(seed)() * step);
  return Array.from({ length: count }, (_, k) => all[(offset + Math.floor(k * step)) % all.length]);
}
function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

// test/tracker/physical-support.ts
import { readFileSync } from "node:fs";

// src/notation/describe.ts
var notationError = (code, text, message) => err({ code, text, message });
var moverFile = (file, color) => color === "red" ? 9 - file : file + 1;
var aheadOf = (rank, color) => color === "red" ? rank : 9 - rank;
var movesDiagonally = (role) => role === "horse" || role === "elephant" || role === "advisor";
function likePiecesOnFile(pos, from) {
  const piece = pos.pieceAt(from);
  if (!piece) return [];
  const file = squareFile(from);
  const out = [];
  for (let k = 9; k >= 0; k--) {
    const rank = piece.color === "red" ? k : 9 - k;
    const sq2 = makeSquare(file, rank);
    const p = pos.pieceAt(sq2);
    if (p && p.color === piece.color && p.role === piece.role) out.push(sq2);
  }
  return out;
}
function stackedPawnFiles(pos, color) {
  const perFile = new Array(9).fill(0);
  for (const sq2 of pos.piecesOf(color, "pawn")) perFile[squareFile(sq2)]++;
  return perFile.filter((n) => n >= 2).length;
}
function describeMove(pos, move) {
  const piece = pos.pieceAt(move.from);
  if (!piece || piece.color !== pos.turn) return void 0;
  const { color, role } = piece;
  const fromAhead = aheadOf(squareRank(move.from), color);
  const toAhead = aheadOf(squareRank(move.to), color);
  const direction = toAhead > fromAhead ? "+" : toAhead < fromAhead ? "-" : ".";
  const target = direction === "." || movesDiagonally(role) ? moverFile(squareFile(move.to), color) : Math.abs(toAhead - fromAhead);
  let index = 0;
  let count = 1;
  if (role !== "advisor" && role !== "elephant") {
    const like = likePiecesOnFile(pos, move.from);
    index = like.indexOf(move.from);
    count = like.length;
  }
  const stackedFiles = role === "pawn" && count >= 2 ? stackedPawnFiles(pos, color) : 0;
  return {
    color,
    role,
    file: moverFile(squareFile(move.from), color),
    index,
    count,
    stackedFiles,
    direction,
    target
  };
}
function whichMatches(which, index, count) {
  if (count < 2) return false;
  switch (which) {
    case "front":
      return index === 0;
    case "rear":
      return index === count - 1;
    case "middle":
      return count % 2 === 1 && index === (count - 1) / 2;
    case "plus":
      return index === (count <= 3 ? 0 : 1);
    case "minus":
      return index === (count <= 3 ? count - 1 : count - 2);
    case "plusplus":
      return count >= 4 && index === 0;
    case "minusminus":
      return count >= 4 && index === count - 1;
    default:
      return index === which - 1;
  }
}
function descriptorMatches(d, f) {
  if (d.role !== f.role || d.direction !== f.direction || d.target !== f.target) return false;
  if (d.file !== void 0 && d.file !== f.file) return false;
  if (d.which !== void 0) return whichMatches(d.which, f.index, f.count);
  if (f.count >= 3 && f.count % 2 === 1) return f.index === (f.count - 1) / 2;
  return true;
}
function resolveDescriptor(pos, d, text) {
  const candidates = [];
  for (const m of pos.legalMoves()) {
    if (pos.pieceAt(m.from)?.role !== d.role) continue;
    if (d.file !== void 0 && d.which === void 0 && moverFile(squareFile(m.from), pos.turn) !== d.file)
      continue;
    candidates.push(m);
  }
  const found = candidates.filter((move) => {
    const facts = describeMove(pos, move);
    return facts !== void 0 && descriptorMatches(d, facts);
  });
  if (found.length === 1) return ok(found[0]);
  if (found.length === 0) {
    return notationError("no_such_move", text, `'${text}' names no legal move of ${pos.turn} here`);
  }
  return notationError(
    "ambiguous",
    text,
    `'${text}' could be any of ${found.length} legal moves of ${pos.turn}`
  );
}

// src/notation/chinese.ts
var CHINESE_NUMERALS = "\u4E00\u4E8C\u4E09\u56DB\u4E94\u516D\u4E03\u516B\u4E5D";
var PIECE_CHARS = {
  \u5E05: "king",
  \u5E25: "king",
  \u5C06: "king",
  \u5C07: "king",
  \u4ED5: "advisor",
  \u58EB: "advisor",
  \u76F8: "elephant",
  \u8C61: "elephant",
  \u9A6C: "horse",
  \u99AC: "horse",
  \u508C: "horse",
  \u8F66: "chariot",
  \u8ECA: "chariot",
  \u4FE5: "chariot",
  \u70AE: "cannon",
  \u7832: "cannon",
  \u5305: "cannon",
  \u5175: "pawn",
  \u5352: "pawn"
};
var DIRECTION_CHARS = { \u8FDB: "+", \u9032: "+", \u9000: "-", \u5E73: "." };
var WHICH_CHARS = { \u524D: "front", \u540E: "rear", \u5F8C: "rear", \u4E2D: "middle" };
function numberOf(ch) {
  const k = CHINESE_NUMERALS.indexOf(ch);
  if (k >= 0) return k + 1;
  return /^[1-9]$/.test(ch) ? Number(ch) : void 0;
}
var isChineseChar = (ch) => /[\u3400-\u9fff]/.test(ch);
var looksChinese = (text) => /[\u3400-\u9fff]/.test(text);
function readPiece(a, b) {
  const roleA = PIECE_CHARS[a];
  const roleB = PIECE_CHARS[b];
  const whichA = WHICH_CHARS[a];
  const whichB = WHICH_CHARS[b];
  const numA = numberOf(a);
  const numB = numberOf(b);
  if (roleA && numB !== void 0) return { role: roleA, file: numB };
  if (whichA && roleB) return { role: roleB, which: whichA };
  if (roleA && whichB) return { role: roleA, which: whichB };
  if (numA !== void 0 && numA <= 5 && roleB === "pawn") return { role: "pawn", which: numA };
  if (whichA && numB !== void 0) return { role: "pawn", file: numB, which: whichA };
  return void 0;
}
function readChinese(text) {
  const chars = [...text.normalize("NFKC").replace(/\s+/g, "")];
  const piece = chars.length === 4 ? readPiece(chars[0], chars[1]) : void 0;
  const direction = DIRECTION_CHARS[chars[2] ?? ""];
  const target = numberOf(chars[3] ?? "");
  if (!piece || !direction || target === void 0 || !chars.some(isChineseChar)) {
    return notationError(
      "notation_syntax",
      text,
      `'${text}' is not a Chinese move like \u70AE\u4E8C\u5E73\u4E94 or \u9A6C\uFF18\u8FDB\uFF17`
    );
  }
  return ok({ ...piece, direction, target });
}
function parseChinese(pos, text) {
  const d = readChinese(text);
  return d.ok ? resolveDescriptor(pos, d.value, text) : d;
}

// src/notation/wxf.ts
var LETTER_ROLE = {
  K: "king",
  G: "king",
  A: "advisor",
  E: "elephant",
  B: "elephant",
  H: "horse",
  N: "horse",
  R: "chariot",
  C: "cannon",
  P: "pawn"
};
function normalizeWxf(text) {
  return text.normalize("NFKC").trim().toUpperCase().replace(/[=．]/g, ".").replace(/[−–—]/g, "-").replace(/^(.{4})[+#!?]+$/, "$1");
}
var SIGN = /^[+-]$/;
var DIGIT = /^[1-9]$/;
function readPiece2(a, b) {
  const roleA = LETTER_ROLE[a];
  const roleB = LETTER_ROLE[b];
  if (roleA && DIGIT.test(b)) return { role: roleA, file: Number(b) };
  if (roleA && SIGN.test(b)) return { role: roleA, which: b === "+" ? "plus" : "minus" };
  if (SIGN.test(a) && roleB) return { role: roleB, which: a === "+" ? "plus" : "minus" };
  if (SIGN.test(a) && a === b) return { role: "pawn", which: a === "+" ? "plusplus" : "minusminus" };
  if (DIGIT.test(a) && SIGN.test(b)) {
    return { role: "pawn", file: Number(a), which: b === "+" ? "front" : "rear" };
  }
  if (DIGIT.test(a) && a === b) return { role: "pawn", file: Number(a), which: "middle" };
  return void 0;
}
function readWxf(text) {
  const t = normalizeWxf(text);
  const piece = t.length === 4 ? readPiece2(t[0], t[1]) : void 0;
  const direction = t[2];
  const target = t[3] ?? "";
  if (!piece || direction !== "+" && direction !== "-" && direction !== "." || !DIGIT.test(target)) {
    return notationError("notation_syntax", text, `'${text}' is not a WXF move like C2.5 or H8+7`);
  }
  return ok({ ...piece, direction, target: Number(target) });
}
function parseWxf(pos, text) {
  const d = readWxf(text);
  return d.ok ? resolveDescriptor(pos, d.value, text) : d;
}

// src/notation/index.ts
var ICCS_TEXT = /^[a-i][0-9]-?[a-i][0-9]$/i;
function notationOf(text) {
  const t = text.normalize("NFKC").trim();
  if (ICCS_TEXT.test(t)) return "iccs";
  return looksChinese(t) ? "chinese" : "wxf";
}
function parseIccsMove(pos, text) {
  const t = text.normalize("NFKC").trim();
  const m = parseIccs(t);
  if (!m.ok) return notationError("notation_syntax", text, m.error.message);
  if (!pos.isLegal(m.value)) {
    return notationError("no_such_move", text, `'${text}' is not a legal move of ${pos.turn} here`);
  }
  return m;
}
function parseMove(pos, text, notation) {
  switch (notation) {
    case "iccs":
      return parseIccsMove(pos, text);
    case "wxf":
      return parseWxf(pos, text);
    case "chinese":
      return parseChinese(pos, text);
  }
}
var parseMoveAny = (pos, text) => parseMove(pos, text, notationOf(text));

// src/record/pgn.ts
var RESULTS = ["1-0", "0-1", "1/2-1/2", "*"];
var TAG_LINE = /^\s*\[([A-Za-z0-9_]+)\s+"(.*)"\s*\]\s*$/;
function describeGame(index, tags) {
  const who = tags.Red || tags.Black ? `${tags.Red ?? "?"} \u2013 ${tags.Black ?? "?"}` : "";
  const parts2 = [who, tags.Event ?? "", tags.Date ?? ""].filter((p) => p !== "");
  return `game ${index}${parts2.length ? ` (${parts2.join(", ")})` : ""}`;
}
var GameSplitter = class {
  lines = [];
  seenMoves = false;
  inComment = false;
  /** Feeds one line; returns the previous game's text when this line starts a new game. */
  push(line) {
    let done;
    if (!this.inComment && TAG_LINE.test(line) && this.seenMoves) {
      done = this.lines.join("\n");
      this.lines = [];
      this.seenMoves = false;
    }
    this.lines.push(line);
    if (!this.inComment && !TAG_LINE.test(line) && line.trim() !== "") this.seenMoves = true;
    this.trackComment(line);
    return done;
  }
  /** The last game, if any text is left. */
  end() {
    const text = this.lines.join("\n");
    this.lines = [];
    this.seenMoves = false;
    return text.trim() === "" ? void 0 : text;
  }
  trackComment(line) {
    for (let k = 0; k < line.length; k++) {
      const c = line[k];
      if (this.inComment) {
        if (c === "}") this.inComment = false;
      } else if (c === "{") this.inComment = true;
      else if (c === ";") return;
    }
  }
};
function splitGames(text) {
  const splitter = new GameSplitter();
  const out = [];
  for (const line of text.split(/\r?\n/)) {
    const done = splitter.push(line);
    if (done !== void 0) out.push(done);
  }
  const last = splitter.end();
  if (last !== void 0) out.push(last);
  return out;
}
function tokenize(movetext) {
  const tokens = [];
  let k = 0;
  let depth = 0;
  const n = movetext.length;
  while (k < n) {
    const c = movetext[k];
    if (/\s/.test(c)) {
      k++;
    } else if (c === "{") {
      const close = movetext.indexOf("}", k + 1);
      if (close < 0) return err("a comment { is never closed");
      if (depth === 0) tokens.push({ kind: "comment", text: movetext.slice(k + 1, close) });
      k = close + 1;
    } else if (c === ";") {
      const eol = movetext.indexOf("\n", k);
      const end = eol < 0 ? n : eol;
      if (depth === 0) tokens.push({ kind: "comment", text: movetext.slice(k + 1, end) });
      k = end;
    } else if (c === "(") {
      depth++;
      k++;
    } else if (c === "}") {
      return err("a } closes no comment");
    } else if (c === ")") {
      if (depth === 0) return err("a ) closes no variation");
      depth--;
      k++;
    } else {
      let end = k;
      while (end < n && !/[\s{};()]/.test(movetext[end])) end++;
      const word = movetext.slice(k, end);
      k = end;
      if (depth > 0) continue;
      for (const t of wordTokens(word)) tokens.push(t);
    }
  }
  if (depth > 0) return err("a variation ( is never closed");
  return ok(tokens);
}
function wordTokens(word) {
  if (RESULTS.includes(word)) return [{ kind: "result", text: word }];
  if (/^\$\d+$/.test(word)) return [];
  const rest = word.replace(/^\d+\s*(\.+|…|、)/, "");
  if (rest === "") return [];
  return [{ kind: "move", text: rest.replace(/[!?]+$/, "") }];
}
var CLOCK = /\[%clk\s+(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)\]/;
var EMT = /\[%emt\s+(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)\]/;
var hmsMs = (m) => Math.round((Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1e3);
function splitClock(comment) {
  const m = CLOCK.exec(comment);
  const e = EMT.exec(comment);
  const text = comment.replace(CLOCK, "").replace(EMT, "").trim();
  const out = {};
  if (text !== "") out.comment = text;
  if (m) out.clock = hmsMs(m);
  if (e) out.emt = hmsMs(e);
  return out;
}
function unescapeTag(v) {
  return v.replace(/\\(["\\])/g, "$1");
}
function parseGame(text, index = 1) {
  const tags = {};
  const lines = text.split(/\r?\n/);
  let k = 0;
  for (; k < lines.length; k++) {
    const line = lines[k];
    if (line.trim() === "") continue;
    const m = TAG_LINE.exec(line);
    if (!m) break;
    tags[m[1]] = unescapeTag(m[2]);
  }
  const fail = (code, message, at = {}) => err({ code, message: `${describeGame(index, tags)}: ${message}`, game: index, tags, ...at });
  const fen = tags.FEN?.trim() || INITIAL_FEN;
  const setup2 = parseFen(fen);
  if (!setup2.ok) return fail("pgn_fen", `bad FEN tag (${setup2.error.message})`);
  const start = Position.fromSetup(setup2.value);
  if (!start.ok) return fail("pgn_fen", `FEN tag is not a legal position (${start.error.message})`);
  const pos = start.value;
  const tokens = tokenize(lines.slice(k).join("\n"));
  if (!tokens.ok) return fail("pgn_syntax", tokens.error);
  const moves = [];
  let comment;
  let result;
  for (const token of tokens.value) {
    if (token.kind === "result") {
      result = token.text;
    } else if (token.kind === "comment") {
      const { comment: c, clock, emt } = splitClock(token.text);
      const last = moves[moves.length - 1];
      if (!last) {
        if (c !== void 0) comment = comment === void 0 ? c : `${comment} ${c}`;
      } else {
        if (c !== void 0) last.comment = last.comment === void 0 ? c : `${last.comment} ${c}`;
        if (clock !== void 0) last.clock = clock;
        if (emt !== void 0) last.emt = emt;
      }
    } else {
      const ply = moves.length + 1;
      if (result !== void 0) {
        return fail("pgn_syntax", `ply ${ply} '${token.text}' comes after the result ${result}`, {
          ply,
          moveText: token.text
        });
      }
      const move = parseMoveAny(pos, token.text);
      if (!move.ok) {
        return fail("pgn_move", `ply ${ply} '${token.text}': ${move.error.message}`, {
          ply,
          moveText: token.text
        });
      }
      pos.play(move.value);
      moves.push({ move: move.value, iccs: makeIccs(move.value) });
    }
  }
  const { Game: _game, Format: _format, Result: _result, ...kept } = tags;
  const game = {
    tags: kept,
    fen: tags.FEN?.trim() ? makeFen(setup2.value) : INITIAL_FEN,
    moves,
    result: result ?? tags.Result ?? "*",
    ...comment !== void 0 ? { comment } : {}
  };
  return ok(game);
}
var readPgn = (text) => splitGames(text).map((g, i) => parseGame(g, i + 1));

// test/helpers/shared.ts
import { fileURLToPath } from "node:url";
var SHARED = fileURLToPath(new URL("../../../shared/", import.meta.url));
var sharedPath = (rel) => SHARED + rel;

// test/helpers/positions.ts
function positionOf(fen) {
  const pos = Position.fromFen(fen);
  if (!pos.ok) throw new Error(`${fen}: ${pos.error.message}`);
  return pos.value;
}

// test/tracker/physical-support.ts
function liuDahuaGames() {
  const text = readFileSync(sharedPath("data/games/liu-dahua-1125-iccs.pgn"), "utf8");
  return readPgn(text).map((r, i) => {
    if (!r.ok) throw new Error(`game ${i + 1}: ${r.error.message}`);
    return r.value;
  });
}

// test/tracker/zz-scan.ts
var condition = CONDITIONS.find((c) => c.id === (process.argv[2] ?? "dead_used"));
var master = sample(liuDahuaGames().map((g, i) => ({ label: `master ${i + 1}`, start: positionOf(g.fen), moves: g.moves.map((m) => m.move) })), 60, 1);
var tally = {};
for (const games of [randomGames(60, 1), master])
  for (const sensing of ["occupancy", "colour"]) {
    const all = rowOptions(condition, games, sensing, 1);
    games.forEach((g, k) => {
      const o = all[k];
      if (!o) return;
      const forks = [];
      const states = [];
      globalThis.__fork = (t, sq3) => forks.push({ t, sq: sq3 });
      globalThis.__doubt = (now, fork, open) => states.push({ now, fork, open });
      const j = judgeGame(g, o, condition.answering);
      if (j.classification.deadNamed !== false) return;
      const play = physicalPlay(g.start, g.moves, j.options);
      const dead = play.dead;
      const limitPly = dead.firstUsePly + 10;
      const deadline = play.truth.find((e) => e.kind === "move" && e.ply === limitPly)?.t ?? Infinity;
      const f = [...forks].reverse().find((x) => x.t <= deadline);
      const s = [...states].reverse().find((x) => x.now <= deadline && f && x.fork === f.t);
      const sq2 = o.real.dead.square;
      let k2;
      if (!f) k2 = "no doubt before deadline";
      else if (!f.sq.includes(sq2)) k2 = "doubt without the true square";
      else {
        const open = s ? s.open : f.sq;
        const resolvedBefore = states.some((x) => x.fork === f.t && x.now <= deadline && x.open.length <= 1);
        k2 = resolvedBefore ? "doubt resolved before deadline (wrong/fallback)" : open.includes(sq2) && open.length > 1 ? "true world open with others at deadline" : "other";
      }
      k2 += " / " + o.real.dead.reads + (f ? " worlds " + f.sq.length : "");
      tally[k2] = (tally[k2] ?? 0) + 1;
      if (k2.startsWith("no doubt") || k2.startsWith("doubt without")) console.log(k2, g.label, sensing, JSON.stringify(o.real.dead));
    });
  }
console.log(tally);
