import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { api, toCommandError } from "../../api";
import { inBrowser } from "../../transport";
import { AboutSettings } from "./AboutSettings";
import { useStrings, type Strings } from "../../i18n";
import { BudgetSettings } from "../usage/BudgetSettings";
import { ChannelsSettings } from "../channels/ChannelsSettings";
import { ConnectionsSettings } from "../connections/ConnectionsSettings";
import { DevicesSettings } from "../devices/DevicesSettings";
import { DataSettings } from "../memory/DataSettings";
import { DesktopSettings } from "./DesktopSettings";
import { MeaningSettings } from "../memory/MeaningSettings";
import { ModelsSettings } from "../models/ModelsSettings";
import { ProactivitySettings } from "../proactivity/ProactivitySettings";
import { ProvidersSettings } from "../models/ProvidersSettings";
import { SearchSettings } from "../tools/SearchSettings";
import { NotesSettings } from "../tools/NotesSettings";
import { PermissionsSettings, ToolsSettings } from "../tools/ToolsSettings";
import { CalendarSettings } from "../calendar/CalendarSettings";
import { MailSettings } from "../mail/MailSettings";
import { TasksSettings } from "../tasks/TasksSettings";
import { VoiceSettings } from "../voice/VoiceSettings";

const SECTIONS = ["desktop", "voice", "providers", "models", "search", "tools", "notes", "permissions", "connections", "devices", "meaning", "data", "tasks", "calendar", "mail", "proactivity", "budget", "channels", "logs", "about"] as const;
export type SettingsSection = (typeof SECTIONS)[number];
/** What a browser (the web app on a phone) has no part in: the app's own microphone and
 * speakers, its log files, its updates. */
const WINDOW_ONLY: readonly SettingsSection[] = ["voice", "logs", "about"];

/** The section Settings opens on: the last one looked at in this window. */
const LAST = "sidecar.settings.section";

function sectionTitle(t: Strings, id: SettingsSection): string {
  return {
    desktop: t.desktopTitle,
    voice: t.voiceTitle,
    providers: t.providersTitle,
    models: t.modelsTitle,
    search: t.searchTitle,
    tools: t.toolsTitle,
    notes: t.notesTitle,
    permissions: t.permissionsTitle,
    connections: t.connectionsTitle,
    devices: t.devicesTitle,
    meaning: t.meaningTitle,
    data: t.dataTitle,
    tasks: t.tasksTitle,
    calendar: t.caldavTitle,
    mail: t.mailTitle,
    proactivity: t.proactiveTitle,
    budget: t.budgetTitle,
    channels: t.channelsTitle,
    logs: t.logsTitle,
    about: t.aboutTitle,
  }[id];
}

/** Lower case without accents, so "busqueda" finds "Búsqueda". */
function folded(text: string): string {
  return text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();
}

function LogsSettings() {
  const t = useStrings();
  const [error, setError] = useState<string | null>(null);
  return (
    <section className="logs-settings">
      <h2>{t.logsTitle}</h2>
      <p className="muted">{t.logsIntro}</p>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
      <button className="ghost" data-testid="open-logs" onClick={() => api.openLogsFolder().catch((e) => setError(toCommandError(e).message))}>
        {t.openLogs}
      </button>
    </section>
  );
}

function SettingsFileWarnings() {
  const t = useStrings();
  const [warnings, setWarnings] = useState<string[]>([]);
  useEffect(() => {
    api.coreWarnings().then((w) => setWarnings(w ?? [])).catch(() => setWarnings([]));
  }, []);
  if (warnings.length === 0) return null;
  return (
    <section className="settings-file" data-testid="settings-warnings">
      <h2>{t.settingsFileTitle}</h2>
      <p className="muted">{t.settingsFileIntro}</p>
      <ul>
        {warnings.map((w) => (
          <li key={w} className="small">
            {w}
          </li>
        ))}
      </ul>
    </section>
  );
}

const CONTENT: Record<SettingsSection, () => ReactNode> = {
  desktop: () => <DesktopSettings />,
  voice: () => <VoiceSettings />,
  providers: () => <ProvidersSettings />,
  models: () => <ModelsSettings />,
  search: () => <SearchSettings />,
  tools: () => <ToolsSettings />,
  notes: () => <NotesSettings />,
  permissions: () => <PermissionsSettings />,
  connections: () => <ConnectionsSettings />,
  devices: () => <DevicesSettings />,
  meaning: () => <MeaningSettings />,
  data: () => <DataSettings />,
  tasks: () => <TasksSettings />,
  calendar: () => <CalendarSettings />,
  mail: () => <MailSettings />,
  proactivity: () => <ProactivitySettings />,
  budget: () => <BudgetSettings />,
  channels: () => <ChannelsSettings />,
  logs: () => <LogsSettings />,
  about: () => <AboutSettings />,
};

/**
 * Settings as sections: a list to pick one, and a search over every section's words
 * (titles, labels, explanations). Every section stays mounted, so a search finds what
 * is on screens not open, and an edit half made in one survives a look at another.
 */
export function SettingsView() {
  const t = useStrings();
  const sections = useMemo(() => (inBrowser() ? SECTIONS.filter((id) => !WINDOW_ONLY.includes(id)) : SECTIONS), []);
  const [active, setActive] = useState<SettingsSection>(() => {
    const last = sessionStorage.getItem(LAST);
    return (SECTIONS as readonly string[]).includes(last ?? "") && !(inBrowser() && WINDOW_ONLY.includes(last as SettingsSection)) ? (last as SettingsSection) : "desktop";
  });
  const [query, setQuery] = useState("");
  const [matches, setMatches] = useState<SettingsSection[] | null>(null);
  const bodies = useRef<Partial<Record<SettingsSection, HTMLDivElement | null>>>({});
  const search = useRef<HTMLInputElement>(null);
  const page = useRef<HTMLElement>(null);

  useLayoutEffect(() => {
    const wanted = folded(query.trim());
    if (!wanted) {
      setMatches(null);
      return;
    }
    setMatches(sections.filter((id) => folded(`${sectionTitle(t, id)} ${bodies.current[id]?.textContent ?? ""}`).includes(wanted)));
  }, [query, t, sections]);

  const open = (id: SettingsSection) => {
    setActive(id);
    setQuery("");
    sessionStorage.setItem(LAST, id);
    // A section opens at its top, not at the scroll the last one was left at.
    const scroller = page.current?.closest("main");
    if (scroller) scroller.scrollTop = 0;
  };
  const shown = (id: SettingsSection) => (matches ? matches.includes(id) : id === active);

  return (
    <section
      ref={page}
      className="page settings-page"
      data-testid="settings-view"
      onKeyDown={(e) => {
        if ((e.ctrlKey || e.metaKey) && e.key === "f") {
          e.preventDefault();
          search.current?.focus();
        }
      }}
    >
      <nav className="settings-nav" aria-label={t.navSettings}>
        <input
          ref={search}
          type="search"
          className="settings-search"
          value={query}
          placeholder={t.settingsSearch}
          aria-label={t.settingsSearch}
          title={`${t.settingsSearch} (Ctrl+F)`}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape") setQuery("");
            if (e.key === "Enter" && matches?.length) open(matches[0]);
          }}
          data-testid="settings-search"
        />
        <ul>
          {sections.map((id) => (
            <li key={id}>
              <button
                className={`settings-nav-item${!matches && id === active ? " active" : ""}${matches && !matches.includes(id) ? " dim" : ""}`}
                aria-current={!matches && id === active ? "page" : undefined}
                onClick={() => open(id)}
                data-testid={`settings-nav-${id}`}
              >
                {sectionTitle(t, id)}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings-body">
        <SettingsFileWarnings />
        {matches && matches.length === 0 && (
          <p className="empty-inline" data-testid="settings-no-match">
            {t.settingsNoMatch(query.trim())}
          </p>
        )}
        {sections.map((id) => (
          <div key={id} ref={(el) => {
            bodies.current[id] = el;
          }} hidden={!shown(id)} data-testid={`settings-section-${id}`}>
            {CONTENT[id]()}
          </div>
        ))}
      </div>
    </section>
  );
}
