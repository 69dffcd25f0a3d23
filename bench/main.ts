/** `npm run bench`: speed figures of every part, printed as a table. */
import { benchEngine, ENGINE_CHILD, engineMemoryChild } from './engine.js';
import { benchFanout } from './fanout.js';
import { benchGame } from './game.js';
import { benchMqtt } from './mqtt.js';
import { benchRecord } from './record.js';
import { benchRules } from './rules.js';
import { benchSensorLog } from './sensor-log.js';
import { benchSensors } from './sensors.js';
import { benchTracker } from './tracker.js';

const sections: [string, () => Promise<void>][] = [
  ['rules: perft nodes/s, xqboard against Fairy-Stockfish (WebAssembly)', benchRules],
  ['engine: Fairy-Stockfish depth in 1 s, first hint after start-up, controller memory', benchEngine],
  ['game: cost of a move in the game model, time to judge a repetition', benchGame],
  [
    'sensor log: lines read and written per second, replayed events per second into a move reader',
    benchSensorLog,
  ],
  ['sensors: snapshots parsed/s, last byte → snapshot event (serial driver)', benchSensors],
  ['move reader: frames/s, µs per frame, completing frame → move event (p50/p99)', benchTracker],
  ['records: PGN games/s streamed and replayed, written and read back per notation', benchRecord],
  ['controller: completing frame → MQTT move message (journal fsync included), p50/p99', benchMqtt],
  [
    'fan-out: 1,000 viewers over TCP and WebSocket, embedded broker vs Mosquitto, p50/p99, move reader meanwhile, controller memory',
    benchFanout,
  ],
];

// `npm run bench -- "move reader"` runs only the sections whose title contains one of the words.
const only = process.argv.slice(2);
// The engine section measures a controller in a process of its own (this script, run again).
if (only.includes(ENGINE_CHILD)) {
  await engineMemoryChild();
  process.exit(0);
}
for (const [title, run] of sections) {
  if (only.length > 0 && !only.some((w) => title.includes(w))) continue;
  console.log(`\n== ${title}`);
  await run();
}
