import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import { CORE_EVENT, type DevicesView, type HomeView } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { openSettingsSection, renderApp } from "../../test/renderApp";

const off: DevicesView = { listening: [], problems: [], fingerprint: null, code: null, devices: [], web: [] };
const fingerprint = "6AD4 3CC0 D5AC DDD0 AD7E 9F05 C790 1C0B F923 57F0 A985 076D 4FDA 6FF4 A830 5AD5";

describe("settings → devices", () => {
  it("listens where the user says, shows the certificate and a code, and turns off", async () => {
    const core = new FakeCore();
    let view: DevicesView = off;
    core.handlers.devices_view = () => view;
    core.handlers.set_devices_listen = (args) => {
      const { addresses } = args as { addresses: string[] };
      const listening = addresses.map((a) => `${a}:47200`);
      const web = listening.map((a) => ({ url: `https://${a}/`, qr: `<svg xmlns="http://www.w3.org/2000/svg"><title>${a}</title></svg>` }));
      view = addresses.length ? { ...off, listening, fingerprint, web } : off;
      return view;
    };
    core.handlers.open_pairing_code = () => {
      view = { ...view, code: { code: "4821 0937", expires_at: "2026-12-04T10:05:00Z" } };
      return view;
    };
    renderApp();
    const user = userEvent.setup();
    await openSettingsSection(user, "devices");
    // Off until the user names an address: nothing listens beyond this computer.
    expect(await screen.findByTestId("devices-listening")).toHaveTextContent("Off: no other device can reach this Sidecar.");
    expect(screen.getByTestId("devices-none")).toBeInTheDocument();
    await user.type(screen.getByTestId("devices-addresses"), "192.168.1.20, 100.101.102.103");
    await user.click(screen.getByTestId("devices-listen"));
    expect(core.invoked("set_devices_listen")[0].args).toEqual({ addresses: ["192.168.1.20", "100.101.102.103"] });
    expect(await screen.findByTestId("devices-listening")).toHaveTextContent("Listening at 192.168.1.20:47200, 100.101.102.103:47200");
    expect(screen.getByTestId("devices-fingerprint")).toHaveTextContent(fingerprint);
    // A phone's browser: each address to open, with its QR code.
    const pages = screen.getAllByTestId("devices-web");
    expect(pages).toHaveLength(2);
    expect(pages[0]).toHaveTextContent("open https://192.168.1.20:47200/");
    expect(within(pages[0]).getByRole("img")).toHaveAccessibleName("QR code of https://192.168.1.20:47200/");

    await user.click(screen.getByTestId("devices-open-code"));
    expect(await screen.findByTestId("devices-code")).toHaveTextContent("Pairing code: 4821 0937");

    // Turned off: nothing listens any more.
    await user.click(screen.getByTestId("devices-off"));
    expect(core.invoked("set_devices_listen")[1].args).toEqual({ addresses: [] });
    expect(await screen.findByTestId("devices-listening")).toHaveTextContent("Off");
  });

  it("lists paired devices with their last activity, each revocable", async () => {
    const core = new FakeCore();
    let view: DevicesView = {
      listening: ["192.168.1.20:47200"],
      problems: ["10.0.0.9:47200: Address not available"],
      fingerprint,
      code: null,
      devices: [{ id: 3, name: "Laptop", paired_at: "2026-12-04T10:01:00Z", last_seen: null }],
      web: [],
    };
    core.handlers.devices_view = () => view;
    core.handlers.revoke_device = (args) => {
      view = { ...view, devices: view.devices.filter((d) => d.id !== (args as { id: number }).id) };
      return view;
    };
    renderApp();
    const user = userEvent.setup();
    await openSettingsSection(user, "devices");
    const card = await screen.findByTestId("device-3");
    expect(card).toHaveTextContent("Laptop");
    expect(card).toHaveTextContent("not seen since pairing");
    expect(screen.getByTestId("devices-problem")).toHaveTextContent("Address not available");
    await user.click(within(card).getByTestId("device-revoke-3"));
    expect(core.invoked("revoke_device")[0].args).toEqual({ id: 3 });
    expect(await screen.findByTestId("devices-none")).toBeInTheDocument();
  });

  it("uses another computer's Sidecar with its address and code, then reloads onto it", async () => {
    const core = new FakeCore();
    core.handlers.home_view = () => null;
    core.handlers.devices_view = () => off;
    let fail = true;
    core.handlers.attach_home = () => {
      if (fail) {
        fail = false;
        throw { message: "Pairing code not valid. Show a new one on the home Sidecar.", retryable: false };
      }
      return { address: "192.168.1.20:47200", name: "laptop", fingerprint, state: "up", said: "Connected to the home Sidecar.", waiting: 0 };
    };
    const reload = vi.fn();
    const location = window.location;
    Object.defineProperty(window, "location", { configurable: true, value: { ...location, reload } });
    try {
      renderApp();
      const user = userEvent.setup();
      await openSettingsSection(user, "devices");
      expect(await screen.findByTestId("home-settings")).toHaveTextContent("Use Sidecar from another computer");
      // This computer's own listener stays below while it uses its own Sidecar.
      expect(await screen.findByTestId("devices-listening")).toBeInTheDocument();
      expect(screen.getByTestId("home-attach")).toBeDisabled();
      await user.type(screen.getByTestId("home-address"), "192.168.1.20");
      await user.type(screen.getByTestId("home-code"), "4821 0937");
      await user.click(screen.getByTestId("home-attach"));
      expect(await screen.findByTestId("home-error")).toHaveTextContent("Pairing code not valid");
      expect(reload).not.toHaveBeenCalled();
      await user.click(screen.getByTestId("home-attach"));
      expect(core.invoked("attach_home")[1].args).toEqual({ address: "192.168.1.20", code: "4821 0937" });
      await vi.waitFor(() => expect(reload).toHaveBeenCalled());
    } finally {
      Object.defineProperty(window, "location", { configurable: true, value: location });
    }
  });

  it("shows the home in use, and says when its link is down and back", async () => {
    const core = new FakeCore();
    const home: HomeView = { address: "192.168.1.20:47200", name: "laptop", fingerprint, state: "up", said: "Connected to the home Sidecar.", waiting: 0 };
    core.handlers.home_view = () => home;
    renderApp();
    const user = userEvent.setup();
    await openSettingsSection(user, "devices");
    expect(await screen.findByTestId("home-using")).toHaveTextContent("This computer uses the Sidecar at 192.168.1.20:47200, as “laptop”.");
    expect(screen.getByTestId("home-fingerprint")).toHaveTextContent(fingerprint);
    // A computer that uses another's Sidecar lets no device in itself.
    expect(screen.queryByTestId("devices-listening")).not.toBeInTheDocument();
    expect(core.invoked("devices_view")).toHaveLength(0);
    expect(screen.queryByTestId("home-link-banner")).not.toBeInTheDocument();

    const down = "The home Sidecar cannot be reached. What you type is kept and sent when it is back.";
    await act(() => emit(CORE_EVENT, { type: "home_link", state: "down", said: down, waiting: 2 }));
    expect(await screen.findByTestId("home-link-banner")).toHaveTextContent(down);
    expect(screen.getByTestId("home-state")).toHaveTextContent("2 messages wait to be sent.");
    // Trying again is still down: the line stays.
    await act(() => emit(CORE_EVENT, { type: "home_link", state: "connecting", said: "Connecting to the home Sidecar…", waiting: 2 }));
    expect(screen.getByTestId("home-link-banner")).toHaveTextContent(down);
    await act(() => emit(CORE_EVENT, { type: "home_link", state: "up", said: "Connected to the home Sidecar.", waiting: 0 }));
    await vi.waitFor(() => expect(screen.queryByTestId("home-link-banner")).not.toBeInTheDocument());
    expect(screen.getByTestId("home-state")).toHaveTextContent("Connected to the home Sidecar.");
  });

  it("on a computer using another's Sidecar, its own messages carry no tag and the home computer's say so", async () => {
    const core = new FakeCore();
    core.handlers.home_view = (): HomeView => ({ address: "192.168.1.20:47200", name: "laptop", fingerprint, state: "up", said: "Connected to the home Sidecar.", waiting: 0 });
    core.history = [
      { id: 1, conversation_id: 1, role: "user", content: "written at home", created_at: "2026-12-04T09:00:00Z", channel: "desktop" } as never,
      { id: 2, conversation_id: 1, role: "user", content: "written on this laptop", created_at: "2026-12-04T09:01:00Z", channel: "device" } as never,
    ];
    renderApp();
    expect(await screen.findByText("written on this laptop")).toBeInTheDocument();
    expect(screen.getAllByTestId("channel-tag").map((tag) => tag.textContent)).toEqual(["on the home computer"]);
  });
});
