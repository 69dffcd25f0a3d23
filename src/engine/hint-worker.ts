/**
 * The hint engine's worker script, for a build that makes it an entry of its own (scripts/build.mjs:
 * `'hint-worker': 'src/engine/hint-worker.ts'`, beside `xqboard` and `bench`): the worker then
 * loads the engine alone instead of the chunk the controller's code shares with it. Without that
 * entry the chunk itself is the worker's script (hints.ts), which works as well.
 */
import './hints.js';
