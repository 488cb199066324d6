// What a --db value names: a PostgreSQL URL or a SQLite file; and how to show it without its password.

/** True for --db values that name PostgreSQL rather than a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(db);
}

/** The value as it may be printed: a URL's password (and any password parameter) replaced by ***. */
export function redactDatabase(db: string): string {
  if (!isPostgresUrl(db)) return db;
  try {
    const parsed = new URL(db);
    if (parsed.password) parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()]) if (/pass/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString();
  } catch {
    return db.replace(/\/\/[^@/]*@/, '//***@');
  }
}
