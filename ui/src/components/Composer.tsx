import { forwardRef, useEffect, useState, type KeyboardEvent } from "react";
import { api, type CommandHelp } from "../api";
import { useStrings } from "../i18n";

interface Props {
  busy: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}

/** The commands a "/…" being typed could be: while the first word is still being typed. */
function matching(text: string, table: CommandHelp[]): CommandHelp[] {
  if (!text.startsWith("/") || /\s/.test(text)) return [];
  const typed = text.toLowerCase();
  return table.filter((c) => c.command.startsWith(typed));
}

/**
 * Enter sends, Shift+Enter starts a new line, Escape stops a reply being written.
 * Typing "/" opens the palette of commands (the core's table): arrows move, Enter or
 * Tab picks, Escape closes.
 */
export const Composer = forwardRef<HTMLTextAreaElement, Props>(function Composer(
  { busy, onSend, onStop },
  ref,
) {
  const t = useStrings();
  const [text, setText] = useState("");
  const [table, setTable] = useState<CommandHelp[]>([]);
  const [chosen, setChosen] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  useEffect(() => {
    api.commandTable().then((commands) => setTable(commands ?? [])).catch(() => setTable([]));
  }, []);
  const palette = dismissed ? [] : matching(text, table);
  const pick = (command: CommandHelp) => {
    setText(command.arguments ? `${command.command} ` : command.command);
    setChosen(0);
  };

  // While a reply is being written a message still goes: the core queues it.
  const submit = () => {
    if (text.trim() === "") return;
    onSend(text);
    setText("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (palette.length > 0) {
      const at = Math.min(chosen, palette.length - 1);
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        setChosen((at + (e.key === "ArrowDown" ? 1 : palette.length - 1)) % palette.length);
        return;
      }
      // Enter on a command typed in full sends it (each works without arguments);
      // on a part of one it picks. Tab always picks.
      if (e.key === "Tab" || (e.key === "Enter" && !palette.some((c) => c.command === text))) {
        e.preventDefault();
        pick(palette[at]);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setDismissed(true);
        return;
      }
    }
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
      {palette.length > 0 && (
        <ul className="palette" role="listbox" aria-label={t.paletteLabel} data-testid="palette">
          {palette.map((c, i) => (
            <li
              key={c.command}
              role="option"
              aria-selected={i === Math.min(chosen, palette.length - 1)}
              className={i === Math.min(chosen, palette.length - 1) ? "chosen" : ""}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(c);
              }}
              data-testid="palette-item"
            >
              <code>
                {c.command}
                {c.arguments && <span className="muted"> {c.arguments}</span>}
              </code>
              <span className="muted small">{c.description}</span>
            </li>
          ))}
        </ul>
      )}
      <textarea
        ref={ref}
        data-testid="composer"
        value={text}
        placeholder={t.placeholder}
        aria-label={t.placeholder}
        rows={Math.min(8, Math.max(1, text.split("\n").length))}
        onChange={(e) => {
          setText(e.target.value);
          setChosen(0);
          setDismissed(false);
        }}
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
