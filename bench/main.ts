/** `npm run bench`: speed figures of every part, printed as a table. */
import { benchRules } from './rules.js';

const sections: [string, () => Promise<void>][] = [['rules: perft nodes/s', benchRules]];

for (const [title, run] of sections) {
  console.log(`\n== ${title}`);
  await run();
}
