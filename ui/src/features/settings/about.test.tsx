import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { UpdateOffer, UpdatesView } from "../../api";
import { Root } from "../../Root";
import { FakeCore } from "../../test/fakeCore";

const OFFER: UpdateOffer = { version: "0.2.0", published: "2026-11-20T10:00:00Z", notes: "- Reminders ring on time after sleep.\n- Faster recall." };

function installed(core: FakeCore): UpdatesView {
  return { ...core.updates };
}

async function openAbout() {
  const user = userEvent.setup();
  render(<Root />);
  await user.click(await screen.findByTestId("nav-settings"));
  await user.click(await screen.findByTestId("settings-nav-about"));
  return { user, section: await screen.findByTestId("about-settings") };
}

describe("Settings → About", () => {
  it("says a copy built from source does not update itself, with nothing to press", async () => {
    const core = new FakeCore();
    core.updates = { ...core.updates, format: null, address: null, cannot: "This copy of Sidecar was built from source, so it does not update itself: run `git pull` and `make run` in its folder." };
    const { section } = await openAbout();
    expect(within(section).getByTestId("about-version")).toHaveTextContent("Sidecar 0.1.0");
    expect(within(section).getByTestId("about-format")).toHaveTextContent("Built from source.");
    expect(within(section).getByTestId("update-cannot")).toHaveTextContent("git pull");
    expect(within(section).getByTestId("update-look")).toBeDisabled();
  });

  it("shows what changed and installs only after the user says yes, with progress and a restart", async () => {
    const core = new FakeCore();
    core.updates = installed(core);
    core.handlers.look_for_update = () => ({ ...installed(core), last_looked: "2026-11-27T09:00:00Z", state: { state: "available", offer: OFFER } });
    core.handlers.install_update = () => new Promise(() => undefined);
    const { user, section } = await openAbout();
    expect(within(section).getByTestId("about-format")).toHaveTextContent("Installed from a .deb package.");

    await user.click(within(section).getByTestId("update-look"));
    const offer = await within(section).findByTestId("update-offer");
    expect(offer).toHaveTextContent("Sidecar 0.2.0 is available");
    expect(within(offer).getByTestId("update-notes")).toHaveTextContent("Reminders ring on time after sleep.");
    expect(section).toHaveTextContent("Last checked");

    await user.click(within(offer).getByTestId("update-install"));
    expect(within(offer).getByTestId("update-confirm")).toHaveTextContent("Install Sidecar 0.2.0 now?");
    await user.click(within(offer).getByTestId("update-confirm-no"));
    expect(core.invoked("install_update")).toHaveLength(0);

    await user.click(within(offer).getByTestId("update-install"));
    await user.click(within(offer).getByTestId("update-confirm-yes"));
    expect(core.invoked("install_update")).toHaveLength(1);

    await core.event({ type: "update", ...installed(core), state: { state: "installing", offer: OFFER, received: 512, total: 1024 } });
    expect(await within(section).findByTestId("update-progress")).toHaveTextContent("Downloading… 50%");
    expect(within(section).getByTestId("update-look")).toBeDisabled();
    await core.event({ type: "update", ...installed(core), state: { state: "installing", offer: OFFER, received: 1024, total: 1024 } });
    expect(await within(section).findByText("Checking the signature and installing…")).toBeInTheDocument();
    await core.event({ type: "update", ...installed(core), state: { state: "installed", version: "0.2.0" } });
    expect(await within(section).findByTestId("update-installed")).toHaveTextContent("Sidecar 0.2.0 is installed. Restart Sidecar to use it.");
    await user.click(within(section).getByTestId("update-restart"));
    expect(core.invoked("restart_app")).toHaveLength(1);
  });

  it("says a refused signature plainly, with nothing to retry", async () => {
    const core = new FakeCore();
    const message = "The update was refused: its signature does not match Sidecar's signing key, so it may not come from Sidecar's makers. Nothing was installed.";
    core.updates = { ...installed(core), state: { state: "failed", message, offer: null } };
    const { section } = await openAbout();
    expect(within(section).getByTestId("update-failed")).toHaveTextContent("Nothing was installed.");
    expect(within(section).queryByTestId("update-retry")).toBeNull();
  });

  it("lets the user try again when the system's installer was cancelled", async () => {
    const core = new FakeCore();
    const message = "The system did not install the update (Authentication failed or was cancelled). Sidecar is unchanged; try again and enter your password when asked.";
    core.updates = { ...installed(core), state: { state: "failed", message, offer: OFFER } };
    core.handlers.install_update = () => ({ ...installed(core), state: { state: "installed", version: "0.2.0" } });
    const { user, section } = await openAbout();
    expect(within(section).getByTestId("update-failed")).toHaveTextContent("enter your password when asked");
    await user.click(within(section).getByTestId("update-retry"));
    expect(await within(section).findByTestId("update-installed")).toBeInTheDocument();
  });

  it("keeps the daily look and the address as settings, saying why an address is refused", async () => {
    const core = new FakeCore();
    core.updates = installed(core);
    core.handlers.set_daily_updates = (args) => ({ ...installed(core), daily: (args as { daily: boolean }).daily });
    core.handlers.set_update_address = (args) => {
      const { address } = args as { address: string | null };
      if (address?.startsWith("http://example")) return Promise.reject({ kind: "invalid_input", message: "Use an https:// address: plain http:// is only accepted for this computer (localhost)." });
      return { ...installed(core), address: address ?? "https://example.org/latest.json", own_address: address !== null };
    };
    const { user, section } = await openAbout();
    await user.click(within(section).getByTestId("update-daily"));
    expect(core.invoked("set_daily_updates")[0].args).toEqual({ daily: true });
    await waitFor(() => expect(within(section).getByTestId("update-daily")).toBeChecked());

    await user.type(within(section).getByTestId("update-address"), "http://example.org/latest.json");
    await user.click(within(section).getByTestId("update-address-save"));
    expect(await within(section).findByTestId("update-address-note")).toHaveTextContent("Use an https:// address");
    await user.clear(within(section).getByTestId("update-address"));
    await user.type(within(section).getByTestId("update-address"), "http://127.0.0.1:8123/latest.json{Enter}");
    expect(core.invoked("set_update_address")[1].args).toEqual({ address: "http://127.0.0.1:8123/latest.json" });
    expect(await within(section).findByText("Saved. Sidecar looks here from now on.")).toBeInTheDocument();
    expect(within(section).getByTestId("update-address-default")).toHaveTextContent("Use this build's address");
    await user.click(within(section).getByTestId("update-address-default"));
    expect(core.invoked("set_update_address")[2].args).toEqual({ address: null });
  });
});
