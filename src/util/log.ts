/** Where the controller's parts report; `silentLogger` for tests. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export const stderrLogger: Logger = {
  info: (m) => process.stderr.write(`xqboard: ${m}\n`),
  warn: (m) => process.stderr.write(`xqboard: warning: ${m}\n`),
  error: (m) => process.stderr.write(`xqboard: error: ${m}\n`),
};
