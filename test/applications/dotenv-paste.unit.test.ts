/**
 * Reading a pasted `.env` file (src/modules/applications/dotenv-paste.ts): the `dotenv` syntaxes are read, and every
 * line that is not applied is named with its line number and the reason, never with its value.
 */
import { describe, expect, it } from "vitest";
import { INVALID_ENV_KEY, MAX_ENV_VALUE } from "../../src/modules/applications/application.input.ts";
import { readDotenvPaste } from "../../src/modules/applications/dotenv-paste.ts";

describe("readDotenvPaste", () => {
  it("reads KEY=value, export, KEY: value and the three quotes, skipping blanks and comments", () => {
    const text = [
      "# a comment",
      "PLAIN=one",
      "",
      "export EXPORTED=two",
      "COLON: three",
      "SINGLE='four # not a comment'",
      'DOUBLE="five\\nsix"',
      "BACK=`seven`",
    ].join("\n");
    expect(readDotenvPaste(text)).toEqual({
      variables: [
        { line: 2, key: "PLAIN", value: "one" },
        { line: 4, key: "EXPORTED", value: "two" },
        { line: 5, key: "COLON", value: "three" },
        { line: 6, key: "SINGLE", value: "four # not a comment" },
        { line: 7, key: "DOUBLE", value: "five\nsix" },
        { line: 8, key: "BACK", value: "seven" },
      ],
      problems: [],
    });
  });

  it("reads a multi-line quoted value as one entry on the line it starts on, with CRLF line ends", () => {
    const { variables, problems } = readDotenvPaste('KEY="-----BEGIN-----\r\nabc\r\n-----END-----"\r\nNEXT=1');
    expect(problems).toEqual([]);
    expect(variables).toEqual([
      { line: 1, key: "KEY", value: "-----BEGIN-----\nabc\n-----END-----" },
      { line: 4, key: "NEXT", value: "1" },
    ]);
  });

  it("names lines that are not KEY=value, invalid names and duplicates, without their values", () => {
    const { variables, problems } = readDotenvPaste(["just words", "1BAD=x", "A=1", "A=2"].join("\n"));
    expect(variables).toEqual([{ line: 3, key: "A", value: "1" }]);
    expect(problems).toEqual([
      { line: 1, message: "Not a KEY=value line" },
      { line: 2, key: "1BAD", message: INVALID_ENV_KEY },
      { line: 4, key: "A", message: "Duplicate of line 3" },
    ]);
    expect(JSON.stringify(problems)).not.toContain('"x"');
  });

  it("refuses a value over the limit and stops at a quoted value that is never closed", () => {
    const long = `LONG=${"x".repeat(MAX_ENV_VALUE + 1)}`;
    const { variables, problems } = readDotenvPaste([long, "OK=1", 'OPEN="never closed', "AFTER=2"].join("\n"));
    expect(variables).toEqual([{ line: 2, key: "OK", value: "1" }]);
    expect(problems).toEqual([
      { line: 1, key: "LONG", message: `Value: At most ${MAX_ENV_VALUE} characters` },
      { line: 3, message: 'Unterminated quoted value (no closing ")' },
    ]);
  });

  it("refuses a value holding NUL, which no process environment can hold", () => {
    const { variables, problems } = readDotenvPaste("NUL=a\u0000b\nOK=1");
    expect(variables).toEqual([{ line: 2, key: "OK", value: "1" }]);
    expect(problems).toEqual([{ line: 1, key: "NUL", message: expect.stringContaining("NUL character") }]);
  });
});
