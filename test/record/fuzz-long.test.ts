/**
 * The readers of files people hand us, fuzzed (test/record/fuzz-suite.ts) at length: 2,000 inputs
 * a reader, in the oracle project (the unit project's test/record/fuzz.test.ts runs 100).
 */
import { fuzzTheReaders } from './fuzz-suite.js';

fuzzTheReaders(2000);
