/**
 * Reading a pasted `.env` file line by line with the `dotenv` package's parser (`KEY=value`, `export KEY=value`,
 * `KEY: value`, single, double and back quotes, `#` comments, multi-line quoted values, `\n` in double quotes),
 * so that every line that is not applied is named: the parser itself skips what it cannot read and keeps the last
 * of two equal names, silently. Each entry (a line, or the lines of one quoted value) is handed to `dotenv.parse`
 * alone; what it yields is then checked with the variable rules of application.input.ts.
 */
import { parse } from "dotenv";
import { ENV_KEY, envValueSchema, INVALID_ENV_KEY, MAX_ENV_KEY } from "./application.input.ts";

/** One variable read from a paste, with the line it starts on (from 1). */
export interface PastedVariable {
  line: number;
  key: string;
  value: string;
}

/** A line of a paste that is not applied, and why (never with the value). */
export interface PasteProblem {
  line: number;
  key?: string;
  message: string;
}

/** Where an entry starting on `lines[i]` with an opening quote ends: the index of its last line, or -1 (unclosed). */
function closingLine(lines: readonly string[], i: number, quote: string, afterQuote: number): number {
  const closing = quote === "`" ? /^[^`]*`/ : quote === "'" ? /^(?:\\'|[^'])*'/ : /^(?:\\"|[^"])*"/;
  let rest = lines[i]!.slice(afterQuote);
  for (let j = i; j < lines.length; j++) {
    if (closing.test(rest)) return j;
    rest = `${rest}\n${lines[j + 1] ?? ""}`;
  }
  return -1;
}

/**
 * The variables of `text` in order, and the problems: lines that are not `KEY=value`, invalid names (letters,
 * digits and `_`, not starting with a digit, at most 253 characters), a name given twice (`Duplicate of line N`),
 * a value the variable rules refuse (over 32768 characters, or holding NUL), a quoted value never closed. Blank lines and `#` comments are skipped.
 */
export function readDotenvPaste(text: string): { variables: PastedVariable[]; problems: PasteProblem[] } {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const variables: PastedVariable[] = [];
  const problems: PasteProblem[] = [];
  const firstLine = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const lineNo = i + 1;
    if (!line.trim() || line.trim().startsWith("#")) continue;
    let last = i;
    const opening = /^\s*(?:export\s+)?[^\s=:]+(?:\s*=\s*|:\s+)(['"`])/.exec(line);
    if (opening) {
      last = closingLine(lines, i, opening[1]!, opening[0].length);
      if (last < 0) {
        problems.push({ line: lineNo, message: `Unterminated quoted value (no closing ${opening[1]})` });
        break;
      }
    }
    const entry = lines.slice(i, last + 1).join("\n");
    i = last;
    const parsed = Object.entries(parse(entry));
    if (parsed.length !== 1) {
      problems.push({ line: lineNo, message: "Not a KEY=value line" });
      continue;
    }
    const [key, value] = parsed[0]!;
    if (!ENV_KEY.test(key) || key.length > MAX_ENV_KEY) {
      problems.push({ line: lineNo, key, message: INVALID_ENV_KEY });
      continue;
    }
    const earlier = firstLine.get(key);
    if (earlier !== undefined) {
      problems.push({ line: lineNo, key, message: `Duplicate of line ${earlier}` });
      continue;
    }
    firstLine.set(key, lineNo);
    const checked = envValueSchema.safeParse(value);
    if (!checked.success) {
      problems.push({ line: lineNo, key, message: `Value: ${checked.error.issues[0]!.message}` });
      continue;
    }
    variables.push({ line: lineNo, key, value });
  }
  return { variables, problems };
}
