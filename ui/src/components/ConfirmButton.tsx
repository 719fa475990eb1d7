import { useEffect, useRef, useState } from "react";
import { useStrings } from "../i18n";

/** A button whose action is asked about first, in the window (a native dialog may not
 * show in every webview): the question with Yes and Cancel in its place, Yes focused,
 * Escape cancels. */
export function ConfirmButton(props: {
  label: string;
  question: string;
  yes: string;
  onConfirm: () => void;
  className?: string;
  disabled?: boolean;
  testId?: string;
}) {
  const t = useStrings();
  const [asking, setAsking] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    // Back to the button the question replaced, for the keyboard.
    if (wasAsking.current && !asking) button.current?.focus();
    wasAsking.current = asking;
  }, [asking]);
  if (!asking) {
    return (
      <button ref={button} type="button" className={props.className} disabled={props.disabled} data-testid={props.testId} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <span
      className="confirm-inline"
      role="alertdialog"
      aria-label={props.question}
      data-testid={props.testId && `${props.testId}-confirm`}
      onKeyDown={(e) => e.key === "Escape" && setAsking(false)}
    >
      <span className="small">{props.question}</span>
      <button
        type="button"
        className="confirm-yes small"
        autoFocus
        data-testid={props.testId && `${props.testId}-yes`}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.yes}
      </button>
      <button type="button" className="ghost small" onClick={() => setAsking(false)}>
        {t.cancel}
      </button>
    </span>
  );
}
