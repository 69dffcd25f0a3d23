/** Results from outside input: errors are values with a code, never exceptions. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };
export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const err = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });

/** An error as a value: a code programs test, a message people read (what and where). */
export interface CodedError<C extends string = string> {
  readonly code: C;
  readonly message: string;
}
