import { forwardRef, useState, type KeyboardEvent } from "react";
import { useStrings } from "../i18n";

interface Props {
  busy: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}

/** Enter sends, Shift+Enter starts a new line, Escape stops a reply being written. */
export const Composer = forwardRef<HTMLTextAreaElement, Props>(function Composer(
  { busy, onSend, onStop },
  ref,
) {
  const t = useStrings();
  const [text, setText] = useState("");

  // While a reply is being written a message still goes: the core queues it.
  const submit = () => {
    if (text.trim() === "") return;
    onSend(text);
    setText("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    } else if (e.key === "Escape" && busy) {
      e.preventDefault();
      onStop();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <textarea
        ref={ref}
        data-testid="composer"
        value={text}
        placeholder={t.placeholder}
        aria-label={t.placeholder}
        rows={Math.min(8, Math.max(1, text.split("\n").length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        autoFocus
      />
      {busy && (
        <button type="button" className="stop" data-testid="stop" onClick={onStop}>
          {t.stop}
        </button>
      )}
      {(!busy || text.trim() !== "") && (
        <button type="submit" className={busy ? "send ghost" : "send"} data-testid="send" disabled={text.trim() === ""} title={busy ? t.queueHint : undefined}>
          {busy ? t.queue : t.send}
        </button>
      )}
    </form>
  );
});
