/**
 * Column names: snake_case in SQL, camelCase in code (the convention knex's mappers apply to every row, knex.ts).
 */

/** The column name of camelCase `name`: `createdAt` → `created_at`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
