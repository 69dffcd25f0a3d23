/**
 * The embedded broker's worker script (`mqtt.brokerThread: true`), an entry of the build of its
 * own (scripts/build.mjs) so the worker loads the broker alone, not the controller's shared chunk.
 */
import './broker-thread.js';
