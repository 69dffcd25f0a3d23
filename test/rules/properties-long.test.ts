/** The rules' properties (test/rules/properties-suite.ts) at their full number of runs: the oracle project. */
import { propertiesOfTheRules } from './properties-suite.js';

propertiesOfTheRules(1);
