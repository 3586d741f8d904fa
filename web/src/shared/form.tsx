/**
 * Small accessible form pieces: a labelled field (with its refusal under it), an alert region, a copy button, a
 * shown-once secret, and inline confirmations and forms that take focus when they open and give it back when they
 * close.
 */
import {
  type FormHTMLAttributes,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";

/**
 * A text input with its visible label and an optional hint, both tied by aria-describedby. `error`: the field's
 * refusal, shown under it instead of the hint (announced; the input is marked aria-invalid).
 */
export function Field({
  label,
  hint,
  error,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; error?: string | null }) {
  const id = useId();
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={described} aria-invalid={error ? true : undefined} {...input} />
      {error ? (
        <FieldError id={`${id}-error`}>{error}</FieldError>
      ) : (
        hint && (
          <small id={`${id}-hint`} className="hint">
            {hint}
          </small>
        )
      )}
    </div>
  );
}

/** The refusal of one field, under it (its input points at `id` with aria-describedby and is aria-invalid). */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <small id={id} className="hint field-error" role="alert">
      {children}
    </small>
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

/** Whether `el` is in the page and rendered (not removed, not hidden). */
function shown(el: Element | null): el is HTMLElement {
  return !!el && el.isConnected && el.getClientRects().length > 0;
}

/**
 * Where focus goes when what held it went away, looked for from the nearest of `ancestors` still in the page: a
 * `data-landing` child (e.g. the name of the environment or member the removed thing belonged to), else a section's
 * heading, else the main landmark.
 */
function landingIn(ancestors: Element[]): HTMLElement | null {
  for (const el of ancestors) {
    if (!el.isConnected) continue;
    const mark =
      el.querySelector<HTMLElement>(":scope > [data-landing]") ??
      (el.tagName === "SECTION" ? el.querySelector<HTMLElement>(":scope > h2, :scope > h3") : null);
    if (shown(mark)) {
      if (!mark.hasAttribute("tabindex")) mark.tabIndex = -1;
      return mark;
    }
  }
  const main = document.getElementById("main");
  if (main && !main.hasAttribute("tabindex")) main.tabIndex = -1;
  return main;
}

/**
 * Gives focus back after an inline confirmation or form closed: to `previous` (the button that opened it) when it
 * is still shown, else to the button rendered in its place (same `data-opener`, else same aria-label) in the nearest
 * surviving ancestor up to the section, else to a landing near where it was.
 */
function focusBack(previous: Element | null, ancestors: Element[]): void {
  if (shown(previous)) {
    previous.focus();
    return;
  }
  const alive = ancestors.filter((a) => a.isConnected);
  const key = previous?.getAttribute("data-opener");
  const label = previous?.getAttribute("aria-label");
  const selector = key
    ? `[data-opener="${CSS.escape(key)}"]`
    : label && previous?.tagName === "BUTTON"
      ? `button[aria-label="${CSS.escape(label)}"]`
      : null;
  if (selector) {
    for (const el of alive) {
      const twin = el.querySelector(selector);
      if (shown(twin)) {
        twin.focus();
        return;
      }
      if (el.tagName === "SECTION") break;
    }
  }
  landingIn(alive)?.focus();
}

/**
 * Focus for an inline confirmation or form shown in place of (or next to) the button that opened it: on opening,
 * focus moves into it (its first field, else the container itself); when it goes away with focus inside it (Cancel,
 * Escape, saved, or the thing it was about deleted), focus returns to the opener or lands nearby. Escape calls
 * `onEscape`. Attach `ref` and `onKeyDown` to the container.
 */
export function useFocusInside<T extends HTMLElement>(
  onEscape?: () => void,
  into: "field" | "container" = "field",
): { ref: RefObject<T | null>; onKeyDown: (e: KeyboardEvent) => void } {
  const ref = useRef<T>(null);
  // Read while rendering, before the opener may be replaced: the element that had focus when this opened.
  const [previous] = useState(() => (typeof document === "undefined" ? null : document.activeElement));
  const onEscapeRef = useRef(onEscape);
  onEscapeRef.current = onEscape;
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const field =
      into === "field" ? box.querySelector<HTMLElement>("input:not([type=hidden]), select, textarea") : null;
    (field ?? box).focus();
    const ancestors: Element[] = [];
    for (let el = box.parentElement; el; el = el.parentElement) ancestors.push(el);
    return () => {
      const active = document.activeElement;
      // Focus is elsewhere on the page (the person moved on): leave it there.
      if (active && active !== document.body && active.isConnected) return;
      focusBack(previous, ancestors);
    };
  }, [into, previous]);
  return {
    ref,
    onKeyDown: (e) => {
      if (e.key === "Escape" && onEscapeRef.current) {
        e.preventDefault();
        e.stopPropagation();
        onEscapeRef.current();
      }
    },
  };
}

/**
 * A form shown in place when the person asks for it (a step, an inline form): its first field takes focus when it
 * opens, and focus goes back to the opener when it closes ({@link useFocusInside}); Escape calls `onEscape`.
 */
export function FocusedForm({
  onEscape,
  children,
  ...form
}: FormHTMLAttributes<HTMLFormElement> & { onEscape?: () => void; children: ReactNode }) {
  const focus = useFocusInside<HTMLFormElement>(onEscape);
  return (
    <form ref={focus.ref} onKeyDown={focus.onKeyDown} {...form}>
      {children}
    </form>
  );
}

/**
 * An inline confirmation (a labelled group) that takes focus when it opens: what will happen, a danger button that
 * confirms and a Cancel button (Escape cancels too). When it closes focus returns to its opener, or, when the thing
 * it was about is gone, to a landing nearby (see {@link useFocusInside}). `done`: the action succeeded and the
 * confirmation stays only until the page shows the result (the confirm button is disabled meanwhile).
 */
export function ConfirmBox({
  label,
  confirmText,
  cancelText = "Cancel",
  busy,
  done = false,
  onConfirm,
  onCancel,
  children,
}: {
  label: string;
  confirmText: string | null;
  cancelText?: string;
  busy: boolean;
  done?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const focus = useFocusInside<HTMLFieldSetElement>(onCancel, "container");
  return (
    <fieldset className="confirm" aria-label={label} ref={focus.ref} tabIndex={-1} onKeyDown={focus.onKeyDown}>
      <div className="confirm-text">{children}</div>
      <div className="row">
        {confirmText !== null && (
          <button type="button" className="danger" disabled={busy || done} onClick={onConfirm}>
            {confirmText}
          </button>
        )}
        <button type="button" onClick={onCancel}>
          {cancelText}
        </button>
      </div>
    </fieldset>
  );
}
