import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { DevicesView } from "./api";
import { FakeCore } from "./test/fakeCore";
import { openSettingsSection, renderApp } from "./test/renderApp";

const off: DevicesView = { listening: [], problems: [], fingerprint: null, code: null, devices: [] };
const fingerprint = "6AD4 3CC0 D5AC DDD0 AD7E 9F05 C790 1C0B F923 57F0 A985 076D 4FDA 6FF4 A830 5AD5";

describe("settings → devices", () => {
  it("listens where the user says, shows the certificate and a code, and turns off", async () => {
    const core = new FakeCore();
    let view: DevicesView = off;
    core.handlers.devices_view = () => view;
    core.handlers.set_devices_listen = (args) => {
      const { addresses } = args as { addresses: string[] };
      view = addresses.length ? { ...off, listening: addresses.map((a) => `${a}:47200`), fingerprint } : off;
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
});
