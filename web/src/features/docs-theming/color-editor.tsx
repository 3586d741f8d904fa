/**
 * One palette (light or dark) of the docs theme: per entry a colour picker and the HSL triple the API stores (both
 * labelled, kept in step), a Remove button, and a form adding an entry (camelCase name such as `accent`).
 */
import { useId, useState } from "react";
import { hexToHsl, hslToHex, parseHsl } from "./hsl.ts";

/** A palette: entry name → HSL triple. */
export type Palette = Record<string, string>;

/** One entry: picker and text field. */
function ColorRow({
  mode,
  name,
  value,
  onChange,
  onRemove,
}: {
  mode: string;
  name: string;
  value: string;
  onChange: (v: string) => void;
  onRemove?: () => void;
}) {
  const id = useId();
  const valid = parseHsl(value) !== null;
  return (
    <div className="row color-row">
      <input
        type="color"
        aria-label={`${mode} ${name} colour picker`}
        value={hslToHex(value)}
        onChange={(e) => onChange(hexToHsl(e.target.value))}
      />
      <div className="field">
        <label htmlFor={id}>
          {mode} <code>{name}</code> (HSL)
        </label>
        <input
          id={id}
          className="mono"
          value={value}
          aria-invalid={!valid}
          aria-describedby={valid ? undefined : `${id}-err`}
          onChange={(e) => onChange(e.target.value)}
        />
        {!valid && (
          <small id={`${id}-err`} className="hint">
            Write hue, saturation and lightness, e.g. <code>222 47% 11%</code>.
          </small>
        )}
      </div>
      {onRemove && (
        <button type="button" onClick={onRemove} aria-label={`Remove ${mode} ${name}`}>
          Remove
        </button>
      )}
    </div>
  );
}

/** The editor of one palette (`primary` cannot be removed). */
export function PaletteEditor({
  mode,
  palette,
  onChange,
}: {
  mode: "Light" | "Dark";
  palette: Palette;
  onChange: (p: Palette) => void;
}) {
  const [name, setName] = useState("");
  const nameId = useId();
  return (
    <fieldset>
      <legend>{mode} colours</legend>
      {Object.entries(palette).map(([k, v]) => (
        <ColorRow
          key={k}
          mode={mode}
          name={k}
          value={v}
          onChange={(next) => onChange({ ...palette, [k]: next })}
          onRemove={
            k === "primary"
              ? undefined
              : () => {
                  const { [k]: _gone, ...rest } = palette;
                  onChange(rest);
                }
          }
        />
      ))}
      <div className="row">
        <div className="field">
          <label htmlFor={nameId}>New {mode.toLowerCase()} colour name</label>
          <input id={nameId} value={name} placeholder="accent" onChange={(e) => setName(e.target.value.trim())} />
        </div>
        <button
          type="button"
          disabled={!/^[a-z][a-zA-Z0-9]{0,39}$/.test(name) || name in palette}
          onClick={() => {
            onChange({ ...palette, [name]: palette.primary ?? "0 0% 50%" });
            setName("");
          }}
        >
          Add {mode.toLowerCase()} colour
        </button>
      </div>
    </fieldset>
  );
}
