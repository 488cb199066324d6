// One way to run SQL on PostgreSQL: `?` placeholders numbered, statements prepared once per connection, errors mapped.
import type { RefusedWrites } from '../refused-writes.ts';
import { mapError, type Queryable } from './driver.ts';
import { numberPlaceholders } from './query-sql.ts';

/** A statement's name, the same for the same text in every connection (pg prepares a named statement once per connection). */
const names = new Map<string, string>();
const MAX_NAMED = 2000;

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined) {
    // Query shapes are bounded (fields x operators); past the bound a text runs unnamed rather than growing the cache.
    if (names.size >= MAX_NAMED) return undefined;
    name = `chat_${names.size}`;
    names.set(text, name);
  }
  return name;
}

/** Runs our SQL (with `?`) on a pool or one connection. */
export class Sql {
  private readonly db: Queryable;
  private readonly refused?: RefusedWrites;

  /** `refused` notes a write the database refused (read-only, full), for /health. */
  constructor(db: Queryable, refused?: RefusedWrites) {
    this.db = db;
    this.refused = refused;
  }

  async rows<R>(text: string, values: unknown[] = []): Promise<R[]> {
    return (await this.run<R>(text, values)).rows;
  }

  async one<R>(text: string, values: unknown[] = []): Promise<R | undefined> {
    return (await this.run<R>(text, values)).rows[0];
  }

  /** How many rows the statement changed. */
  async count(text: string, values: unknown[] = []): Promise<number> {
    return (await this.run(text, values)).rowCount ?? 0;
  }

  async run<R>(text: string, values: unknown[] = []): Promise<{ rows: R[]; rowCount: number | null }> {
    const numbered = numberPlaceholders(text);
    try {
      return await (this.db.query as (config: unknown) => Promise<{ rows: R[]; rowCount: number | null }>)({ name: nameOf(numbered), text: numbered, values });
    } catch (error) {
      const mapped = mapError(error);
      this.refused?.note(mapped);
      throw mapped;
    }
  }
}
