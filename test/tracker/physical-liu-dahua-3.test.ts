// Quarter 3 of the 1,125 master games (the quarters are files of their own to run in parallel).
import { liuDahuaPart } from './physical-support.js';

liuDahuaPart(3);
