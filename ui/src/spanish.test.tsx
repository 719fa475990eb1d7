// Every screen in Spanish, with Spanish data: no English words in what the app itself
// says (labels, buttons, hints, empty states, titles and placeholders).
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "./test/fakeCore";
import { renderApp } from "./test/renderApp";
import { strings } from "./i18n";
import { baseEn as enBase } from "./strings/base.en";
import { calendarEn } from "./features/reminders/calendar.strings";
import { checkpointsEn } from "./features/memory/checkpoints.strings";
import { chatsEn } from "./features/chat/chats.strings";
import { memoryEn } from "./features/memory/memory.strings";
import { messagesEn } from "./features/chat/messages.strings";
import { modelsEn } from "./features/models/models.strings";
import { preferencesEn } from "./features/settings/preferences.strings";
import { searchEn } from "./features/tools/search.strings";

/** Words that only English text has (whole words; Spanish UI text never uses them). */
const ENGLISH = [
  "the", "and", "your", "you", "with", "from", "this", "that", "for", "not", "are", "is", "was", "will", "can", "there", "here", "when",
  "Save", "Cancel", "Delete", "Add", "Settings", "Reminder", "Reminders", "Remind", "Memory", "Model", "Models", "Search", "Loading", "Error",
  "Try", "Import", "Export", "Upcoming", "Recurring", "Delivered", "Provider", "Providers", "Open", "Close", "Copy", "Edit", "Nothing", "yet",
  "Ready", "Automatic", "Connected", "Daily", "Restore", "Theme", "Dark", "Light", "Language", "Shortcut", "Notifications", "Usage", "Today",
  "Total", "Calls", "Cost", "Send", "Stop", "New", "Show", "Hide", "Change", "Remove", "Test", "Download", "Pause", "Resume", "Use", "Local",
  "Notes", "Snooze", "Done", "Again", "Conversations", "Chat", "Unavailable", "Starting", "Demo",
];
// Words both languages share ("Chat", "Total").
const ALLOWED = new Set(["Chat", "Total"]);

/** What the fake data itself says (names a user or a catalogue gave, not the app's words). */
const DATA = ["gpt-4o-mini", "primary", "Qwen3 1.7B", "Gemma 3 4B Instruct", "Gemma Terms of Use", "Apache-2.0", "Moonshot (Kimi)", "OpenAI", "Ollama", "SmolLM2", "Brave Search", "DuckDuckGo", "SearXNG", "Telegram", "WhatsApp"];

function englishIn(root: HTMLElement): string[] {
  const texts: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("code, pre, [data-user-data], .message")) continue;
    texts.push(node.textContent ?? "");
  }
  for (const el of Array.from(root.querySelectorAll("[title], [placeholder], [aria-label]"))) {
    if (el.closest(".message")) continue;
    for (const attr of ["title", "placeholder", "aria-label"]) {
      const value = el.getAttribute(attr);
      if (value) texts.push(value);
    }
  }
  const found = new Set<string>();
  for (let text of texts) {
    for (const data of DATA) text = text.split(data).join(" ");
    for (const word of text.split(/[^A-Za-zÁÉÍÓÚáéíóúñÑü']+/)) {
      if (ENGLISH.includes(word) && !ALLOWED.has(word)) found.add(`${word} ← "${text.trim().slice(0, 80)}"`);
    }
  }
  return [...found];
}

describe("Spanish everywhere", () => {
  it("walks every screen in Spanish and finds no English", async () => {
    const core = new FakeCore();
    core.providers = [{ id: "primary", kind: "openai", base_url: "https://api.openai.com/v1", model: "gpt-4o-mini", api_key_env: null, tools: true, context_window: null, sampling: {}, vision: null, sees_images: false, key: { kind: "keychain" } }];
    core.handlers.memory_report = () => ({
      facts: [
        { line: 4, category: "Health", weight: 5, text: "Alérgica al maní", learned: "2026-01-01", confirmed: "2026-11-01", critical: false },
        { line: 6, category: "Work", weight: 2, text: "Trabaja de enfermera", learned: "2026-01-02", confirmed: "2026-11-20", critical: true },
      ],
      problems: [],
      origins: [{ line: 6, message_id: 9 }],
    });
    const totals = { calls: 3, input_tokens: 4500, output_tokens: 300, cached_tokens: 0, cost_usd: 0.0123, unpriced_calls: 1,
      by_model: [{ provider: "primary", model: "gpt-4o-mini", calls: 2, input_tokens: 4000, output_tokens: 200, cost_usd: 0.0123 }],
      by_purpose: [{ purpose: "chat" as const, calls: 2, input_tokens: 4000, output_tokens: 200, cost_usd: 0.0123 }] };
    core.handlers.usage_report = () => ({ today: totals, all_time: totals });
    core.handlers.reminders_overview = () => ({
      upcoming: [{ id: 1, message: "llamar a mamá", due_at: "2026-11-25T08:00:00Z", zone: "Europe/Madrid", rrule: null, state: "pending", delivered_at: null, late: false, created_at: "2026-11-24T08:00:00Z" }],
      recurring: [], delivered: [], late: [], zone: "Europe/Madrid", snooze_choices: [5, 15, 60],
    });
    renderApp("es");
    const user = userEvent.setup();
    await screen.findByTestId("composer");
    const problems: Record<string, string[]> = {};
    const look = (page: string) => {
      const english = englishIn(document.body);
      if (english.length) problems[page] = english;
    };
    await waitFor(() => expect(screen.getByTestId("model-badge")).toBeInTheDocument());
    look("chat");
    for (const page of ["reminders", "memory", "usage", "settings"]) {
      await user.click(screen.getByTestId(`nav-${page}`));
      await screen.findByTestId(`${page}-view`);
      await new Promise((r) => setTimeout(r, 50));
      look(page);
    }
    expect(problems).toEqual({});
  });

  it("the welcome says it all in Spanish too", async () => {
    const core = new FakeCore();
    core.welcome = true;
    renderApp("es");
    await screen.findByTestId("welcome");
    await new Promise((r) => setTimeout(r, 50));
    expect(englishIn(document.body)).toEqual([]);
  });

  it("no two string modules use the same key (the later one would silently win)", () => {
    const modules = { enBase, chatsEn, messagesEn, modelsEn, preferencesEn, memoryEn, searchEn, calendarEn, checkpointsEn };
    const owners = new Map<string, string[]>();
    for (const [name, words] of Object.entries(modules)) {
      for (const key of Object.keys(words)) owners.set(key, [...(owners.get(key) ?? []), name]);
    }
    const shared = [...owners].filter(([, names]) => names.length > 1).map(([key, names]) => `${key}: ${names.join(", ")}`);
    expect(shared).toEqual([]);
  });

  it("says one word per idea in Spanish: Añadir, never also Agregar", () => {
    const said = (value: unknown): string[] =>
      typeof value === "string" ? [value] : typeof value === "function" ? [String((value as (...a: unknown[]) => unknown)("x", "y", "z"))] : [];
    const spanish = Object.values(strings.es).flatMap(said).join("\n");
    expect(spanish).not.toMatch(/agreg/i);
    expect(spanish).toMatch(/Añadir proveedor/);
  });
});
