import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { FakeCore } from "../../test/fakeCore";
import { openSettingsSection, renderApp } from "../../test/renderApp";
import { I18nContext, strings } from "../../i18n";
import { LockGate } from "./LockGate";

/** Something private behind the lock, in one language. */
function gate(lang: "en" | "es") {
  render(
    <I18nContext.Provider value={strings[lang]}>
      <LockGate>
        <p>private things</p>
      </LockGate>
    </I18nContext.Provider>,
  );
}

const view = (on: boolean, locked: boolean) => ({ on, after_minutes: 5, locked, min_chars: 4, min_minutes: 1, max_minutes: 480 });

describe("the app lock", () => {
  it("shows only the lock screen while locked, refuses a wrong passphrase, and opens with the right one", async () => {
    const core = new FakeCore();
    core.handlers.lock_view = () => view(true, true);
    core.handlers.unlock_app = (args) => {
      if ((args as { passphrase: string }).passphrase !== "girasol") return Promise.reject({ message: "that is not the lock's passphrase", retryable: false });
      return view(true, false);
    };
    const reload = vi.fn();
    Object.defineProperty(window, "location", { value: { ...window.location, reload }, writable: true });
    gate("en");
    expect(await screen.findByTestId("lock-screen")).toHaveTextContent("Sidecar is locked");
    expect(screen.queryByText("private things")).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByTestId("lock-passphrase"), "margarita{Enter}");
    expect(await screen.findByTestId("lock-error")).toHaveTextContent("not the lock's passphrase");
    expect(screen.getByTestId("lock-passphrase")).toHaveValue("");
    await user.type(screen.getByTestId("lock-passphrase"), "girasol{Enter}");
    await waitFor(() => expect(reload).toHaveBeenCalled());
  });

  it("locks at Ctrl+L while on", async () => {
    const core = new FakeCore();
    core.handlers.lock_view = () => view(true, false);
    core.handlers.lock_app = () => view(true, true);
    gate("en");
    await screen.findByText("private things");
    fireEvent.keyDown(window, { key: "l", ctrlKey: true });
    expect(await screen.findByTestId("lock-screen")).toBeInTheDocument();
  });

  it("locks after the idle minutes while on", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const core = new FakeCore();
    let locked = false;
    core.handlers.lock_view = () => view(true, locked);
    core.handlers.lock_app = () => {
      locked = true;
      return view(true, true);
    };
    gate("es");
    expect(await screen.findByText("private things")).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    expect(core.invoked("lock_app")).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(70_000);
    expect(await screen.findByTestId("lock-screen")).toHaveTextContent("Sidecar está bloqueado");
    vi.useRealTimers();
  });

  it("is turned on, changed and off in Settings → Your data", async () => {
    const core = new FakeCore();
    let on = false;
    core.handlers.lock_view = () => view(on, false);
    core.handlers.turn_on_lock = () => {
      on = true;
      return view(true, false);
    };
    core.handlers.turn_off_lock = () => {
      on = false;
      return view(false, false);
    };
    const user = userEvent.setup();
    renderApp();
    await openSettingsSection(user, "data");
    expect(await screen.findByTestId("lock-state")).toHaveTextContent("The app lock is off.");
    await user.type(screen.getByTestId("lock-new"), "girasol");
    await user.clear(screen.getByTestId("lock-minutes"));
    await user.type(screen.getByTestId("lock-minutes"), "15");
    await user.click(screen.getByTestId("lock-turn-on"));
    expect(core.invoked("turn_on_lock")[0].args).toEqual({ current: null, passphrase: "girasol", minutes: 15 });
    expect(await screen.findByTestId("lock-state")).toHaveTextContent("On: the window locks after 5 idle minutes");
    await user.type(screen.getByTestId("lock-current"), "girasol");
    await user.click(screen.getByTestId("lock-turn-off"));
    expect(core.invoked("turn_off_lock")[0].args).toEqual({ passphrase: "girasol" });
    expect(await screen.findByTestId("lock-note")).toHaveTextContent("The app lock is off.");
  });
});
