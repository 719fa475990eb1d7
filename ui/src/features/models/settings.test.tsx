import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ProviderInput, ProviderView, UsageReport } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";


const primary: ProviderView = {
  id: "primary", kind: "openai", base_url: "https://api.openai.com/v1", model: "gpt-4o-mini",
  api_key_env: null, tools: true, context_window: null, sampling: {}, vision: null, sees_images: false, key: { kind: "keychain" },
};

describe("settings", () => {
  it("adds a provider from a preset, tests it, and says where the key went", async () => {
    const core = new FakeCore();
    let saved: ProviderInput | null = null;
    core.handlers.test_provider = () => ({ ok: true, latency_ms: 120, message: "gpt-4o-mini answered in 120 ms" });
    core.handlers.save_provider = (args) => {
      saved = (args as { input: ProviderInput }).input;
      const view: ProviderView = { ...primary, id: saved.id, key: { kind: "session", reason: "no keychain is available (no Secret Service)" } };
      core.providers = [view];
      return { provider: view, warning: null };
    };
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    expect(await screen.findByText(/No providers yet/)).toBeInTheDocument();
    await user.click(screen.getByTestId("add-provider"));
    const form = screen.getByTestId("provider-form");
    await user.click(await within(form).findByText("OpenAI"));
    expect(screen.getByTestId("field-url")).toHaveValue("https://api.openai.com/v1");
    await user.type(screen.getByTestId("field-key"), "sk-test");
    await user.click(screen.getByTestId("test-connection"));
    expect(await screen.findByTestId("test-result")).toHaveTextContent("answered in 120 ms");
    expect(core.invoked("test_provider")[0].args).toMatchObject({ input: { id: "openai", api_key: "sk-test" } });

    await user.click(screen.getByTestId("save-provider"));
    expect(saved).toMatchObject({ id: "openai", model: "gpt-4o-mini", api_key: "sk-test" });
    expect(await screen.findByTestId("settings-message")).toHaveTextContent("kept for this session only");
    const row = await screen.findByTestId("provider-row");
    expect(row).toHaveTextContent("key kept for this session only");
    expect(row).not.toHaveTextContent("sk-test");
  });

  it("shows a save error from the core and keeps the form", async () => {
    const core = new FakeCore();
    core.handlers.save_provider = () => Promise.reject({ message: "the name may use letters, digits, - and _ only", retryable: false });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    await user.click(await screen.findByTestId("add-provider"));
    await user.type(screen.getByTestId("field-id"), "my provider");
    await user.click(screen.getByTestId("save-provider"));
    expect(await screen.findByTestId("form-error")).toHaveTextContent("letters, digits");
    expect(screen.getByTestId("provider-form")).toBeInTheDocument();
  });

  it("reorders and removes providers", async () => {
    const core = new FakeCore();
    core.providers = [primary, { ...primary, id: "backup", model: "deepseek-chat", key: { kind: "none" } }];
    core.handlers.order_providers = () => null;
    core.handlers.remove_provider = () => null;
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    const rows = await screen.findAllByTestId("provider-row");
    await user.click(within(rows[1]).getByLabelText("Move up"));
    expect(core.invoked("order_providers")[0].args).toEqual({ ids: ["backup", "primary"] });
    await user.click(within(rows[0]).getByText("Remove"));
    expect(core.invoked("remove_provider")[0].args).toEqual({ id: "primary" });
  });
});

describe("model picker and usage", () => {
  it("pins a model to the conversation", async () => {
    const core = new FakeCore();
    core.providers = [primary];
    renderApp();
    const user = userEvent.setup();
    const picker = await screen.findByTestId("model-picker");
    await waitFor(() => expect(within(picker).getByText("gpt-4o-mini (primary)")).toBeInTheDocument());
    await user.selectOptions(picker, "primary");
    expect(core.invoked("pin_model").at(-1)?.args).toEqual({ id: "primary" });
    await user.selectOptions(picker, "");
    expect(core.invoked("pin_model").at(-1)?.args).toEqual({ id: null });
  });

  it("shows Automatic again after New chat, as the new conversation runs", async () => {
    const core = new FakeCore();
    core.providers = [primary];
    core.pinned = "local";
    core.handlers.new_conversation = () => {
      core.pinned = null;
      return 2;
    };
    renderApp();
    const user = userEvent.setup();
    const picker = (await screen.findByTestId("model-picker")) as HTMLSelectElement;
    await waitFor(() => expect(picker.value).toBe("local"));
    await user.click(screen.getByTestId("new-chat"));
    await waitFor(() => expect((screen.getByTestId("model-picker") as HTMLSelectElement).value).toBe(""));
  });

  it("opens the logs folder from Settings", async () => {
    const core = new FakeCore();
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    await user.click(await screen.findByTestId("open-logs"));
    expect(core.invoked("open_logs_folder")).toHaveLength(1);
  });

  it("shows a warning from the core at start until it is dismissed", async () => {
    const core = new FakeCore();
    const warning = '[user] timezone "Mars/Base" in settings.toml is not an IANA time zone; using UTC instead.';
    core.handlers.core_warnings = () => [warning];
    renderApp();
    const user = userEvent.setup();
    expect(await screen.findByTestId("core-warning")).toHaveTextContent("Mars/Base");
    await user.click(within(screen.getByTestId("core-warning")).getByText("Dismiss"));
    expect(screen.queryByTestId("core-warning")).not.toBeInTheDocument();
  });

  it("lists the settings file's warnings on the Settings page", async () => {
    const core = new FakeCore();
    const warning = "settings.toml: unknown key llm.max_retrys (did you mean llm.max_retries?); it is ignored";
    core.handlers.core_warnings = () => [warning];
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    expect(await screen.findByTestId("settings-warnings")).toHaveTextContent("did you mean llm.max_retries?");
  });

  it("shows today, all time, and per-model totals", async () => {
    const core = new FakeCore();
    const turns = { turns: 20, truncated: 1, claimed_without_acting: 2, reinforced: 9, plans_finished: 3, plans_abandoned: 1 };
    const totals = { turns, calls: 3, input_tokens: 4500, output_tokens: 300, cached_tokens: 4000, cost_usd: 0.0123, unpriced_calls: 1, by_model: [
      { provider: "primary", model: "gpt-4o-mini", calls: 2, input_tokens: 4000, output_tokens: 200, cost_usd: 0.0123 },
      { provider: "local", model: "SmolLM2", calls: 1, input_tokens: 500, output_tokens: 100, cost_usd: 0 },
    ], by_purpose: [
      { purpose: "chat" as const, calls: 2, input_tokens: 4000, output_tokens: 200, cost_usd: 0.0123 },
      { purpose: "summarize" as const, calls: 1, input_tokens: 500, output_tokens: 100, cost_usd: 0 },
    ] };
    const report: UsageReport = { today: { ...totals, calls: 1 }, all_time: totals };
    core.handlers.usage_report = () => report;
    renderApp();
    const user = userEvent.setup();
    await act(() => user.click(screen.getByTestId("nav-usage")));
    const cards = await screen.findAllByTestId("usage-card");
    expect(cards[1]).toHaveTextContent("4,500");
    expect(within(cards[1]).getByTestId("usage-cost")).toHaveTextContent("$0.01");
    expect(cards[1]).toHaveTextContent("1 calls with an unknown price");
    expect(within(cards[1]).getByTestId("usage-cached")).toHaveTextContent("4,000");
    expect(screen.getByTestId("usage-truncated")).toHaveTextContent("1 (5%)");
    expect(screen.getByTestId("usage-claimed")).toHaveTextContent("2 (10%)");
    expect(screen.getByTestId("usage-plans")).toHaveTextContent("3 / 1");
    expect(screen.getAllByTestId("usage-row")).toHaveLength(2);
    const purposes = screen.getAllByTestId("usage-purpose-row");
    expect(purposes.map((r) => r.firstElementChild?.textContent)).toEqual(["Replies", "Summaries"]);
  });
});

describe("settings navigation", () => {
  it("shows one section at a time, picked from the list, and comes back to it", async () => {
    new FakeCore();
    const first = renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    expect(screen.getByTestId("settings-section-desktop")).toBeVisible();
    expect(screen.getByTestId("settings-section-data")).not.toBeVisible();
    expect(screen.getByTestId("settings-nav-desktop")).toHaveAttribute("aria-current", "page");
    await user.click(screen.getByTestId("settings-nav-data"));
    expect(screen.getByTestId("settings-section-data")).toBeVisible();
    expect(screen.getByTestId("settings-section-desktop")).not.toBeVisible();
    expect(screen.getByRole("heading", { name: "Your data" })).toBeVisible();
    first.unmount();
    // Settings opens again where it was left.
    renderApp();
    await user.click(screen.getByTestId("nav-settings"));
    expect(screen.getByTestId("settings-section-data")).toBeVisible();
  });

  it("searches every section's words, accents aside, and says when nothing matches", async () => {
    new FakeCore();
    renderApp("es");
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    await screen.findByTestId("data-settings");
    const search = screen.getByTestId("settings-search");
    // "telegram" is on the channels section only, which is not open.
    await user.type(search, "telegram");
    expect(screen.getByTestId("settings-section-channels")).toBeVisible();
    expect(screen.getByTestId("settings-section-desktop")).not.toBeVisible();
    expect(screen.getByTestId("settings-nav-desktop")).toHaveClass("dim");
    // Without accents, a title with them.
    await user.clear(search);
    await user.type(search, "busqueda web");
    expect(screen.getByTestId("settings-section-search")).toBeVisible();
    expect(screen.getByTestId("settings-section-channels")).not.toBeVisible();
    await user.clear(search);
    await user.type(search, "zzzz");
    expect(screen.getByTestId("settings-no-match")).toHaveTextContent("Ningún ajuste menciona «zzzz»");
    // Escape clears the search; the section chosen before is back.
    await user.type(search, "{Escape}");
    expect(screen.getByTestId("settings-section-desktop")).toBeVisible();
    expect(screen.queryByTestId("settings-no-match")).toBeNull();
    // Enter opens the first match.
    await user.type(search, "copia{Enter}");
    expect(search).toHaveValue("");
    expect(screen.getByTestId("settings-nav-data")).toHaveAttribute("aria-current", "page");
  });

  it("a provider's sampling and context are edited in its form and sent as set", async () => {
    const core = new FakeCore();
    core.providers = [{ ...primary, kind: "anthropic", context_window: 200000, sampling: { temperature: 0.4 } }];
    core.handlers.save_provider = (args) => ({ provider: { ...primary, ...(args as { input: ProviderInput }).input }, warning: null });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    await user.click(screen.getByTestId("settings-nav-providers"));
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    const form = screen.getByTestId("provider-form");
    expect(within(form).getByTestId("provider-sampling-temperature")).toHaveValue(0.4);
    expect(within(form).getByTestId("provider-sampling-context")).toHaveValue(200000);
    // Anthropic's API has no repetition penalty: no field for it.
    expect(within(form).queryByTestId("provider-sampling-repeat_penalty")).toBeNull();
    await user.type(within(form).getByTestId("provider-sampling-max_tokens"), "4096");
    await user.click(within(form).getByTestId("save-provider"));
    const sent = (core.invoked("save_provider")[0].args as { input: ProviderInput }).input;
    expect(sent.sampling).toEqual({ temperature: 0.4, max_tokens: 4096 });
    expect(sent.context_window).toBe(200000);
  });

  it("a provider's images setting shows the core's decision and is sent as chosen", async () => {
    const core = new FakeCore();
    core.providers = [{ ...primary, sees_images: true, vision: null }];
    core.handlers.save_provider = (args) => ({ provider: { ...primary, ...(args as { input: ProviderInput }).input }, warning: null });
    renderApp("es");
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    await user.click(screen.getByTestId("settings-nav-providers"));
    await user.click(await screen.findByRole("button", { name: "Editar" }));
    const vision = screen.getByTestId("field-vision");
    expect(vision).toHaveDisplayValue("Automático (este modelo ve imágenes)");
    await user.selectOptions(vision, "no");
    await user.click(screen.getByTestId("save-provider"));
    expect((core.invoked("save_provider")[0].args as { input: ProviderInput }).input.vision).toBe(false);
  });
});
