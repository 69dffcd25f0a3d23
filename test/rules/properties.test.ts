/** The rules' properties (test/rules/properties-suite.ts) at a quarter of their runs: the unit project. */
import { propertiesOfTheRules } from './properties-suite.js';

propertiesOfTheRules(0.25);
