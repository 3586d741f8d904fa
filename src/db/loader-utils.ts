/**
 * Helpers for DataLoader batch functions: results must come back in key order, one entry per key.
 */

/** Maps rows to `keys` order by `keyOf(row)`; missing keys give null. */
export function orderByKeys<K, R>(keys: readonly K[], rows: readonly R[], keyOf: (row: R) => K): (R | null)[] {
  const byKey = new Map<K, R>();
  for (const row of rows) byKey.set(keyOf(row), row);
  return keys.map((k) => byKey.get(k) ?? null);
}

/** Groups rows under `keys` by `keyOf(row)`, keeping row order; a key without rows gets []. */
export function groupByKeys<K, R>(keys: readonly K[], rows: readonly R[], keyOf: (row: R) => K): R[][] {
  const groups = new Map<K, R[]>();
  for (const k of keys) groups.set(k, []);
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((k) => groups.get(k) ?? []);
}

/** Cache key function for DataLoaders keyed by small plain objects. */
export const jsonKey = (key: unknown): string => JSON.stringify(key);
