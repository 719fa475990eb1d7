import { api, toCommandError, type SuspectLine } from "../../api";
import { useStrings } from "../../i18n";

/** The lines held out of the prompt for reading as instructions, each kept or removed by the user. */
export function SuspectLines({ lines, onChanged, onMessage }: { lines: SuspectLine[]; onChanged: () => void; onMessage: (text: string) => void }) {
  const t = useStrings();
  if (lines.length === 0) return null;
  const act = (done: Promise<void>) => done.then(onChanged).catch((e) => onMessage(toCommandError(e).message));
  return (
    <div className="info suspect" role="alert" data-testid="suspect-lines">
      <p>{t.suspectTitle}</p>
      <ul>
        {lines.map((l) => (
          <li key={`${l.file}:${l.line}`} data-testid="suspect-line">
            <span className="muted small">
              {t.suspectFile(l.file)}, {t.memoryLine(l.line)}: {t.suspectReason(l.reason)}
            </span>
            <br />
            <code>{l.text}</code>
            <div>
              <button type="button" className="small" data-testid="suspect-remove" onClick={() => act(api.removeSuspect(l.file, l.line, l.text))}>
                {t.suspectRemove}
              </button>{" "}
              <button type="button" className="ghost small" data-testid="suspect-keep" onClick={() => act(api.keepSuspect(l.text))}>
                {t.suspectKeep}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
