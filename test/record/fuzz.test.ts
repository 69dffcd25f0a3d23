/** The readers of files people hand us, fuzzed (test/record/fuzz-suite.ts): 100 inputs a reader. */
import { fuzzTheReaders } from './fuzz-suite.js';

fuzzTheReaders(100);
