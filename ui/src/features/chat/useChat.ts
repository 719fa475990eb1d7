// Wires the chat reducer to the core: history at start, deltas from events, and the
// send / stop / retry commands.
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { api, toCommandError, type Attachment, type Checkpoint, type ContextMeter, type ListedFact, type ModelStatus, type PlanItem, type ReplyVersions, type TurnOutcome } from "../../api";
import { chatReducer, hereChannel, initialChat, saidElsewhere, setHereChannel } from "./chatState";
import { inBrowser } from "../../transport";

export function useChat() {
  const [state, dispatch] = useReducer(chatReducer, initialChat);
  const [model, setModel] = useState<ModelStatus>({ state: "idle" });
  const localId = useRef(0);
  const intentAnswered = useRef(false);
  /** Shows the current conversation anew; set once `reloadChat` exists, for the listener. */
  const reloadCurrent = useRef<() => void>(() => undefined);
  // Whether a reply is being written when the user sends: then the core queues it.
  const busy = useRef(false);
  busy.current = state.streaming !== null;
  // Sent while busy and not yet shown: the core queues such a message (its turn comes
  // as `dequeued`), unless the reply before it ended just as it arrived; then its turn
  // starts at once, with no `dequeued`, and is shown from that start.
  const sentWhileBusy = useRef<string[]>([]);
  const forget = (text: string) => {
    const at = sentWhileBusy.current.indexOf(text);
    if (at >= 0) sentWhileBusy.current.splice(at, 1);
  };
  const [meter, setMeter] = useState<ContextMeter | null>(null);
  const [plan, setPlan] = useState<PlanItem[]>([]);
  /** The model's notes for the request it works on, shown beside the plan. */
  const [scratchpad, setScratchpad] = useState("");
  const [offer, setOffer] = useState<Checkpoint | null>(null);
  const [resumed, setResumed] = useState<Checkpoint | null>(null);
  const [versions, setVersions] = useState<ReplyVersions | null>(null);
  /** Facts learned from an exchange just deleted: the user keeps or forgets them. */
  const [learned, setLearned] = useState<ListedFact[]>([]);
  /** The chat shown is an incognito one: the window says so all the while. */
  const [incognito, setIncognito] = useState(false);
  /** Counts the conversations shown (new, opened, reloaded): what depends on which one is current refreshes. */
  const [shown, setShown] = useState(0);

  // The last reply's versions (for Regenerate), after a turn or a change of conversation.
  const loadVersions = useCallback(() => {
    api.replyVersions().then((v) => setVersions(v ?? null)).catch(() => undefined);
  }, []);

  // The context around the chat: meter, plan, and the offer to continue earlier work.
  const loadContext = useCallback(() => {
    api.contextMeter().then((m) => setMeter(m ?? null)).catch(() => undefined);
    api.currentPlan().then((items) => setPlan(items ?? [])).catch(() => undefined);
    api.currentScratchpad().then((text) => setScratchpad(text ?? "")).catch(() => undefined);
    api.continuationOffer().then((o) => setOffer(o ?? null)).catch(() => undefined);
    api.chatIsIncognito().then((on) => setIncognito(Boolean(on))).catch(() => undefined);
  }, []);

  useEffect(() => {
    let disposed = false;
    const unlisten = api.onCoreEvent((event) => {
      if (event.type === "delta") dispatch({ type: "delta", text: event.text });
      if (event.type === "tool_started")
        dispatch({ type: "tool_started", id: event.call_id, name: event.name, arguments: event.arguments });
      if (event.type === "tool_finished")
        dispatch({ type: "tool_finished", id: event.call_id, result: event.result, isError: event.is_error, denied: event.denied });
      if (event.type === "notice") dispatch({ type: "notice", notice: event.notice });
      if (event.type === "queue") dispatch({ type: "queue", items: event.items });
      if (event.type === "turn_started" && event.dequeued !== undefined) {
        forget(event.dequeued);
        dispatch({ type: "dequeued", text: event.dequeued, localId: ++localId.current });
      } else if (event.type === "turn_started" && event.channel === hereChannel() && sentWhileBusy.current.length > 0) {
        dispatch({ type: "dequeued", text: sentWhileBusy.current.shift() ?? "", localId: ++localId.current });
      }
      // The core closed the chat left idle (Settings → Your data): show the new one,
      // which offers to continue it.
      if (event.type === "conversation_closed") reloadCurrent.current();
      if (event.type === "plan_updated") setPlan(event.items);
      if (event.type === "scratchpad_updated") setScratchpad(event.text);
      // Sidecar answered a request itself before the model added its words: the
      // history has one more message than the outcome will bring.
      if (event.type === "turn_finished" && event.meta?.intent) intentAnswered.current = true;
      // A reminder or a spontaneous message was posted in the chat: show it (a reply in
      // progress keeps streaming).
      // A message from the phone or a program over the local API (and its answer) joins this chat too.
      const fromElsewhere = (event.type === "turn_started" || event.type === "turn_finished") && saidElsewhere(event.channel);
      // A task's run or question lands in the Tasks conversation, which may be the one shown.
      const fromTasks = event.type === "task_run_finished" || event.type === "task_asks";
      if (event.type === "reminder_delivered" || event.type === "spontaneous_message" || fromElsewhere || fromTasks)
        api
          .loadHistory()
          .then((messages) => !disposed && dispatch({ type: "synced", messages }))
          .catch(() => undefined);
      if (event.type === "context_usage") {
        const { type: _t, conversation_id: _c, ...m } = event;
        setMeter(m as ContextMeter);
      }
      if (event.type === "model_status") {
        const { type: _ignored, ...status } = event;
        setModel(status as ModelStatus);
      }
    });
    // Read the current state only once the listener is in place, so an event sent
    // in between (the model becoming ready, say) cannot be missed.
    unlisten.then(() => {
      if (disposed) return;
      // Which window's messages are this one's: a computer using another's Sidecar says
      // its own on "device" (the history is read once that is known).
      api
        .homeView()
        .catch(() => null)
        // A computer attached to a home, or a browser on it: what is written here comes
        // from a device; the home computer's own messages are tagged as such.
        .then((home) => setHereChannel(home || inBrowser() ? "device" : "desktop"))
        .then(() => api.loadHistory())
        .then((messages) => !disposed && dispatch({ type: "history_loaded", messages }))
        .catch((e) => !disposed && dispatch({ type: "failed", error: toCommandError(e) }));
      loadVersions();
      loadContext();
      api
        .modelStatus()
        .then((status) => !disposed && setModel(status))
        .catch(() => undefined);
    });
    return () => {
      disposed = true;
      unlisten.then((off) => off());
    };
  }, [loadContext, loadVersions]);

  // Shows a turn's outcome, then what the core stored for it. `reread`: the turn
  // replaced messages (Regenerate, Edit), so the conversation is read again after it.
  const answer = useCallback(
    (turn: Promise<TurnOutcome>, reread = false) =>
      turn
        .then((outcome) => {
          dispatch({ type: "finished", outcome });
          if (reread) api.loadHistory().then((messages) => dispatch({ type: "synced", messages }));
          if (intentAnswered.current && !outcome.meta?.intent)
            api.loadHistory().then((messages) => dispatch({ type: "history_loaded", messages }));
          intentAnswered.current = false;
          if (outcome.conversation_changed) {
            // The turn moved on to a new conversation (`/clear`, `/incognito`): show it.
            setMeter(null);
            setPlan([]);
            setScratchpad("");
            api.loadHistory().then((messages) => dispatch({ type: "history_loaded", messages }));
            loadContext();
          }
          loadVersions();
        })
        .catch((e) => {
          dispatch({ type: "failed", error: toCommandError(e) });
          loadVersions();
        }),
    [loadVersions, loadContext],
  );

  const send = useCallback((text: string, files: Attachment[] = []) => {
    const trimmed = text.trim();
    if (!trimmed && files.length === 0) return;
    setOffer(null);
    const sent = files.length > 0 ? api.sendWithFiles(trimmed, files) : api.sendMessage(trimmed);
    if (busy.current) {
      // The core answers commands at once and queues the rest; the queue is shown from
      // its events, and the turn appears when it starts.
      sentWhileBusy.current.push(trimmed);
      sent
        .then((outcome) => {
          forget(trimmed);
          dispatch(
            outcome.meta?.command
              ? { type: "answered_aside", text: trimmed, localId: ++localId.current, outcome }
              : { type: "finished", outcome },
          );
          loadVersions();
        })
        .catch((e) => {
          forget(trimmed);
          const error = toCommandError(e);
          if (!error.cancelled) dispatch({ type: "failed", error });
        });
      return;
    }
    const chips = files.map(({ name, kind, cut }) => ({ name, kind, cut }));
    dispatch({ type: "send", text: trimmed, localId: ++localId.current, files: chips });
    answer(sent);
  }, [answer, loadVersions]);

  const regenerate = useCallback(() => {
    dispatch({ type: "regenerate" });
    answer(api.regenerateReply(), true);
  }, [answer]);

  // Deleting an exchange: the conversation as the core now has it, and what Sidecar had
  // learned from it, to ask about.
  const forgetMessage = useCallback(
    (id: number) =>
      api
        .forgetMessage(id)
        .then((forgotten) => setLearned(forgotten.learned))
        .then(() => api.loadHistory())
        .then((messages) => dispatch({ type: "history_loaded", messages }))
        .then(() => {
          loadVersions();
          loadContext();
        })
        .catch((e) => dispatch({ type: "failed", error: toCommandError(e) })),
    [loadVersions, loadContext],
  );

  const edit = useCallback(
    (id: number, text: string) => {
      const trimmed = text.trim();
      if (!trimmed) return;
      dispatch({ type: "edit", key: `m${id}`, text: trimmed, localId: ++localId.current });
      answer(api.editMessage(id, trimmed), true);
    },
    [answer],
  );

  const showVersion = useCallback(
    (number: number) => {
      api
        .showReplyVersion(number)
        .then((v) => {
          setVersions(v);
          return api.loadHistory();
        })
        .then((messages) => dispatch({ type: "history_loaded", messages }))
        .catch((e) => dispatch({ type: "failed", error: toCommandError(e) }));
    },
    [],
  );

  const retry = useCallback(() => {
    dispatch({ type: "retry" });
    answer(api.retryReply());
  }, [answer]);

  const stop = useCallback(() => {
    api.stopReply().catch(() => undefined);
  }, []);

  const cancelQueued = useCallback((id: number) => {
    api.cancelQueued(id).catch(() => undefined);
  }, []);

  const dismissError = useCallback(() => dispatch({ type: "dismiss_error" }), []);

  // Shows the current conversation after it changed (new, opened from the list).
  const showCurrent = useCallback(
    (change: Promise<unknown>) =>
      change
        .then(() => api.loadHistory())
        .then((messages) => {
          dispatch({ type: "history_loaded", messages });
          setShown((n) => n + 1);
          loadVersions();
          setResumed(null);
          setLearned([]);
          setMeter(null);
          loadContext();
        })
        .catch((e) => dispatch({ type: "failed", error: toCommandError(e) })),
    [loadContext, loadVersions],
  );
  const newChat = useCallback(() => showCurrent(api.newConversation()), [showCurrent]);
  const newIncognito = useCallback(() => showCurrent(api.newIncognito()), [showCurrent]);
  const reloadChat = useCallback(() => showCurrent(Promise.resolve()), [showCurrent]);
  reloadCurrent.current = reloadChat;

  const acceptOffer = useCallback(() => {
    if (!offer) return;
    api
      .continueCheckpoint(offer.id)
      .then((checkpoint) => {
        setResumed(checkpoint);
        setOffer(null);
      })
      .catch((e) => dispatch({ type: "failed", error: toCommandError(e) }));
  }, [offer]);

  const dismissOffer = useCallback(() => {
    setOffer(null);
    api.dismissOffer().catch(() => undefined);
  }, []);

  return { shown, state, model, send, retry, regenerate, edit, forgetMessage, learned, setLearned, versions, showVersion, stop, cancelQueued, dismissError, meter, plan, scratchpad, offer, resumed, incognito, newChat, newIncognito, reloadChat, acceptOffer, dismissOffer };
}
