import { useEffect, useRef, useState } from "react";
import { api } from "../api";
import type { ShownMessage } from "../features/chat/chatState";
import { useStrings } from "../i18n";

/** Longest part of a reply read out when it ends (the rest is in the conversation). */
const READ_CHARS = 200;

/** What a screen reader is told without the user looking: a reply that has ended (not
 * its words one by one while it streams), a reminder that arrived. Errors announce
 * themselves (their banner is an alert). */
export function Announcer({ streaming, messages }: { streaming: ShownMessage | null; messages: ShownMessage[] }) {
  const t = useStrings();
  const [said, setSaid] = useState("");
  const wasStreaming = useRef(false);
  useEffect(() => {
    const ended = wasStreaming.current && streaming === null;
    wasStreaming.current = streaming !== null;
    const last = messages[messages.length - 1];
    if (ended && last?.role === "assistant" && last.content.trim()) {
      // Read as words: the Markdown's marks are for the eye.
      const text = last.content.replace(/[*_`#>|]+/g, "").replace(/\s+/g, " ").trim();
      setSaid(t.announceReply(text.length > READ_CHARS ? `${text.slice(0, READ_CHARS)}…` : text));
    }
  }, [streaming, messages, t]);
  useEffect(() => {
    const off = api.onCoreEvent((event) => {
      if (event.type === "reminder_delivered") setSaid(t.announceReminder(event.first_line));
    });
    return () => {
      off.then((f) => f());
    };
  }, [t]);
  return (
    <div className="visually-hidden" aria-live="polite" data-testid="announcer">
      {said}
    </div>
  );
}
