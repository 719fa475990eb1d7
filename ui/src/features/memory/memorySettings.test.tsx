import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "../../test/fakeCore";
import { openSettingsSection, renderApp } from "../../test/renderApp";
import type { SettingsSection } from "../settings/SettingsView";

async function openSettings(lang: "en" | "es" = "en", section: SettingsSection = "meaning") {
  const user = userEvent.setup();
  renderApp(lang);
  await openSettingsSection(user, section);
  return user;
}

describe("Settings → Memory search", () => {
  it("shows the local model's state and its progress as batches are embedded", async () => {
    const core = new FakeCore();
    await openSettings();
    const section = await screen.findByTestId("meaning-settings");
    expect(within(section).getByTestId("meaning-local")).toBeChecked();
    expect(within(section).getByTestId("meaning-state")).toHaveTextContent("Ready: the built-in multilingual model, on this computer.");
    expect(within(section).getByTestId("meaning-progress")).toHaveTextContent("10 of 40 items embedded");
    await core.event({ type: "memory_indexing", embedded: 40, total: 40 });
    await waitFor(() => expect(within(section).getByTestId("meaning-progress")).toHaveTextContent("All 40 items embedded."));
  });

  it("switches to an endpoint, sending its address, model and key, and says the core's refusal", async () => {
    const core = new FakeCore();
    core.handlers.save_meaning = (args) => {
      const { input } = args as { input: { backend: string; url: string | null; model: string | null } };
      if (!input.model) return Promise.reject({ message: "Name the embedding model, like nomic-embed-text", retryable: false });
      return { ...core.meaning, backend: "openai", url: input.url, model: input.model, has_key: true, status: { state: "idle", embedded: 0, total: 40 } };
    };
    const user = await openSettings();
    const section = await screen.findByTestId("meaning-settings");
    await user.click(within(section).getByTestId("meaning-openai"));
    await user.type(within(section).getByTestId("meaning-url"), "http://localhost:11434/v1");
    await user.click(within(section).getByTestId("meaning-save"));
    expect(await within(section).findByRole("alert")).toHaveTextContent("Name the embedding model");
    await user.type(within(section).getByTestId("meaning-model"), "nomic-embed-text");
    await user.type(within(section).getByTestId("meaning-key"), "sk-1");
    await user.click(within(section).getByTestId("meaning-save"));
    expect(await within(section).findByText("Saved. Everything is being embedded again with this model.")).toBeInTheDocument();
    expect(core.invoked("save_meaning").at(-1)!.args).toEqual({
      input: { backend: "openai", url: "http://localhost:11434/v1", model: "nomic-embed-text", api_key: "sk-1" },
    });
    expect(within(section).getByTestId("meaning-key")).toHaveValue("");
  });

  it("offers EmbeddingGemma with its size, memory and licence, and switches to it", async () => {
    const core = new FakeCore();
    core.handlers.save_meaning = (args) => {
      const { input } = args as { input: { backend: "gemma" } };
      core.meaning = { ...core.meaning, backend: input.backend, status: { state: "idle", embedded: 0, total: 40 } };
      return core.meaning;
    };
    const user = await openSettings();
    const section = await screen.findByTestId("meaning-settings");
    const gemma = within(section).getByTestId("meaning-gemma").closest("label")!;
    expect(gemma).toHaveTextContent("On this computer: more accurate");
    expect(gemma).toHaveTextContent("EmbeddingGemma-300M · 318 MB · about 1.1 GB of memory · licence: Gemma Terms of Use. Recommended for this computer's memory.");
    expect(within(section).getByTestId("meaning-local").closest("label")!).toHaveTextContent("multilingual-e5-small · 68 MB · about 120 MB of memory · licence: MIT.");
    await user.click(within(section).getByTestId("meaning-gemma"));
    await user.click(within(section).getByTestId("meaning-save"));
    expect(core.invoked("save_meaning").at(-1)!.args).toEqual({ input: { backend: "gemma", url: null, model: null, api_key: null } });
    expect(await within(section).findByText("Starts with the first search.")).toBeInTheDocument();
    // The embedder loads as indexing starts; the state follows without reopening Settings.
    core.meaning = { ...core.meaning, status: { state: "ready", model: "embeddinggemma-300m-q8_0|prompted", embedded: 16, total: 40 } };
    await core.event({ type: "memory_indexing", embedded: 16, total: 40 });
    await waitFor(() => expect(within(section).getByTestId("meaning-state")).toHaveTextContent("Ready: EmbeddingGemma, on this computer."));
    expect(within(section).getByTestId("meaning-gemma")).toBeChecked();
  });

  it("by default uses the embedder that suits this computer and names it, in both languages", async () => {
    const core = new FakeCore();
    core.meaning = { ...core.meaning, backend: "auto" };
    await openSettings();
    let section = await screen.findByTestId("meaning-settings");
    expect(within(section).getByTestId("meaning-auto")).toBeChecked();
    expect(within(section).getByTestId("meaning-auto").closest("label")!).toHaveTextContent(
      "On this computer: the one that suits it Here: EmbeddingGemma-300M, chosen for this computer's memory.",
    );
    cleanup();
    core.meaning = { ...core.meaning, automatic: "local" };
    await openSettings("es");
    section = await screen.findByTestId("meaning-settings");
    expect(within(section).getByTestId("meaning-auto").closest("label")!).toHaveTextContent("Aquí: multilingual-e5-small, elegido por la memoria de este ordenador.");
  });

  it("says when the light embedder stands in for EmbeddingGemma and what to do, in both languages", async () => {
    const core = new FakeCore();
    core.meaning = { ...core.meaning, backend: "auto", automatic: "local", automatic_stands_in: true };
    await openSettings();
    let section = await screen.findByTestId("meaning-settings");
    expect(within(section).getByTestId("meaning-auto").closest("label")!).toHaveTextContent(
      "Here: multilingual-e5-small, because EmbeddingGemma-300M did not start. Choose EmbeddingGemma-300M above to see why.",
    );
    cleanup();
    await openSettings("es");
    section = await screen.findByTestId("meaning-settings");
    expect(within(section).getByTestId("meaning-auto").closest("label")!).toHaveTextContent(
      "Aquí: multilingual-e5-small, porque EmbeddingGemma-300M no arrancó. Elige EmbeddingGemma-300M arriba para ver por qué.",
    );
  });

  it("says the light embedder stands in once EmbeddingGemma fails to start after the page opened", async () => {
    const core = new FakeCore();
    core.meaning = { ...core.meaning, backend: "auto", automatic: "gemma", automatic_stands_in: false, status: { state: "idle", embedded: 0, total: 0 } };
    await openSettings();
    const section = await screen.findByTestId("meaning-settings");
    expect(within(section).getByTestId("meaning-auto").closest("label")!).toHaveTextContent("Here: EmbeddingGemma-300M, chosen");
    core.meaning = { ...core.meaning, automatic: "local", automatic_stands_in: true, status: { state: "ready", model: core.meaning.built_in[0].model, embedded: 0, total: 0 } };
    await core.event({ type: "memory_indexing", embedded: 0, total: 0 });
    await waitFor(() => expect(within(section).getByTestId("meaning-auto").closest("label")!).toHaveTextContent("because EmbeddingGemma-300M did not start"));
    expect(within(section).getByTestId("meaning-state")).toHaveTextContent("Ready: the built-in multilingual model");
  });

  it("says when EmbeddingGemma is not installed, in Spanish", async () => {
    const core = new FakeCore();
    core.meaning = { ...core.meaning, built_in: [core.meaning.built_in[0], { ...core.meaning.built_in[1], size_bytes: null }] };
    await openSettings("es");
    const section = await screen.findByTestId("meaning-settings");
    expect(within(section).getByTestId("meaning-gemma").closest("label")!).toHaveTextContent("EmbeddingGemma-300M no está instalado en esta copia de Sidecar.");
    expect(within(section).getByTestId("meaning-local").closest("label")!).toHaveTextContent("licencia: MIT");
    expect(within(section).getByTestId("meaning-gemma").closest("label")!).not.toHaveTextContent("Recomendado");
  });

  it("says in Spanish why it searches by words only", async () => {
    const core = new FakeCore();
    core.meaning = { ...core.meaning, status: { state: "unavailable", reason: "no hay modelo", embedded: 0, total: 3 } };
    await openSettings("es");
    const section = await screen.findByTestId("meaning-settings");
    expect(within(section).getByTestId("meaning-state")).toHaveTextContent("Buscando solo por palabras: no hay modelo");
  });
});

describe("Settings → Your data", () => {
  it("backs up now, lists the automatic backups and exports", async () => {
    const core = new FakeCore();
    core.backups = [["2026-11-23", "/d/backups/daily-2026-11-23.sidecar-backup"]];
    core.handlers.back_up_now = () => ({ path: "/d/backups/sidecar-2026-11-23-101500.sidecar-backup", bytes: 2_400_000, files: 5, created_at: "2026-11-23T10:15:00Z" });
    core.handlers.export_data = (args) => `/d/exports/sidecar-export.${(args as { format: string }).format === "json" ? "json" : "md"}`;
    const user = await openSettings("en", "data");
    const section = await screen.findByTestId("data-settings");
    expect(within(section).getByTestId("backup-list")).toHaveTextContent("2026-11-23");
    await user.click(within(section).getByTestId("back-up-now"));
    expect(await within(section).findByTestId("data-note")).toHaveTextContent("Backed up to /d/backups/sidecar-2026-11-23-101500.sidecar-backup (2.4 MB).");
    await user.click(within(section).getByTestId("export-json"));
    await waitFor(() => expect(within(section).getByTestId("data-note")).toHaveTextContent("Exported to /d/exports/sidecar-export.json."));
    await user.click(within(section).getByRole("button", { name: "Show folder" }));
    expect(core.invoked("reveal_path").at(-1)!.args).toEqual({ path: "/d/exports/sidecar-export.json" });
  });

  it("names the backups made before a deletion and removes them after a fresh one", async () => {
    const core = new FakeCore();
    let held = { since: "2026-12-05T10:00:00Z", backups: ["/d/backups/daily-2026-12-04.sidecar-backup", "/d/backups/daily-2026-12-05.sidecar-backup"] };
    core.handlers.held_in_backups = () => held;
    core.handlers.forget_in_backups = () => {
      held = { since: held.since, backups: [] };
      return 2;
    };
    const user = await openSettings("en", "data");
    const section = await screen.findByTestId("held-in-backups");
    expect(await within(section).findByText(/2 backups were made before you last deleted something \(5 Dec 2026\)/)).toBeInTheDocument();
    await user.click(within(section).getByTestId("held-remove"));
    expect(section).toHaveTextContent("A new backup of everything kept is made first, then these 2 backups are deleted.");
    await user.click(within(section).getByTestId("held-yes"));
    expect(await within(section).findByTestId("held-note")).toHaveTextContent("Removed 2 backups; a new one holds everything kept.");
    expect(within(section).queryByTestId("held-remove")).not.toBeInTheDocument();
    expect(core.invoked("forget_in_backups")).toHaveLength(1);
  });

  it("encrypts the database at the next start, says a keychain refusal, and restarts when asked", async () => {
    const core = new FakeCore();
    let state = { encrypted: false, pending: null as string | null, failed: null as string | null };
    let refuse = true;
    core.handlers.database_encryption = () => state;
    core.handlers.set_database_encryption = (args) => {
      if (refuse) {
        refuse = false;
        throw { kind: "data", message: "No system keychain can keep the database's key. Unlock your desktop's keychain, then try again." };
      }
      state = { ...state, pending: (args as { on: boolean }).on ? "encrypt" : null };
      return state;
    };
    core.handlers.restart_app = () => null;
    const user = await openSettings("en", "data");
    const section = await screen.findByTestId("database-encryption");
    expect(within(section).getByTestId("encryption-state")).toHaveTextContent("The database is not encrypted.");
    expect(section).toHaveTextContent("The Markdown memory files (what Sidecar knows about you) stay plain");
    await user.click(within(section).getByTestId("encryption-toggle"));
    expect(await within(section).findByTestId("encryption-note")).toHaveTextContent("Unlock your desktop's keychain");
    await user.click(within(section).getByTestId("encryption-toggle"));
    await waitFor(() => expect(within(section).getByTestId("encryption-state")).toHaveTextContent("Sidecar encrypts the database when it starts next."));
    expect(section).toHaveTextContent("If this computer's keychain is lost");
    await user.click(within(section).getByTestId("encryption-restart"));
    expect(core.invoked("restart_app")).toHaveLength(1);
    await user.click(within(section).getByTestId("encryption-cancel"));
    expect(core.invoked("set_database_encryption").at(-1)!.args).toEqual({ on: false });
    await waitFor(() => expect(within(section).getByTestId("encryption-toggle")).toHaveTextContent("Encrypt it"));
  });

  it("brings another assistant's memory: reads it, shows what is known, saves what stays ticked", async () => {
    const core = new FakeCore();
    core.handlers.preview_brought = () => [
      { text: "Is allergic to penicillin", category: "Health", already: "Is allergic to penicillin", replaces: null },
      { text: "Works as a nurse", category: "Work", already: null, replaces: "Works as a teacher" },
      { text: "Has a cat called Miso", category: "General", already: null, replaces: null },
    ];
    core.handlers.bring_facts = () => ({ new: 1, known: 0, changed: 1, skipped: 0 });
    const user = await openSettings("en", "data");
    const bring = await screen.findByTestId("bring-memory");
    await user.type(within(bring).getByTestId("bring-text"), "Is allergic to penicillin.");
    await user.click(within(bring).getByTestId("bring-read"));
    const rows = await within(bring).findAllByTestId("bring-fact");
    expect(rows[0]).toHaveTextContent("already known");
    expect(rows[1]).toHaveTextContent("would replace “Works as a teacher”");
    const keep = within(bring).getAllByTestId("bring-keep");
    expect(keep.map((k) => (k as HTMLInputElement).checked)).toEqual([false, true, true]);
    await user.selectOptions(within(bring).getAllByTestId("bring-category")[2], "Relationships");
    expect(within(bring).getByTestId("bring-save")).toHaveTextContent("Save 2 facts");
    await user.click(within(bring).getByTestId("bring-save"));
    expect(core.invoked("bring_facts")[0].args).toEqual({
      kept: [
        { text: "Works as a nurse", category: "Work" },
        { text: "Has a cat called Miso", category: "Relationships" },
      ],
    });
    expect(await within(bring).findByTestId("bring-note")).toHaveTextContent("Saved: 1 new, 0 already known, 1 replacing or beside an older one.");
  });

  it("imports a ChatGPT export and says what was skipped, with an empty state before any backup", async () => {
    const core = new FakeCore();
    core.handlers.import_chat_export = (args) => {
      expect((args as { text: string }).text).toContain("mapping");
      return { from: "ChatGPT", conversations: 2, messages: 9, problems: [[3, "unreadable"]], already: 4 };
    };
    const user = await openSettings("en", "data");
    const section = await screen.findByTestId("data-settings");
    expect(within(section).getByTestId("no-backups")).toHaveTextContent("None yet");
    const file = new File(['[{"mapping": {}}]'], "conversations.json", { type: "application/json" });
    await user.upload(within(section).getByTestId("import-file"), file);
    expect(await within(section).findByTestId("data-note")).toHaveTextContent(
      "Imported 9 messages in 2 conversations from ChatGPT. 4 messages were already in Sidecar and not stored again. 1 problem: some conversations or messages could not be read, or were kept without their time.",
    );
  });
});

describe("Memory search", () => {
  it("marks the turns shown beside a hit and says when only words were searched", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => ({ facts: [], problems: [] });
    core.handlers.search_memory = () => ({
      hits: [
        { source: "message", id: 4, label: "user", snippet: "Mi hermana empezó de enfermera", timestamp: "2026-03-01T10:00:00Z", external_id: null, score: 0.03, beside: false },
        { source: "message", id: 5, label: "assistant", snippet: "¡Qué bien!", timestamp: "2026-03-01T10:00:05Z", external_id: null, score: 0.03, beside: true },
      ],
      more: 0,
      weaker: 0,
      words_only: "the embeddings server at http://x/v1 answered 401",
    });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    await user.type(await screen.findByTestId("memory-search"), "sister's job");
    const hits = await screen.findAllByTestId("recall-hit", {}, { timeout: 2000 });
    expect(hits[1]).toHaveTextContent("said next to it");
    expect(hits[1]).toHaveClass("beside");
    expect(screen.getByTestId("memory-words-only")).toHaveTextContent("Searched by words only: the embeddings server at http://x/v1 answered 401");
  });
});

describe("Facts that stay true", () => {
  const fact = (line: number, text: string, extra: Record<string, unknown> = {}) => ({
    line,
    category: "General" as const,
    weight: 1,
    text,
    learned: "2026-01-01",
    confirmed: "2026-01-01",
    slot: "home",
    superseded: null,
    ...extra,
  });

  it("shows a fact's history under the current one, and asks before a Health fact is replaced", async () => {
    const core = new FakeCore();
    const health = { category: "Health" as const, slot: "detail:blood type" };
    core.handlers.memory_report = () => ({
      facts: [
        fact(3, "Lives in Barcelona", { superseded: "2026-11-20" }),
        fact(4, "Moved to Madrid"),
        fact(7, "Her blood type is O negative", health),
        fact(8, "Her blood type is A positive", { ...health, learned: "2026-11-22" }),
      ],
      problems: [],
      conflicts: [{ older: fact(7, "Her blood type is O negative", health), newer: fact(8, "Her blood type is A positive", health) }],
      origins: [],
    });
    core.handlers.supersede_fact = () => null;
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    const history = await screen.findByTestId("fact-history");
    expect(history).toHaveTextContent("Before: Lives in Barcelona (until 2026-11-20)");
    expect(screen.getAllByTestId("fact").map((f) => f.querySelector(".fact-body")?.firstChild?.textContent)).not.toContain("Lives in Barcelona");
    const conflict = screen.getByTestId("fact-conflict");
    expect(conflict).toHaveTextContent("These facts may contradict each other");
    await user.click(within(conflict).getByTestId("conflict-replace"));
    expect(core.invoked("supersede_fact").at(-1)!.args).toEqual({ line: 7, expected: "Her blood type is O negative" });
  });
});

describe("Remember this?", () => {
  it("offers the facts the model did not save, keeps one and dismisses another", async () => {
    const core = new FakeCore();
    core.handlers.remember_fact = () => ({ action: "new", category: "Health" });
    renderApp();
    const user = userEvent.setup();
    await core.event({
      type: "facts_noticed",
      conversation_id: 1,
      message_id: 9,
      said_id: 8,
      saved: false,
      suggestions: [
        { text: "Soy alérgica a los frutos secos", category: "Health" },
        { text: "Mi hermana Ana vive en Lyon", category: "Relationships" },
      ],
    });
    const chips = await screen.findAllByTestId("fact-chip");
    expect(chips[0]).toHaveTextContent("Remember this? Soy alérgica a los frutos secos · Health");
    await user.click(within(chips[0]).getByTestId("fact-chip-keep"));
    expect(core.invoked("remember_fact").at(-1)!.args).toEqual({ text: "Soy alérgica a los frutos secos", category: "Health", from: 8 });
    await waitFor(() => expect(screen.getAllByTestId("fact-chip")).toHaveLength(1));
    await user.click(screen.getByTestId("fact-chip-dismiss"));
    expect(screen.queryByTestId("fact-suggestions")).not.toBeInTheDocument();
  });

  it("says what was saved without asking, and the setting changes it", async () => {
    const core = new FakeCore();
    core.handlers.auto_remember = () => false;
    core.handlers.set_auto_remember = (args) => (args as { on: boolean }).on;
    renderApp();
    const user = userEvent.setup();
    await core.event({ type: "facts_noticed", conversation_id: 1, message_id: 9, said_id: 8, saved: true, suggestions: [{ text: "Works as a nurse", category: "Work" }] });
    expect(await screen.findByTestId("fact-chip")).toHaveTextContent("Remembered: Works as a nurse");
    expect(screen.queryByTestId("fact-chip-keep")).not.toBeInTheDocument();
    await openSettingsSection(user, "meaning");
    const box = await screen.findByTestId("auto-remember");
    expect(box).not.toBeChecked();
    await user.click(box);
    expect(core.invoked("set_auto_remember").at(-1)!.args).toEqual({ on: true });
    await waitFor(() => expect(box).toBeChecked());
  });
});
