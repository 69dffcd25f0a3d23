/** The pieces' characters, shared by the controller's page and the viewer page. */
import type { Color, Role } from '../../rules/index.js';

export const GLYPH: Record<Color, Record<Role, string>> = {
  red: { king: '帅', advisor: '仕', elephant: '相', horse: '马', chariot: '车', cannon: '炮', pawn: '兵' },
  black: { king: '将', advisor: '士', elephant: '象', horse: '马', chariot: '车', cannon: '炮', pawn: '卒' },
};
