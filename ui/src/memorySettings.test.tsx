import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "./test/fakeCore";
import { renderApp } from "./test/renderApp";

async function openSettings(lang: "en" | "es" = "en") {
  const user = userEvent.setup();
  renderApp(lang);
  await user.click(await screen.findByTestId("nav-settings"));
  return user;
}

describe("Settings → Memory search", () => {
  it("shows the local model's state and its progress as batches are embedded", async () => {
    const core = new FakeCore();
    await openSettings();
    const section = await screen.findByTestId("meaning-settings");
    expect(within(section).getByTestId("meaning-local")).toBeChecked();
    expect(within(section).getByTestId("meaning-state")).toHaveTextContent("Ready: multilingual-e5-small-q4.");
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
    const user = await openSettings();
    const section = await screen.findByTestId("data-settings");
    expect(within(section).getByTestId("backup-list")).toHaveTextContent("2026-11-23");
    await user.click(within(section).getByTestId("back-up-now"));
    expect(await within(section).findByTestId("data-note")).toHaveTextContent("Backed up to /d/backups/sidecar-2026-11-23-101500.sidecar-backup (2.4 MB).");
    await user.click(within(section).getByTestId("export-json"));
    await waitFor(() => expect(within(section).getByTestId("data-note")).toHaveTextContent("Exported to /d/exports/sidecar-export.json."));
    await user.click(within(section).getByRole("button", { name: "Show folder" }));
    expect(core.invoked("reveal_path").at(-1)!.args).toEqual({ path: "/d/exports/sidecar-export.json" });
  });

  it("imports a ChatGPT export and says what was skipped, with an empty state before any backup", async () => {
    const core = new FakeCore();
    core.handlers.import_chat_export = (args) => {
      expect((args as { text: string }).text).toContain("mapping");
      return { from: "ChatGPT", conversations: 2, messages: 9, problems: [[3, "unreadable"]] };
    };
    const user = await openSettings();
    const section = await screen.findByTestId("data-settings");
    expect(within(section).getByTestId("no-backups")).toHaveTextContent("None yet");
    const file = new File(['[{"mapping": {}}]'], "conversations.json", { type: "application/json" });
    await user.upload(within(section).getByTestId("import-file"), file);
    expect(await within(section).findByTestId("data-note")).toHaveTextContent(
      "Imported 9 messages in 2 conversations from ChatGPT. 1 conversation could not be read and was skipped.",
    );
  });
});

describe("Memory search", () => {
  it("marks the turns shown beside a hit and says when only words were searched", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => ({ facts: [], problems: [] });
    core.handlers.recall_search = () => ({
      hits: [
        { source: "message", id: 4, label: "user", snippet: "Mi hermana empezó de enfermera", timestamp: "2026-03-01T10:00:00Z", external_id: null, score: 0.03, beside: false },
        { source: "message", id: 5, label: "assistant", snippet: "¡Qué bien!", timestamp: "2026-03-01T10:00:05Z", external_id: null, score: 0.03, beside: true },
      ],
      omitted: 0,
      tokens: 40,
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
