import { parseArgs } from 'node:util';
import { INITIAL_FEN, Position, parseFen, perft, perftDivide } from '../../rules/index.js';
import { type Command, UsageError } from '../command.js';

export const perftCommand: Command = {
  name: 'perft',
  summary: 'count the leaf nodes of the legal move tree of a position',
  help: `Usage: xqboard perft FEN DEPTH [--divide] [--json]

Counts the positions reached by every sequence of DEPTH legal moves from FEN
(use "startpos" for the start position). The count is the last line printed.

  --divide   first one line per legal move, "h2e2: 1234", then the total
  --json     one line: {"nodes":N,"ms":T} (T = time spent counting)

Exit status 2 for a FEN that is not a legal position or a bad depth.`,
  run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { divide: { type: 'boolean' }, json: { type: 'boolean' } },
      allowPositionals: true,
    });
    if (positionals.length !== 2)
      throw new UsageError('perft takes FEN and DEPTH (see xqboard perft --help)');
    const [fenArg, depthArg] = positionals as [string, string];
    if (!/^\d+$/.test(depthArg) || Number(depthArg) > 12) {
      throw new UsageError(`depth '${depthArg}' must be a whole number from 0 to 12`);
    }
    const depth = Number(depthArg);
    const setup = parseFen(fenArg === 'startpos' ? INITIAL_FEN : fenArg);
    if (!setup.ok) throw new UsageError(`bad FEN (${setup.error.code}): ${setup.error.message}`);
    const pos = Position.fromSetup(setup.value);
    if (!pos.ok) throw new UsageError(`illegal position (${pos.error.code}): ${pos.error.message}`);
    const started = performance.now();
    let nodes: number;
    if (values.divide) {
      const rows = perftDivide(pos.value, depth);
      nodes = depth === 0 ? 1 : rows.reduce((sum, r) => sum + r.nodes, 0);
      if (!values.json) for (const r of rows) io.out(`${r.move}: ${r.nodes}`);
    } else {
      nodes = perft(pos.value, depth);
    }
    const ms = performance.now() - started;
    io.out(values.json ? JSON.stringify({ nodes, ms: Math.round(ms * 10) / 10 }) : String(nodes));
    return 0;
  },
};
