/** Wording helpers for the pages. */

/** `n` and the noun, singular for one: `count(1, "project")` is "1 project", `count(2, "project")` "2 projects". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** Names joined for a sentence: "a", "a and b", "a, b and c". */
export function listed(names: string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
