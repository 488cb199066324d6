// A store's statements, prepared once from one table of their SQL by name: the table is the store's SQL at a
// glance, and no store repeats a field and a prepare line for each statement.
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.ts';

/** The statements of a table of SQL, under the same names. */
export type Statements<T extends Record<string, string>> = { readonly [K in keyof T]: Statement<unknown[]> };

export function prepareStatements<T extends Record<string, string>>(db: Db, sql: T): Statements<T> {
  const prepared: Record<string, Statement<unknown[]>> = {};
  for (const [name, text] of Object.entries(sql)) prepared[name] = db.prepare<unknown[]>(text);
  return prepared as Statements<T>;
}
