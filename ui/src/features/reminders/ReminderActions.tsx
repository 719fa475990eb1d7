import { useEffect, useState } from "react";
import { api, toCommandError } from "../../api";
import type { ShownMessage } from "../chat/chatState";
import { useStrings } from "../../i18n";

/** The core's snooze choices, asked once for every reminder message shown. */
let asked: Promise<number[]> | null = null;
function snoozeChoices(): Promise<number[]> {
  asked ??= api.snoozeChoices().catch((e) => {
    asked = null;
    throw e;
  });
  return asked;
}

/** Snooze and Done under a reminder posted in the chat, like the notification's
 * buttons. Once answered, a line says what was done (it stays so after a reload). */
export function ReminderActions({ message, messageId }: { message: ShownMessage; messageId: number }) {
  const t = useStrings();
  const [choices, setChoices] = useState<number[]>([]);
  const [said, setSaid] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    snoozeChoices().then(setChoices, () => setChoices([]));
  }, []);
  if (message.meta?.handled && said === null) return <div className="reminder-answered muted small">{t.reminderAnswered}</div>;
  if (said !== null) return <div className="reminder-answered muted small" data-testid="reminder-answered">{said}</div>;
  const answer = (minutes: number | null) =>
    api
      .answerReminderMessage(messageId, minutes)
      .then(() => setSaid(minutes === null ? t.reminderDoneSaid : t.reminderSnoozedSaid(minutes)))
      .catch((e) => setFailed(toCommandError(e).message));
  return (
    <div className="reminder-message-actions" data-testid="reminder-actions">
      <span className="muted small">{t.snoozeFor}</span>
      {choices.map((m) => (
        <button key={m} type="button" className="ghost small" data-testid={`chat-snooze-${m}`} onClick={() => answer(m)}>
          {m % 60 === 0 ? t.hours(m / 60) : `${m} min`}
        </button>
      ))}
      <button type="button" className="ghost small" data-testid="chat-reminder-done" onClick={() => answer(null)}>
        {t.reminderDone}
      </button>
      {failed && <span className="error-text small">{failed}</span>}
    </div>
  );
}
