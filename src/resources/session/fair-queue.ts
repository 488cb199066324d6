// Waiters kept per key (a client address), taken round-robin between keys and in arrival order within one.

export class FairQueue<T> {
  /** In turn order: the key served next comes first; a key that was served moves to the end. */
  private readonly lines = new Map<string, T[]>();
  private total = 0;

  get size(): number {
    return this.total;
  }

  /** How many of `key`'s items wait. */
  countOf(key: string): number {
    return this.lines.get(key)?.length ?? 0;
  }

  push(key: string, item: T): void {
    const line = this.lines.get(key);
    if (line) line.push(item);
    else this.lines.set(key, [item]);
    this.total++;
  }

  /**
   * The oldest item of the first key in turn that `eligible` accepts (a key at its share of the slots is
   * skipped, not dropped); that key then goes to the back of the turn, so no key is served twice while
   * another eligible key waits.
   */
  shift(eligible: (key: string) => boolean = () => true): T | undefined {
    for (const [key, line] of this.lines) {
      if (!eligible(key)) continue;
      const item = line.shift()!;
      this.lines.delete(key);
      if (line.length > 0) this.lines.set(key, line);
      this.total--;
      return item;
    }
    return undefined;
  }

  /** Takes out one item (its client went away); false when it was not waiting. */
  remove(key: string, item: T): boolean {
    const line = this.lines.get(key);
    const at = line ? line.indexOf(item) : -1;
    if (at === -1) return false;
    line!.splice(at, 1);
    if (line!.length === 0) this.lines.delete(key);
    this.total--;
    return true;
  }
}
