/** The subscribers of a source (or of anything that emits events), called in order of subscription. */
export class Listeners<E> {
  private readonly set = new Set<(event: E) => void>();

  /** Returns the unsubscribe function. */
  add(listener: (event: E) => void): () => void {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  }

  emit(event: E): void {
    for (const listener of this.set) listener(event);
  }
}
