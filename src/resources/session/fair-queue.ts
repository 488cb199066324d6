// Waiters kept per key (a client address), served in turn between keys and in arrival order within one.

interface Entry<T> {
  item: T;
  /** Its start tag: when, in turns, it may start (docs/api.md, Limits: Password hashing). */
  tag: number;
}

/**
 * Start-time fair queueing (Goyal, Vin and Cheng, 1996), one turn per item: an item may start at its key's
 * previous item's end, or now (the start tag of the item served last) for a key that holds nothing, and
 * the smallest start goes first, the oldest key on a tie. So a key with ten items waiting and a key with
 * one take turns, and work a key started without waiting (`served`) counts as its turn: a newcomer's
 * first item goes ahead of the next item of a key that is being served.
 */
export class FairQueue<T> {
  private readonly lines = new Map<string, Entry<T>[]>();
  /** Each key's next start: one turn after its newest item, waiting or served, while the key holds any work. */
  private readonly nextStart = new Map<string, number>();
  /** The start tag of the item served last: "now", in turns. */
  private virtualTime = 0;
  private total = 0;

  get size(): number {
    return this.total;
  }

  private startTag(key: string): number {
    const tag = Math.max(this.virtualTime, this.nextStart.get(key) ?? 0);
    this.nextStart.set(key, tag + 1);
    return tag;
  }

  push(key: string, item: T): void {
    const entry = { item, tag: this.startTag(key) };
    const line = this.lines.get(key);
    if (line) line.push(entry);
    else this.lines.set(key, [entry]);
    this.total++;
  }

  /** The key started work without waiting: that was its turn. */
  served(key: string): void {
    this.virtualTime = this.startTag(key);
  }

  /** The key holds no work any more: it starts afresh, level with the others. */
  forget(key: string): void {
    if (!this.lines.has(key)) this.nextStart.delete(key);
  }

  /** The item with the smallest tag among keys `eligible` accepts (a key at its share of the slots is skipped, not dropped). */
  shift(eligible: (key: string) => boolean = () => true): T | undefined {
    let chosen: string | undefined;
    let best = Number.POSITIVE_INFINITY;
    for (const [key, line] of this.lines) {
      if (line[0]!.tag < best && eligible(key)) {
        chosen = key;
        best = line[0]!.tag;
      }
    }
    if (chosen === undefined) return undefined;
    const line = this.lines.get(chosen)!;
    const entry = line.shift()!;
    if (line.length === 0) this.lines.delete(chosen);
    this.virtualTime = Math.max(this.virtualTime, entry.tag);
    this.total--;
    return entry.item;
  }

  /** Takes out one item (its client went away); false when it was not waiting. */
  remove(key: string, item: T): boolean {
    const line = this.lines.get(key);
    const at = line ? line.findIndex((entry) => entry.item === item) : -1;
    if (at === -1) return false;
    line!.splice(at, 1);
    if (line!.length === 0) this.lines.delete(key);
    this.total--;
    return true;
  }
}
