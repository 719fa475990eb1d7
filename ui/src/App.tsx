import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { api, type RestoreNote } from "./api";
import { Composer } from "./features/chat/Composer";
import { Announcer } from "./components/Announcer";
import { Compose, Incognito, Sidebar } from "./components/Icons";
import { ContextMeterBar } from "./features/chat/ContextMeterBar";
import { ChatSidebar } from "./features/chat/ChatSidebar";
import { ContinueBanner } from "./features/chat/ContinueBanner";
import { PlanPanel } from "./features/chat/PlanPanel";
import { QueuedList } from "./features/chat/QueuedList";
import { FactSuggestions } from "./features/chat/FactSuggestions";
import { ForgetLearned } from "./features/chat/ForgetLearned";
import { PermissionCards } from "./features/chat/PermissionCards";
import { ErrorBanner } from "./features/chat/ErrorBanner";
import { BudgetBanner } from "./features/usage/BudgetBanner";
import { HomeLinkBanner } from "./features/devices/HomeLinkBanner";
import { LearnedNote } from "./features/proactivity/LearnedNote";
import { MessageList } from "./features/chat/MessageList";
import { ModelBadge } from "./features/chat/ModelBadge";
import { ModelPicker } from "./features/chat/ModelPicker";
import { SpeakHere } from "./features/voice/SpeakHere";
import { useStrings } from "./i18n";
import { useChat } from "./features/chat/useChat";

// Pages other than the chat load when first opened: an idle window showing the chat
// does not hold their code.
const MemoryView = lazy(() => import("./features/memory/MemoryView").then((m) => ({ default: m.MemoryView })));
const RemindersView = lazy(() => import("./features/reminders/RemindersView").then((m) => ({ default: m.RemindersView })));
const SettingsView = lazy(() => import("./features/settings/SettingsView").then((m) => ({ default: m.SettingsView })));
const UsageView = lazy(() => import("./features/usage/UsageView").then((m) => ({ default: m.UsageView })));
const Welcome = lazy(() => import("./features/models/Welcome").then((m) => ({ default: m.Welcome })));

type View = "chat" | "reminders" | "memory" | "usage" | "settings";

export function App() {
  const t = useStrings();
  const { shown, state, model, send, retry, regenerate, edit, forgetMessage, learned, setLearned, versions, showVersion, stop, cancelQueued, dismissError, meter, plan, scratchpad, offer, resumed, incognito, newChat, newIncognito, reloadChat, acceptOffer, dismissOffer } =
    useChat();
  const composer = useRef<HTMLTextAreaElement>(null);
  const [view, setView] = useState<View>("chat");
  // Bumped when leaving Settings so the model picker sees new providers.
  const [settingsVersion, setSettingsVersion] = useState(0);
  // The conversation list: beside the chat when there is room, over it when narrow.
  const [sidebar, setSidebar] = useState(() => window.innerWidth > 700);
  // Narrowing the window past the point where the list would cover the chat closes it.
  useEffect(() => {
    let wide = window.innerWidth > 700;
    const resized = () => {
      const now = window.innerWidth > 700;
      if (wide && !now) setSidebar(false);
      wide = now;
    };
    window.addEventListener("resize", resized);
    return () => window.removeEventListener("resize", resized);
  }, []);
  // The window came to the front: the user is here (on a computer attached to a home
  // core, the home's next notification shows on this one).
  useEffect(() => {
    const present = () => {
      api.devicePresent().catch(() => undefined);
    };
    window.addEventListener("focus", present);
    return () => window.removeEventListener("focus", present);
  }, []);
  const [chatsVersion, setChatsVersion] = useState(0);
  /** Words the conversation list passed on to Memory's search by meaning. */
  const [memoryQuery, setMemoryQuery] = useState("");
  /** How a restore asked for in Settings went, shown once after the restart. */
  const [restored, setRestored] = useState<RestoreNote | null>(null);
  useEffect(() => {
    api.restoreNote().then((note) => setRestored(note ?? null), () => undefined);
  }, []);
  // First launch: the welcome leads to a real model before the chat.
  const [welcome, setWelcome] = useState(false);
  useEffect(() => {
    api.welcomeNeeded().then((needed) => setWelcome(Boolean(needed))).catch(() => setWelcome(false));
  }, []);

  // The hotkey brings the window back where the user left it; on the chat, the cursor
  // goes to the message box.
  const shownView = useRef(view);
  shownView.current = view;
  useEffect(() => {
    const off = api.onFocusComposer(() => {
      if (shownView.current === "chat") composer.current?.focus();
    });
    return () => {
      off.then((f) => f());
    };
  }, []);

  // The character's menu opens Settings on its own section.
  const [settingsOpened, setSettingsOpened] = useState(0);
  const openSettings = (section: string) => {
    sessionStorage.setItem("sidecar.settings.section", section);
    setView("settings");
    setSettingsOpened((n) => n + 1);
  };
  useEffect(() => {
    const off = api.onOpenSettings(openSettings);
    return () => {
      off.then((f) => f());
    };
  }, []);

  // A clicked notification opens the chat on its message, marked for a few seconds.
  const [highlight, setHighlight] = useState<number | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = api.onShowMessage((id) => {
      setView("chat");
      setHighlight(id);
      clearTimeout(timer);
      timer = setTimeout(() => setHighlight(null), 4000);
    });
    return () => {
      clearTimeout(timer);
      off.then((f) => f());
    };
  }, []);

  // A hand edit of learnings.md with lines Sidecar cannot read is reported wherever
  // the user is; the Memory view lists the lines.
  const [knowledgeAlert, setKnowledgeAlert] = useState<string | null>(null);
  useEffect(() => {
    const off = api.onCoreEvent((event) => {
      if (event.type === "knowledge_suspect") {
        if (event.lines.length > 0) setKnowledgeAlert(t.suspectAlert(event.lines.length));
        return;
      }
      if (event.type !== "knowledge_changed") return;
      if (event.error) setKnowledgeAlert(t.knowledgeError(event.error));
      else setKnowledgeAlert(event.problems.length > 0 ? t.knowledgeProblems(event.problems.length) : null);
    });
    return () => {
      off.then((f) => f());
    };
  }, [t]);

  // A chat the core closed when left idle moves down the list; the new one joins it.
  useEffect(() => {
    const off = api.onCoreEvent((event) => {
      if (event.type === "conversation_closed") setChatsVersion((v) => v + 1);
    });
    return () => {
      off.then((f) => f());
    };
  }, []);

  // Problems the core found at start (a time zone it could not read), until dismissed.
  const [warnings, setWarnings] = useState<string[]>([]);
  useEffect(() => {
    api.coreWarnings().then((w) => setWarnings(w ?? [])).catch(() => setWarnings([]));
  }, []);

  // Ctrl+N starts a new conversation, Ctrl+Shift+N an incognito one, from any view.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "n") {
        e.preventDefault();
        setView("chat");
        if (e.shiftKey) newIncognito();
        else newChat();
        composer.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [newChat, newIncognito]);

  const go = (next: View) => {
    setWelcome(false);
    if (next === "memory") setMemoryQuery("");
    if (view === "settings" && next !== "settings") setSettingsVersion((v) => v + 1);
    setView(next);
  };

  return (
    <div className="app">
      {view === "chat" && !welcome && (
        <a
          className="skip-link"
          href="#composer"
          data-testid="skip-to-composer"
          onClick={(e) => {
            e.preventDefault();
            composer.current?.focus();
          }}
        >
          {t.skipToComposer}
        </a>
      )}
      <header>
        <h1>{t.title}</h1>
        <nav>
          {(["chat", "reminders", "memory", "usage", "settings"] as const).map((v) => (
            <button
              key={v}
              className={`tab${view === v ? " active" : ""}`}
              aria-current={view === v ? "page" : undefined}
              data-testid={`nav-${v}`}
              onClick={() => go(v)}
            >
              {{ chat: t.navChat, reminders: t.navReminders, memory: t.navMemory, usage: t.navUsage, settings: t.navSettings }[v]}
            </button>
          ))}
        </nav>
        <div className="header-right">
          {view === "chat" && !welcome && (
            <button
              className={`ghost small${sidebar ? " active" : ""}`}
              onClick={() => setSidebar((open) => !open)}
              aria-expanded={sidebar}
              aria-label={t.chatsToggle}
              title={t.chatsToggle}
              data-testid="toggle-sidebar"
            >
              <Sidebar />
            </button>
          )}
          {view === "chat" && !welcome && (
            <button className="ghost small" onClick={() => { newChat(); setChatsVersion((v) => v + 1); }} title={t.newChatHint} aria-label={t.newChat} data-testid="new-chat" disabled={state.streaming !== null}>
              <Compose />
            </button>
          )}
          {view === "chat" && !welcome && (
            <button
              className={`ghost small${incognito ? " active" : ""}`}
              onClick={() => { newIncognito(); setChatsVersion((v) => v + 1); }}
              title={t.incognitoHint}
              aria-label={t.incognitoChat}
              aria-keyshortcuts="Control+Shift+N"
              data-testid="new-incognito"
              disabled={state.streaming !== null || incognito}
            >
              <Incognito />
            </button>
          )}
          {view === "chat" && !welcome && <ModelPicker refreshKey={`${settingsVersion}:${shown}`} />}
          {view === "chat" && !welcome && <SpeakHere refreshKey={`${settingsVersion}:${shown}`} />}
          <ModelBadge status={model} />
        </div>
      </header>
      <Announcer streaming={state.streaming} messages={state.messages} />
      {knowledgeAlert && view !== "memory" && (
        <div className="knowledge-alert" role="alert" data-testid="knowledge-alert">
          <span>{knowledgeAlert}</span>
          <button className="ghost small" onClick={() => go("memory")}>
            {t.navMemory}
          </button>
          <button className="ghost small" onClick={() => setKnowledgeAlert(null)}>
            {t.dismiss}
          </button>
        </div>
      )}
      {warnings.map((warning) => (
        <div className="knowledge-alert" role="alert" data-testid="core-warning" key={warning}>
          <span>{warning}</span>
          <button className="ghost small" onClick={() => go("settings")}>
            {t.navSettings}
          </button>
          <button className="ghost small" onClick={() => setWarnings((all) => all.filter((w) => w !== warning))}>
            {t.dismiss}
          </button>
        </div>
      ))}
      <HomeLinkBanner />
      {welcome && (
        <main>
          <Suspense fallback={<Loading />}>
          <Welcome
            onDone={() => {
              setWelcome(false);
              setSettingsVersion((v) => v + 1);
            }}
            onMoreModels={() => setView("settings")}
          />
          </Suspense>
        </main>
      )}
      {!welcome && view === "chat" && (
        <div className="chat-layout">
          {sidebar && (
            <ChatSidebar
              busy={state.streaming !== null}
              refreshKey={chatsVersion}
              onSearchMeaning={(words) => {
                setMemoryQuery(words);
                setView("memory");
              }}
              onOpened={() => {
                reloadChat();
                if (window.innerWidth <= 700) setSidebar(false);
              }}
            />
          )}
          <div className={`chat-column${incognito ? " incognito" : ""}`}>
          {incognito && (
            <div className="incognito-banner" role="status" data-testid="incognito-banner">
              <Incognito />
              <span>{t.incognitoBanner}</span>
              <button className="ghost small" onClick={() => { newChat(); setChatsVersion((v) => v + 1); }} disabled={state.streaming !== null} data-testid="leave-incognito">
                {t.incognitoLeave}
              </button>
            </div>
          )}
          {offer && <ContinueBanner offer={offer} onContinue={acceptOffer} onDismiss={dismissOffer} />}
          {restored && (
            <div className={restored.outcome === "restored" ? "info" : "problems"} role="status" data-testid="restore-note">
              {restored.outcome === "restored" ? t.restoredNote(restored.created_at, restored.files, restored.aside) : t.restoreRefused(restored.why)}{" "}
              <button type="button" className="ghost small" onClick={() => setRestored(null)}>
                {t.dismiss}
              </button>
            </div>
          )}
          {resumed && (
            <div className="resumed-note muted small" data-testid="resumed">
              {t.offerResumed(resumed.body.title || `#${resumed.id}`)}
            </div>
          )}
          <main>
            <MessageList
              messages={state.messages}
              streaming={state.streaming}
              loaded={state.loaded}
              highlight={highlight}
              demo={(model.state === "ready" || model.state === "standing_in") && Boolean(model.demo)}
              actions={{ busy: state.streaming !== null, versions, onRegenerate: regenerate, onShowVersion: showVersion, onEdit: edit, onForget: (id) => forgetMessage(id).then(() => setChatsVersion((v) => v + 1)) }}
            />
          </main>
          <PlanPanel items={plan} notes={scratchpad} busy={state.streaming !== null} />
          <ContextMeterBar meter={meter} />
          {state.error && <ErrorBanner error={state.error} onRetry={retry} onDismiss={dismissError} />}
          <BudgetBanner />
          <LearnedNote />
          <QueuedList items={state.queued} onCancel={cancelQueued} />
          <PermissionCards />
          <FactSuggestions />
          <ForgetLearned facts={learned} onDone={() => setLearned([])} />
          <Composer ref={composer} busy={state.streaming !== null} onSend={send} onStop={stop} />
          </div>
        </div>
      )}
      {!welcome && view === "reminders" && (
        <main>
          <Suspense fallback={<Loading />}>
            <RemindersView />
          </Suspense>
        </main>
      )}
      {!welcome && view === "memory" && (
        <main>
          <Suspense fallback={<Loading />}>
          <MemoryView
            initialQuery={memoryQuery}
            onOpenMessage={(id) =>
              api.openChatAt(id).then(() => {
                reloadChat();
                setChatsVersion((v) => v + 1);
                setView("chat");
                setHighlight(id);
              })
            }
          />
          </Suspense>
        </main>
      )}
      {!welcome && view === "usage" && (
        <main>
          <Suspense fallback={<Loading />}>
            <UsageView onSetLimits={() => openSettings("budget")} />
          </Suspense>
        </main>
      )}
      {!welcome && view === "settings" && (
        <main>
          <Suspense fallback={<Loading />}>
            <SettingsView key={settingsOpened} />
          </Suspense>
        </main>
      )}
    </div>
  );
}

/** While a page's code loads (a moment, the first time it is opened). */
function Loading() {
  const t = useStrings();
  return <p className="muted page-loading" role="status">{t.pageLoading}</p>;
}
