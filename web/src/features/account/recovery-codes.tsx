/** Recovery codes shown once: the list, a copy button and a download as a text file. */
import { CopyButton } from "../../shared/form.tsx";

/** The codes with copy and download; they are not shown again once the person leaves the page. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const text = `${codes.join("\n")}\n`;
  return (
    <div className="secret" role="status">
      <h3>Recovery codes</h3>
      <p className="hint">
        Keep them somewhere safe: each one signs you in once when you do not have your authenticator. They are shown
        only now.
      </p>
      <ul className="codes" data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <div className="row">
        <CopyButton text={text} label="Copy the recovery codes" />
        <a download="skiff-recovery-codes.txt" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}>
          Download as a text file
        </a>
      </div>
    </div>
  );
}
