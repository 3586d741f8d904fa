/**
 * Helpers for DataLoader batch functions: results must come back in key order, one entry per key.
 */

/** Maps rows to `keys` order by `keyOf(row)`; missing keys give null. */
export function orderByKeys<K, R>(keys: readonly K[], rows: readonly R[], keyOf: (row: R) => K): (R | null)[] {
  const byKey = new Map<K, R>();
  for (const row of rows) byKey.set(keyOf(row), row);
  return keys.map((k) => byKey.get(k) ?? null);
}

/**
 * Keeps the rows whose parent (`parentOf(row)`) loads through `parentLoader`, which applies visibility:
 * a child of an invisible parent is invisible too.
 */
export async function withVisibleParent<R, P>(
  rows: R[],
  parentOf: (row: R) => string,
  parentLoader: { loadMany(keys: readonly string[]): Promise<Array<P | null | Error>> },
): Promise<R[]> {
  const parents = await parentLoader.loadMany(rows.map(parentOf));
  return rows.filter((_, i) => {
    const parent = parents[i];
    return parent !== null && parent !== undefined && !(parent instanceof Error);
  });
}
