/** Small accessible form pieces: a labelled field, an alert region, a copy button and a shown-once secret. */
import { type InputHTMLAttributes, type ReactNode, useId, useState } from "react";

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

/** A button copying `text` to the clipboard; says "Copied" (announced) once done. */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={label}
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => undefined);
        setCopied(true);
      }}
    >
      <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
    </button>
  );
}

/** A secret shown once, read-only, with a copy button. */
export function SecretOnce({ label, secret }: { label: string; secret: string }) {
  const id = useId();
  return (
    <div className="secret" role="status">
      <label htmlFor={id}>{label}</label>
      <p className="hint">Copy it now: it is shown only once.</p>
      <div className="row">
        <input id={id} readOnly value={secret} onFocus={(e) => e.currentTarget.select()} data-testid="secret" />
        <CopyButton text={secret} />
      </div>
    </div>
  );
}

/**
 * An inline confirmation (a labelled group): what will happen, a danger button that confirms and a Cancel button.
 */
export function ConfirmBox({
  label,
  confirmText,
  busy,
  onConfirm,
  onCancel,
  children,
}: {
  label: string;
  confirmText: string;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <fieldset className="confirm" aria-label={label}>
      <p>{children}</p>
      <div className="row">
        <button type="button" className="danger" disabled={busy} onClick={onConfirm}>
          {confirmText}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}
