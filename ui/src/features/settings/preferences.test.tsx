import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { PreferencesView } from "../../api";
import { Root } from "../../Root";
import { FakeCore } from "../../test/fakeCore";

async function openSettings() {
  const user = userEvent.setup();
  render(<Root />);
  await user.click(await screen.findByTestId("nav-settings"));
  return { user, section: await screen.findByTestId("desktop-settings") };
}

describe("Settings → General", () => {
  it("switches the theme at once and keeps it", async () => {
    const core = new FakeCore();
    core.handlers.set_theme = (args) => ({ ...core.preferences, theme: (args as { theme: string }).theme });
    const { user, section } = await openSettings();
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe("light"), { timeout: 2000 });
    await user.click(within(section).getByTestId("theme-dark"));
    expect(core.invoked("set_theme")[0].args).toEqual({ theme: "dark" });
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe("dark"));
    expect(within(section).getByTestId("theme-dark")).toHaveAttribute("aria-checked", "true");
  });

  it("switches the language at once and says what waits for a restart", async () => {
    const core = new FakeCore();
    core.handlers.set_language = (): PreferencesView => ({ ...core.preferences, language: "es", chosen_lang: "es", restart_for_language: true });
    const { user, section } = await openSettings();
    await user.selectOptions(within(section).getByTestId("language"), "es");
    expect(core.invoked("set_language")[0].args).toEqual({ language: "es" });
    expect(await screen.findByRole("heading", { name: "General" })).toBeInTheDocument();
    expect(screen.getByTestId("nav-settings")).toHaveTextContent("Ajustes");
    expect(screen.getByTestId("language-restart")).toHaveTextContent("pasan a español en el próximo inicio");
  });

  it("records a new shortcut, and says so when another program has it", async () => {
    const core = new FakeCore();
    let taken = true;
    core.handlers.set_hotkey = (args) => {
      const { hotkey } = args as { hotkey: string };
      if (taken) return Promise.reject({ kind: "taken", hotkey: "Ctrl+Alt+K" });
      return { ...core.preferences, hotkey: hotkey.replace("KeyJ", "J") };
    };
    const { user, section } = await openSettings();
    expect(within(section).getByTestId("hotkey")).toHaveTextContent("Ctrl+Shift+Space");

    await user.click(within(section).getByTestId("hotkey-change"));
    await user.keyboard("{Control>}{Alt>}k{/Alt}{/Control}");
    expect(core.invoked("set_hotkey")[0].args).toEqual({ hotkey: "Ctrl+Alt+KeyK" });
    expect(await within(section).findByRole("alert")).toHaveTextContent("Ctrl+Alt+K is already used by another program");
    expect(within(section).getByTestId("hotkey")).toHaveTextContent("Ctrl+Shift+Space");

    taken = false;
    await user.click(within(section).getByTestId("hotkey-change"));
    await user.keyboard("{Control>}{Shift>}j{/Shift}{/Control}");
    expect(await within(section).findByText("Ctrl+Shift+J now shows or hides Sidecar.")).toBeInTheDocument();
    expect(within(section).getByTestId("hotkey")).toHaveTextContent("Ctrl+Shift+J");
    expect(within(section).getByText("Back to Ctrl+Shift+Space")).toBeInTheDocument();

    // Esc alone cancels recording.
    await user.click(within(section).getByTestId("hotkey-change"));
    await user.keyboard("{Escape}");
    expect(within(section).queryByTestId("hotkey-recorder")).toBeNull();
    expect(core.invoked("set_hotkey")).toHaveLength(2);
  });

  it("turns launch at login on", async () => {
    const core = new FakeCore();
    core.handlers.set_launch_at_login = (args) => (args as { on: boolean }).on;
    const { user, section } = await openSettings();
    const box = await within(section).findByTestId("launch-at-login");
    expect(box).not.toBeChecked();
    await user.click(box);
    expect(core.invoked("set_launch_at_login")[0].args).toEqual({ on: true });
    await waitFor(() => expect(box).toBeChecked());
  });
});
