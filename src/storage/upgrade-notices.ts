// What opening a database did that its operator should hear of at start (docs/operations.md, "Upgrading"): a
// database made before roles gets its oldest account as admin, and the start-up output names it.

/** SQLite's migration 011 and PostgreSQL's 005 bring roles (sql/migrations/011-roles-audit.sql). */
export const ROLES_MIGRATION = { sqlite: 11, postgres: 5 } as const;

export const FIRST_ADMIN_SQL = "SELECT login FROM users WHERE role = 'admin' ORDER BY created_at, id LIMIT 1";

export function upgradeNotices(adminLogin: string | undefined): string[] {
  if (adminLogin === undefined) return [];
  return [`the database was upgraded to roles: its oldest account, ${adminLogin}, is now an admin and can invite people`];
}
