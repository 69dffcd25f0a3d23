/**
 * Reads a YAML configuration file and checks it against the schema. Every error names the file,
 * the line where yaml's node ranges can tell it, and the key path (`boards[1].source.port`).
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import type { z } from 'zod';
import { readFileCapped } from '../record/read-capped.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import { type Config, configSchema } from './schema.js';

export type ConfigErrorCode = 'unreadable' | 'yaml' | 'invalid';

export interface ConfigIssue {
  /** Key path: `['boards', 1, 'source', 'port']`. */
  readonly path: readonly (string | number)[];
  /** 1-based line of the key or value in the file, when known. */
  readonly line?: number;
  readonly message: string;
}

export interface ConfigError extends CodedError<ConfigErrorCode> {
  /** The file, or `(defaults)` / the name given to `parseConfig`. */
  readonly file: string;
  /** Every problem found (the message lists them all, one a line). */
  readonly issues: readonly ConfigIssue[];
}

/** `boards[1].source.port` */
export function formatKeyPath(path: readonly (string | number)[]): string {
  let s = '';
  for (const key of path) s += typeof key === 'number' ? `[${key}]` : s === '' ? key : `.${key}`;
  return s === '' ? '(top level)' : s;
}

const describeIssue = (file: string, i: ConfigIssue): string =>
  `${file}${i.line !== undefined ? `:${i.line}` : ''}: ${i.path.length > 0 ? `${formatKeyPath(i.path)}: ` : ''}${i.message}`;

function configError(
  code: ConfigErrorCode,
  file: string,
  issues: ConfigIssue[],
): { ok: false; error: ConfigError } {
  return err({ code, file, issues, message: issues.map((i) => describeIssue(file, i)).join('\n') });
}

/** The configuration when there is no file: one simulated board, embedded broker, web page. */
export function defaultConfig(): Config {
  return configSchema.parse({});
}

/** A configuration is a few KiB: more than this is not one (`/dev/zero`, a log given by mistake). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Reads and checks the file; without a path, the defaults. */
export function loadConfig(path?: string): Result<Config, ConfigError> {
  if (path === undefined) return ok(defaultConfig());
  let bytes: Buffer | undefined;
  try {
    bytes = readFileCapped(path, MAX_CONFIG_BYTES);
  } catch (e) {
    return configError('unreadable', path, [
      { path: [], message: `cannot read the file: ${(e as Error).message}` },
    ]);
  }
  if (bytes === undefined) {
    return configError('unreadable', path, [
      { path: [], message: `not a configuration: more than ${MAX_CONFIG_BYTES} bytes` },
    ]);
  }
  return parseConfig(bytes.toString('utf8'), path);
}

/** Aliases a configuration may expand (anchors reused across boards); a "billion laughs" has far more. */
const MAX_ALIASES = 1000;

/** Checks configuration text; `file` names it in errors. */
export function parseConfig(text: string, file = '(config)'): Result<Config, ConfigError> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true });
  if (doc.errors.length > 0) {
    return configError(
      'yaml',
      file,
      doc.errors.map((e) => ({
        path: [],
        line: lineCounter.linePos(e.pos[0]).line,
        message: `not valid YAML: ${e.message.split('\n')[0]}`,
      })),
    );
  }
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (e) {
    // yaml refuses an alias bomb (ReferenceError) and other documents it cannot build.
    return configError('yaml', file, [
      { path: [], message: `not a usable YAML document: ${(e as Error).message}` },
    ]);
  }
  const value = withoutExtensions(js ?? {});
  const parsed = configSchema.safeParse(value, { reportInput: true });
  if (parsed.success) return ok(parsed.data);
  const lineOf = (path: readonly (string | number)[]): number | undefined => {
    const offset = locate(doc.contents, path);
    return offset === undefined ? undefined : lineCounter.linePos(offset).line;
  };
  const issues: ConfigIssue[] = [];
  for (const issue of parsed.error.issues) {
    const path = issue.path.filter((k): k is string | number => typeof k !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const p = [...path, key];
        issues.push({ path: p, line: lineOf(p), message: `unknown key "${key}"` });
      }
    } else {
      issues.push({ path, line: lineOf(path), message: issueMessage(issue) });
    }
  }
  // In file order, as a reader goes through it (sort is stable: zod's order within a line).
  issues.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
  return configError('invalid', file, issues);
}

/** Top-level keys starting with `x-` hold YAML anchors to reuse (as in docker-compose): not settings. */
function withoutExtensions(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !key.startsWith('x-')));
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined)
    return `is required (${typeName(issue.expected)})`;
  if (issue.code === 'invalid_type')
    return `expected ${typeName(issue.expected)}, got ${describeValue(issue.input)}`;
  // A discriminated union (e.g. `driver`) names its options; the type does not declare them.
  const options = (issue as { options?: unknown }).options;
  if (issue.code === 'invalid_union' && Array.isArray(options)) {
    return `must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`;
  }
  if (issue.code === 'invalid_value') {
    return `must be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${describeValue(issue.input)}`;
  }
  return issue.message;
}

/** zod's type names in YAML's words. */
const typeName = (expected: string): string =>
  expected === 'object'
    ? 'a mapping'
    : expected === 'array'
      ? 'a list'
      : expected === 'int'
        ? 'a whole number'
        : `a ${expected}`;

const describeValue = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : JSON.stringify(v);

/**
 * Offset in the text of the deepest node on `path`: the key itself for a map entry (so an unknown
 * key points at its own line), the parent when the key is missing.
 */
function locate(root: unknown, path: readonly (string | number)[]): number | undefined {
  let node: unknown = root;
  let offset = rangeStart(root);
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(key),
      );
      if (!pair) break;
      offset = rangeStart(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof key === 'number') {
      const item = node.items[key];
      if (item === undefined) break;
      offset = rangeStart(item) ?? offset;
      node = item;
    } else break;
  }
  return offset;
}

const rangeStart = (node: unknown): number | undefined =>
  node && typeof node === 'object' && 'range' in node ? (node as Node).range?.[0] : undefined;
