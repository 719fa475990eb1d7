import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { ProviderInput } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";

function firstLaunch() {
  const core = new FakeCore();
  core.welcome = true;
  core.handlers.save_provider = (args) => ({ provider: { ...(args as { input: ProviderInput }).input, key: { kind: "keychain" } }, warning: null });
  core.handlers.finish_welcome = () => null;
  return core;
}

describe("the welcome on first launch", () => {
  it("offers the local server found running and uses the model picked from its list", async () => {
    const core = firstLaunch();
    core.servers = [{ id: "ollama", label: "Ollama", base_url: "http://127.0.0.1:11434/v1", models: ["llama3.2:latest", "qwen3:4b"], context_window: 8192 }];
    const user = userEvent.setup();
    renderApp();
    const found = await screen.findByTestId("found-ollama");
    expect(found).toHaveTextContent("Ollama is running with 2 models");
    await user.selectOptions(within(found).getByRole("combobox"), "qwen3:4b");
    await user.click(within(found).getByTestId("use-ollama"));
    await waitFor(() => expect(screen.queryByTestId("welcome")).not.toBeInTheDocument());
    const saved = (core.invoked("save_provider")[0].args as { input: ProviderInput }).input;
    expect(saved).toMatchObject({ id: "ollama", base_url: "http://127.0.0.1:11434/v1", model: "qwen3:4b", context_window: 8192 });
    expect(core.invoked("finish_welcome")).toHaveLength(1);
    expect(await screen.findByTestId("empty-body")).toBeInTheDocument();
  });

  it("adds a provider from a preset with the model list fetched from the server", async () => {
    const core = firstLaunch();
    core.handlers.list_provider_models = () => ["kimi-k2.5", "moonshot-v1-8k"];
    const user = userEvent.setup();
    renderApp();
    expect(await screen.findByTestId("welcome-no-servers")).toHaveTextContent("No local model server is running");
    await user.click(await screen.findByRole("button", { name: "Moonshot (Kimi)" }));
    // Save waits for a key, and a newcomer without one is shown where to get it.
    expect(screen.getByTestId("welcome-save-provider")).toBeDisabled();
    await user.click(screen.getByTestId("welcome-key-page"));
    expect(core.invoked("plugin:opener|open_url")[0].args).toMatchObject({ url: "https://platform.moonshot.ai/console/api-keys" });
    await user.type(screen.getByTestId("welcome-key"), "   ");
    expect(screen.getByTestId("welcome-save-provider")).toBeDisabled();
    await user.clear(screen.getByTestId("welcome-key"));
    await user.type(screen.getByTestId("welcome-key"), "sk-moon");
    expect(screen.getByTestId("welcome-save-provider")).toBeEnabled();
    expect(screen.getByText("256k context")).toBeInTheDocument();
    await user.click(screen.getByTestId("load-models"));
    const list = await screen.findByTestId("field-model-list");
    expect(within(list).getAllByRole("option").map((o) => o.textContent)).toEqual(["kimi-k2.5", "moonshot-v1-8k"]);
    const asked = (core.invoked("list_provider_models")[0].args as { input: ProviderInput }).input;
    expect(asked).toMatchObject({ base_url: "https://api.moonshot.ai/v1", api_key: "sk-moon" });
    await user.selectOptions(list, "moonshot-v1-8k");
    await user.click(screen.getByTestId("welcome-save-provider"));
    await waitFor(() => expect(screen.queryByTestId("welcome")).not.toBeInTheDocument());
    const saved = (core.invoked("save_provider")[0].args as { input: ProviderInput }).input;
    expect(saved).toMatchObject({ id: "moonshot", model: "moonshot-v1-8k", api_key: "sk-moon", context_window: 262144 });
  });

  it("downloads the model recommended for this machine with progress, then uses it", async () => {
    const core = firstLaunch();
    core.handlers.pull_model = () => "Qwen3-1.7B-Q4_K_M.gguf";
    core.handlers.use_local_model = () => ({ active: "Qwen3-1.7B-Q4_K_M", context_tokens: 8192, restart_ms: null, warning: null });
    const user = userEvent.setup();
    renderApp();
    const card = await screen.findByTestId("welcome-download");
    expect(card).toHaveTextContent("Qwen3 1.7B: 1.0 GB, for 4 GB of memory or more");
    await user.click(within(card).getByTestId("welcome-download-button"));
    expect(core.invoked("pull_model")[0].args).toEqual({ what: "qwen3-1.7b", sha256: null });
    const file = "Qwen3-1.7B-Q4_K_M.gguf";
    await core.event({ type: "model_download", file, received_bytes: 555_000_000, total_bytes: 1_110_000_000, phase: "running", message: null });
    expect(await within(card).findByText("529 MB of 1.0 GB (50%)")).toBeInTheDocument();
    expect(within(card).getByRole("button", { name: "Pause" })).toBeInTheDocument();
    await core.event({ type: "model_download", file, received_bytes: 1_110_000_000, total_bytes: 1_110_000_000, phase: "done", message: null });
    await waitFor(() => expect(screen.queryByTestId("welcome")).not.toBeInTheDocument());
    expect(core.invoked("use_local_model")[0].args).toEqual({ name: "Qwen3-1.7B-Q4_K_M" });
  });

  it("can keep the demo model, in Spanish too", async () => {
    const core = firstLaunch();
    const user = userEvent.setup();
    renderApp("es");
    expect(await screen.findByText("Bienvenido a Sidecar")).toBeInTheDocument();
    // One decimal mark in Spanish: the comma (the first hour's p2).
    expect(await screen.findByTestId("welcome-download")).toHaveTextContent("Qwen3 1.7B: 1,0 GB, para 4 GB de memoria o más");
    await user.click(screen.getByTestId("welcome-keep-demo"));
    expect(screen.queryByTestId("welcome")).not.toBeInTheDocument();
    expect(core.invoked("finish_welcome")).toHaveLength(1);
  });

  it("does not show once a model was chosen", async () => {
    new FakeCore();
    renderApp();
    expect(await screen.findByTestId("empty-body")).toBeInTheDocument();
    expect(screen.queryByTestId("welcome")).not.toBeInTheDocument();
  });
});
