import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { MemoryReport } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";


const report: MemoryReport = {
  facts: [
    { line: 6, category: "Preferences", slot: null, weight: 3, text: "Likes green tea", learned: "2026-01-02", confirmed: "2026-11-20", critical: false },
    { line: 4, category: "Health", slot: null, weight: 5, text: "Allergic to peanuts", learned: "2026-01-01", confirmed: "2026-11-01", critical: false },
  ],
  problems: [{ line: 9, text: "- likes jazz", reason: "missing [weight:N]" }],
  conflicts: [],
  origins: [{ line: 6, message_id: 41 }],
  suspects: [],
};

describe("memory view", () => {
  it("lists facts by category with Health first and marked, and shows unreadable lines", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => report;
    renderApp();
    await userEvent.setup().click(screen.getByTestId("nav-memory"));
    const groups = await screen.findAllByTestId("fact-group");
    expect(groups[0]).toHaveTextContent("Health");
    expect(groups[0]).toHaveTextContent("always included");
    expect(groups[0]).toHaveTextContent("Allergic to peanuts");
    expect(groups[1]).toHaveTextContent("you told me 3 times · first on 2 Jan 2026, last on 20 Nov 2026");
    expect(groups[1]).not.toHaveTextContent("weight");
    expect(screen.getByTestId("memory-problems")).toHaveTextContent("line 9 - likes jazz (missing [weight:N])");
  });

  it("adds a fact and says what the engine did", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => report;
    core.handlers.remember_fact = () => ({ action: "kept_in_health", requested: "Schedule", weight: 6 });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    await user.selectOptions(await screen.findByTestId("fact-category"), "Schedule");
    await user.type(screen.getByTestId("fact-text"), "allergic to peanuts");
    await user.click(screen.getByTestId("add-fact"));
    expect(core.invoked("remember_fact")[0].args).toEqual({ text: "allergic to peanuts", category: "Schedule" });
    expect(await screen.findByTestId("memory-message")).toHaveTextContent("Already known under Health; kept there.");
  });

  it("searches with recall, highlights the matched words and shows more on demand", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => ({ facts: [], problems: [] });
    const hit = (id: number) => ({ source: "message", id, label: "user", snippet: `My dentist is [Dr] [Okafor] (${id})`, timestamp: "2024-03-01T10:00:00Z", external_id: "wa-1", score: 0.03, beside: false });
    core.handlers.search_memory = (args) => {
      const { pages, weaker } = args as { pages: number; weaker: boolean };
      if (weaker) return { hits: [hit(1), hit(2), hit(3)], more: 0, weaker: 0, words_only: null };
      return pages === 1 ? { hits: [hit(1)], more: 1, weaker: 1, words_only: null } : { hits: [hit(1), hit(2)], more: 0, weaker: 1, words_only: null };
    };
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    expect(await screen.findByText(/Nothing saved yet/)).toBeInTheDocument();
    await user.type(screen.getByTestId("memory-search"), "okafor");
    const first = await screen.findByTestId("recall-hit", {}, { timeout: 2000 });
    expect(first).toHaveTextContent("You · 1 Mar 2024 · wa-1");
    expect(within(first).getByText("Okafor").tagName).toBe("MARK");
    await waitFor(() => expect(core.invoked("search_memory").at(-1)?.args).toEqual({ query: "okafor", pages: 1, weaker: false }));
    expect(screen.queryByTestId("memory-weaker")).not.toBeInTheDocument();
    await user.click(screen.getByTestId("memory-more"));
    await waitFor(() => expect(screen.getAllByTestId("recall-hit")).toHaveLength(2), { timeout: 2000 });
    expect(core.invoked("search_memory").at(-1)?.args).toEqual({ query: "okafor", pages: 2, weaker: false });
    await user.click(screen.getByTestId("memory-weaker"));
    await waitFor(() => expect(screen.getAllByTestId("recall-hit")).toHaveLength(3), { timeout: 2000 });
    expect(screen.queryByTestId("memory-more")).not.toBeInTheDocument();
    // A new query starts from its best matches again.
    await user.type(screen.getByTestId("memory-search"), "!");
    await waitFor(() => expect(core.invoked("search_memory").at(-1)?.args).toEqual({ query: "okafor!", pages: 1, weaker: false }), { timeout: 2000 });
  });

  it("says a hit is a mail and from whom, with no link into a chat", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => ({ facts: [], problems: [] });
    core.handlers.search_memory = () => ({
      hits: [{ source: "mail", id: 7, label: "Ana Ruiz <ana@example.org>", snippet: "Ana Ruiz: El [piso]", timestamp: "2026-12-07T09:00:00+00:00", external_id: null, score: 0.05, beside: false }],
      more: 0,
      weaker: 0,
      words_only: null,
    });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    await user.type(screen.getByTestId("memory-search"), "piso");
    const hit = await screen.findByTestId("recall-hit", {}, { timeout: 2000 });
    expect(hit).toHaveTextContent("Mail from Ana Ruiz <ana@example.org> · 7 Dec 2026");
    expect(within(hit).queryByTestId("open-hit")).not.toBeInTheDocument();
  });

  it("edits, moves and deletes a fact, sending the text it showed", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => report;
    core.handlers.edit_fact = () => null;
    core.handlers.delete_fact = () => null;
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    const rows = await screen.findAllByTestId("fact");
    await user.click(within(rows[1]).getByTestId("fact-edit"));
    const input = screen.getByTestId("fact-edit-text");
    await user.clear(input);
    await user.type(input, "Likes oolong tea");
    await user.selectOptions(screen.getByTestId("fact-edit-category"), "General");
    await user.click(screen.getByTestId("fact-save"));
    expect(core.invoked("edit_fact")[0].args).toEqual({ line: 6, expected: "Likes green tea", text: "Likes oolong tea", category: "General" });
    await user.click(within((await screen.findAllByTestId("fact"))[0]).getByTestId("fact-delete"));
    expect(core.invoked("delete_fact")[0].args).toEqual({ line: 4, expected: "Allergic to peanuts" });
  });

  it("shows why a stale edit was refused", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => report;
    core.handlers.delete_fact = () =>
      Promise.reject({ message: "learnings.md changed since it was shown; reload and try again", retryable: false });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    await user.click(within((await screen.findAllByTestId("fact"))[0]).getByTestId("fact-delete"));
    expect(await screen.findByTestId("memory-message")).toHaveTextContent("changed since it was shown");
  });

  it("names categories in Spanish", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => report;
    renderApp("es");
    await act(() => userEvent.setup().click(screen.getByTestId("nav-memory")));
    const groups = await screen.findAllByTestId("fact-group");
    expect(groups[0]).toHaveTextContent("Salud");
    expect(groups[1]).toHaveTextContent("Preferencias");
  });

  it("marks a fact important and back, and opens the chat a fact was learned in", async () => {
    const core = new FakeCore();
    let critical = false;
    core.handlers.memory_report = () => ({ ...report, facts: [{ ...report.facts[0], critical }, report.facts[1]] });
    core.handlers.mark_fact_important = (args) => {
      critical = (args as { important: boolean }).important;
      return null;
    };
    core.handlers.open_chat_at = () => 3;
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    const tea = (await screen.findAllByTestId("fact")).find((row) => row.textContent?.includes("Likes green tea"))!;
    expect(within(tea).queryByTestId("fact-important")).not.toBeInTheDocument();
    await user.click(within(tea).getByTestId("fact-mark-important"));
    expect(core.invoked("mark_fact_important")[0].args).toEqual({ line: 6, expected: "Likes green tea", important: true });
    expect(await screen.findByTestId("memory-message")).toHaveTextContent("Marked important: “Likes green tea”. It is in every reply");
    const marked = (await screen.findAllByTestId("fact-important"))[0];
    expect(marked).toHaveTextContent("Important");
    const row = marked.closest("li")!;
    expect(within(row).getByTestId("fact-mark-important")).toHaveAttribute("aria-pressed", "true");
    await user.click(within(row).getByTestId("fact-mark-important"));
    expect(core.invoked("mark_fact_important")[1].args).toEqual({ line: 6, expected: "Likes green tea", important: false });
    await waitFor(() => expect(screen.queryByTestId("fact-important")).not.toBeInTheDocument());
    // Only the fact learned in a chat has the way back to it.
    expect(screen.getAllByTestId("fact-origin")).toHaveLength(1);
    await user.click(screen.getByTestId("fact-origin"));
    await waitFor(() => expect(core.invoked("open_chat_at")[0]?.args).toEqual({ messageId: 41 }));
  });
});

describe("forget everything about someone", () => {
  it("lists what names them, forgets only what stays ticked, and says what went", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => report;
    core.handlers.about_someone = () => ({
      name: "Ana",
      facts: [{ ...report.facts[0], line: 7, text: "Ana is allergic to pecans" }],
      messages: [
        { message_id: 11, conversation_id: 2, role: "user", excerpt: "[Ana] turns forty in March", at: "2026-11-02T10:00:00Z" },
        { message_id: 12, conversation_id: 2, role: "user", excerpt: "[Ana] and I went to the cinema", at: "2026-11-03T10:00:00Z" },
      ],
      notes: [{ kind: "checkpoint", id: 4, excerpt: "Planning [Ana]'s party" }],
      more: false,
    });
    core.handlers.forget_about = () => ({ facts: 1, messages: 2, notes: 1, changed: 0 });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    await user.click(await screen.findByTestId("forget-about-open"));
    await user.type(screen.getByTestId("forget-about-name"), "Ana{Enter}");
    const list = await screen.findByTestId("forget-about-list");
    expect(list).toHaveTextContent("What names “Ana”:");
    expect(list).toHaveTextContent("Ana is allergic to pecans");
    expect(list).toHaveTextContent("Checkpoint");
    const items = within(list).getAllByTestId("forget-about-item");
    expect(items).toHaveLength(4);
    expect(screen.getByTestId("forget-about-confirm")).toHaveTextContent("Forget 4 items for good");
    await user.click(items[2]); // the cinema stays
    await user.click(screen.getByTestId("forget-about-confirm"));
    expect(core.invoked("forget_about")[0].args).toEqual({
      chosen: { facts: [{ line: 7, text: "Ana is allergic to pecans" }], messages: [11], notes: [{ kind: "checkpoint", id: 4, excerpt: "Planning [Ana]'s party" }] },
    });
    expect(await screen.findByTestId("forget-about-said")).toHaveTextContent("Forgotten about “Ana”: 1 fact, 2 messages, 1 summary or checkpoint.");
  });

  it("says when nothing names them", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => report;
    core.handlers.about_someone = () => ({ name: "Zoe", facts: [], messages: [], notes: [], more: false });
    renderApp("es");
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    await user.click(await screen.findByTestId("forget-about-open"));
    await user.type(screen.getByTestId("forget-about-name"), "Zoe{Enter}");
    expect(await screen.findByText("Nada de lo que Sidecar guarda nombra a «Zoe».")).toBeInTheDocument();
  });
});

describe("tidying that asks", () => {
  it("lists the tidy's proposals and sends each answer, and the switch to tidy alone", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => report;
    const old = { ...report.facts[0], line: 3, text: "Works at Google", category: "Work" as const, superseded: "2026-11-28" };
    const newer = { ...report.facts[0], line: 4, text: "Works at a startup now", category: "Work" as const };
    let proposals = [
      { kind: "merge", key: "m1", a: report.facts[0], b: { ...report.facts[0], line: 8, text: "Loves green tea" } },
      { kind: "repair", key: "r1", line: 9, raw: "- likes jazz", fixed: "- [weight:1] likes jazz | learned:2026-12-07 | confirmed:2026-12-07" },
      { kind: "replaced", key: "x1", old, new: newer },
    ];
    core.handlers.memory_review = () => ({ proposals, repaired: [], alone: false });
    core.handlers.answer_tidy = (args) => {
      proposals = proposals.filter((p) => p.key !== (args as { key: string }).key);
      return null;
    };
    core.handlers.set_tidy_alone = () => true;
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-memory"));
    const listed = await screen.findAllByTestId("tidy-proposal");
    expect(listed.map((p) => p.getAttribute("data-kind"))).toEqual(["merge", "repair", "replaced"]);
    expect(listed[0]).toHaveTextContent("These look like one fact: “Likes green tea” and “Loves green tea”.");
    expect(listed[1]).toHaveTextContent("Line 9 of learnings.md is not in the format: - likes jazz → - [weight:1] likes jazz");
    expect(listed[2]).toHaveTextContent("“Works at a startup now” replaced “Works at Google” on 28 Nov.");
    await user.click(within(listed[0]).getByTestId("tidy-first"));
    expect(core.invoked("answer_tidy")[0].args).toEqual({ key: "m1", apply: true });
    expect(await screen.findByTestId("memory-message")).toHaveTextContent("Merged into one fact.");
    await waitFor(() => expect(screen.getAllByTestId("tidy-proposal")).toHaveLength(2));
    // For a replacement, the first answer keeps it and the second undoes it.
    await user.click(within(screen.getAllByTestId("tidy-proposal")[1]).getByTestId("tidy-second"));
    expect(core.invoked("answer_tidy")[1].args).toEqual({ key: "x1", apply: true });
    await user.click(within(await screen.findByTestId("tidy-proposal")).getByTestId("tidy-second"));
    expect(core.invoked("answer_tidy")[2].args).toEqual({ key: "r1", apply: false });
    expect(await screen.findByTestId("memory-message")).toHaveTextContent("Kept as it is; Sidecar will not ask about it again.");
    await user.click(screen.getByTestId("tidy-alone"));
    expect(core.invoked("set_tidy_alone")[0].args).toEqual({ on: true });
  });

  it("says in Spanish what the tidy repaired alone", async () => {
    const core = new FakeCore();
    core.handlers.memory_report = () => report;
    let repaired: [string, string][] = [["9: - le gusta el jazz", "- [weight:1] le gusta el jazz | learned:2026-12-07 | confirmed:2026-12-07"]];
    core.handlers.memory_review = () => {
      const now = { proposals: [], repaired, alone: true };
      repaired = [];
      return now;
    };
    renderApp("es");
    await userEvent.setup().click(screen.getByTestId("nav-memory"));
    expect(await screen.findByTestId("memory-message")).toHaveTextContent("Sidecar reparó 1 línea de learnings.md escrita fuera de formato.");
    expect(screen.getByTestId("tidy-alone")).toBeChecked();
  });
});
