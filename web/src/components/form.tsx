/** Small accessible form pieces: a labelled field, an alert region and a shown-once secret with a copy button. */
import { type InputHTMLAttributes, useId, useState } from "react";

/** A text input with its visible label (and an optional hint tied by aria-describedby). */
export function Field({
  label,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

/** An error (role=alert) or a notice (role=status); renders nothing without a message. */
export function Message({ kind, children }: { kind: "error" | "info" | "success"; children: React.ReactNode }) {
  if (!children) return null;
  return (
    <div className={`message ${kind}`} role={kind === "error" ? "alert" : "status"}>
      {kind === "error" ? "Error: " : ""}
      {children}
    </div>
  );
}

/** A secret shown once, read-only, with a copy button. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="secret" role="status">
      <label htmlFor={id}>{label}</label>
      <p className="hint">Copy it now: it is shown only once.</p>
      <div className="row">
        <input id={id} readOnly value={secret} onFocus={(e) => e.currentTarget.select()} data-testid="secret" />
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard?.writeText(secret).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
