#!/usr/bin/env node
// A scripted engine for the protocol tests: speaks UCI or UCCI on stdin/stdout, writes every
// command it receives to a log file, and misbehaves on request.
//   node fake-engine.mjs <uci|ucci> <behaviour> <log file> [crash marker file]
// behaviours: normal (bestmove after an info line), none (`bestmove (none)` / `nobestmove`),
// silent (never answers `go`), mute (never answers the handshake), crash-once (exits on the
// first `go` while the marker file does not exist, creating it), crash (exits on every `go`),
// ranks1 (calls itself Fairy-Stockfish and writes ranks 1-10), seconds (UCCI without usemillisec),
// slow-start (answers the handshake only after 1.5 s, as the WebAssembly engine on a busy machine).
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [dialect, behaviour, log, marker] = process.argv.slice(2);
const ucci = dialect === 'ucci';
const say = (line) => process.stdout.write(`${line}\n`);
const name = behaviour === 'ranks1' ? 'Fairy-Stockfish fake' : `fake ${dialect} engine`;

createInterface({ input: process.stdin }).on('line', (line) => {
  appendFileSync(log, `${line}\n`);
  const [command] = line.split(' ');
  if (command === (ucci ? 'ucci' : 'uci')) {
    if (behaviour === 'mute') return;
    const answer = () => {
      say(`id name ${name}`);
      say('id author xqboard tests');
      if (!ucci) say('option name Hash type spin default 16 min 1 max 1024');
      else if (behaviour !== 'seconds') say('option usemillisec type check default false');
      if (!ucci) say('option name Skill Level type spin default 20 min 0 max 20');
      say(ucci ? 'ucciok' : 'uciok');
    };
    if (behaviour === 'slow-start') setTimeout(answer, 1500);
    else answer();
  } else if (command === 'isready') say('readyok');
  else if (command === 'go') {
    if (behaviour === 'silent') return;
    if (behaviour === 'crash' || (behaviour === 'crash-once' && !existsSync(marker))) {
      if (marker) writeFileSync(marker, 'crashed\n');
      process.exit(3);
    }
    if (behaviour === 'none') {
      say(ucci ? 'nobestmove' : 'bestmove (none)');
      return;
    }
    const move = behaviour === 'ranks1' ? 'h3e3' : 'h2e2';
    say(
      ucci
        ? `info depth 7 score 35 pv ${move} h9g7`
        : `info depth 7 seldepth 9 score cp 35 nodes 12345 pv ${move} h9g7`,
    );
    say(
      ucci ? 'info depth 8 score 41 pv h2e2 h9g7 h0g2' : `info depth 8 score mate 3 nodes 23456 pv ${move}`,
    );
    setTimeout(() => say(`bestmove ${move}${ucci ? '' : ' ponder h9g7'}`), 20);
  } else if (command === 'quit') process.exit(0);
});
