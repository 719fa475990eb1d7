import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ModelsSettings } from "./ModelsSettings";
import { I18nContext, strings } from "../../i18n";
import { FakeCore } from "../../test/fakeCore";

function renderModels() {
  return render(
    <I18nContext.Provider value={strings.en}>
      <ModelsSettings />
    </I18nContext.Provider>,
  );
}

describe("the local model manager", () => {
  it("lists the catalogue by memory, downloads with progress, pauses and resumes", async () => {
    const core = new FakeCore();
    core.handlers.pull_model = () => "Qwen3-1.7B-Q4_K_M.gguf";
    core.handlers.pause_download = () => true;
    const user = userEvent.setup();
    renderModels();
    const qwen = await screen.findByTestId("catalogue-qwen3-1.7b");
    expect(qwen).toHaveTextContent("Best for this computer");
    expect(qwen).toHaveTextContent("Licence: Apache-2.0");
    const gemma = screen.getByTestId("catalogue-gemma3-4b");
    expect(gemma).toHaveTextContent("Needs 8 GB of memory");
    expect(within(gemma).getByRole("button", { name: "Download" })).toBeDisabled();
    expect(screen.getByText("No models downloaded yet. Pick one below.")).toBeInTheDocument();

    await user.click(within(qwen).getByRole("button", { name: "Download" }));
    expect(core.invoked("pull_model")[0].args).toEqual({ what: "qwen3-1.7b", sha256: null });
    const file = "Qwen3-1.7B-Q4_K_M.gguf";
    await core.event({ type: "model_download", file, received_bytes: 300 * 2 ** 20, total_bytes: 1_110_000_000, phase: "running", message: null });
    expect(await within(qwen).findByText(/300 MB of 1.0 GB/)).toBeInTheDocument();
    await user.click(within(qwen).getByRole("button", { name: "Pause" }));
    expect(core.invoked("pause_download")[0].args).toEqual({ file });
    core.hub = { ...core.hub, catalogue: core.hub.catalogue.map((c) => (c.file === file ? { ...c, partial_bytes: 300 * 2 ** 20 } : c)) };
    await core.event({ type: "model_download", file, received_bytes: 300 * 2 ** 20, total_bytes: null, phase: "paused", message: null });
    expect(await within(qwen).findByText("Paused at 300 MB; Resume continues from there.")).toBeInTheDocument();
    await user.click(within(qwen).getByRole("button", { name: "Resume" }));
    expect(core.invoked("pull_model")).toHaveLength(2);
  });

  it("says why a download stopped", async () => {
    const core = new FakeCore();
    renderModels();
    const qwen = await screen.findByTestId("catalogue-qwen3-1.7b");
    await core.event({
      type: "model_download",
      file: "Qwen3-1.7B-Q4_K_M.gguf",
      received_bytes: 0,
      total_bytes: null,
      phase: "failed",
      message: "the download does not match its SHA-256 (expected aa, got bb); it was deleted",
    });
    expect(await within(qwen).findByRole("alert")).toHaveTextContent("The download stopped: the download does not match its SHA-256");
  });

  it("uses a downloaded model, says the restart, and deletes after asking", async () => {
    const core = new FakeCore();
    core.hub = {
      ...core.hub,
      installed: [{ name: "tiny-chat-Q4_1", path: "/m/tiny-chat-Q4_1.gguf", size_bytes: 100 * 2 ** 20, context_tokens: 8192, chat_template: true }],
    };
    core.handlers.use_local_model = (args) => {
      core.hub = { ...core.hub, active: (args as { name: string | null }).name };
      return { active: "tiny-chat-Q4_1", context_tokens: 8192, restart_ms: 640, warning: null };
    };
    core.handlers.remove_local_model = () => {
      core.hub = { ...core.hub, installed: [], active: null };
      return core.hub;
    };
    const user = userEvent.setup();
    renderModels();
    const row = await screen.findByTestId("installed-tiny-chat-Q4_1");
    expect(row).toHaveTextContent("100 MB · 8k context");
    expect(screen.getByTestId("installed-built-in")).toHaveTextContent("In use");
    await user.click(within(row).getByRole("button", { name: "Use" }));
    expect(await screen.findByTestId("models-message")).toHaveTextContent("tiny-chat-Q4_1 is running (restarted in 0.6 s).");
    await waitFor(() => expect(screen.getByTestId("installed-tiny-chat-Q4_1")).toHaveTextContent("In use"));

    // Asked in the window first: Cancel (or Escape) keeps it, Delete removes it.
    const installed = () => within(screen.getByTestId("installed-tiny-chat-Q4_1"));
    await user.click(installed().getByRole("button", { name: "Delete" }));
    expect(installed().getByRole("alertdialog")).toHaveTextContent("Delete tiny-chat-Q4_1? The file is removed from disk.");
    await user.click(installed().getByRole("button", { name: "Cancel" }));
    expect(core.invoked("remove_local_model")).toHaveLength(0);
    await user.click(installed().getByRole("button", { name: "Delete" }));
    await user.keyboard("{Escape}");
    expect(installed().queryByRole("alertdialog")).toBeNull();
    await user.click(installed().getByRole("button", { name: "Delete" }));
    await user.click(installed().getByRole("button", { name: "Delete" }));
    expect(core.invoked("remove_local_model")[0].args).toEqual({ name: "tiny-chat-Q4_1" });
    await waitFor(() => expect(screen.queryByTestId("installed-tiny-chat-Q4_1")).not.toBeInTheDocument());
  });

  it("adds a model file chosen in the system's file picker", async () => {
    const core = new FakeCore();
    core.handlers["plugin:dialog|open"] = () => "/home/ana/models/tiny.gguf";
    core.handlers.import_model = () => core.hub;
    renderModels();
    const user = userEvent.setup();
    expect(await screen.findByText("A model file already on this computer (.gguf): its path")).toBeInTheDocument();
    await user.click(await screen.findByTestId("import-choose"));
    await waitFor(() => expect(core.invoked("import_model").at(-1)?.args).toEqual({ path: "/home/ana/models/tiny.gguf" }));
    expect(core.invoked("plugin:dialog|open")[0].args).toMatchObject({ options: { filters: [{ extensions: ["gguf"] }] } });
  });

  it("tunes the offline model over the catalogue's defaults and says the core's refusal", async () => {
    const core = new FakeCore();
    core.tuning = { ...core.tuning, model: "Llama-3.2-3B-Instruct-Q4_K_M", defaults: { temperature: 0.6, top_p: 0.9 }, context_default: 8192 };
    core.handlers.set_local_tuning = (args) => {
      const { input } = args as { input: { sampling: { temperature?: number | null }; context_tokens: number | null } };
      if ((input.context_tokens ?? 512) < 512) return Promise.reject({ message: "context must be from 512 to 2000000", retryable: false });
      return { ...core.tuning, sampling: input.sampling, context_tokens: input.context_tokens };
    };
    renderModels();
    const user = userEvent.setup();
    const form = await screen.findByTestId("local-tuning");
    expect(form).toHaveTextContent("Sampling for the offline model (Llama-3.2-3B-Instruct-Q4_K_M)");
    // The model's defaults show where nothing is set.
    expect(within(form).getByTestId("local-sampling-temperature")).toHaveAttribute("placeholder", "0.6");
    expect(within(form).getByTestId("local-sampling-context")).toHaveAttribute("placeholder", "8192");
    // The ranges the core sent bound the fields; what the core refuses is said.
    expect(within(form).getByTestId("local-sampling-temperature")).toHaveAttribute("max", "2");
    await user.type(within(form).getByTestId("local-sampling-context"), "100");
    await user.click(within(form).getByTestId("local-tuning-save"));
    expect(await within(form).findByRole("alert")).toHaveTextContent("Context must be from 512");
    await user.clear(within(form).getByTestId("local-sampling-context"));
    await user.type(within(form).getByTestId("local-sampling-temperature"), "0.2");
    await user.type(within(form).getByTestId("local-sampling-context"), "16384");
    await user.click(within(form).getByTestId("local-tuning-save"));
    expect(core.invoked("set_local_tuning").at(-1)!.args).toEqual({ input: { sampling: { temperature: 0.2 }, context_tokens: 16384 } });
    expect(await within(form).findByRole("status")).toHaveTextContent("restarted with these settings");
  });
});
