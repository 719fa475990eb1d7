import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "../../test/fakeCore";
import { openSettingsSection, renderApp } from "../../test/renderApp";

describe("the time zone picker", () => {
  it("finds a zone by city as typed and saves the IANA name", async () => {
    const core = new FakeCore();
    core.handlers.set_timezone = (args) => (args as { zone: string }).zone;
    renderApp();
    const user = userEvent.setup();
    // It lives in General, beside the language (the first hour's m16).
    await openSettingsSection(user, "desktop");
    const field = await screen.findByTestId("timezone");
    await waitFor(() => expect(field).toHaveValue("Europe/Madrid"));
    expect(screen.queryByTestId("zone-list")).toBeNull();
    await user.clear(field);
    await user.type(field, "buenos aires");
    const list = await screen.findByTestId("zone-list");
    expect(within(list).getAllByRole("option").map((o) => o.textContent)).toEqual(["America/Argentina/Buenos Aires"]);
    await user.keyboard("{Enter}");
    expect(field).toHaveValue("America/Argentina/Buenos_Aires");
    expect(screen.queryByTestId("zone-list")).toBeNull();
    await user.click(screen.getByTestId("save-timezone"));
    expect(core.invoked("set_timezone")[0].args).toEqual({ zone: "America/Argentina/Buenos_Aires" });
    expect(await screen.findByTestId("timezone-note")).toHaveTextContent("times are now read and said in America/Argentina/Buenos Aires");
    expect(screen.getByTestId("save-timezone")).toBeDisabled();
    expect(screen.getByRole("combobox", { name: "Time zone" })).toBe(field);

    await user.clear(field);
    await user.type(field, "eu");
    await user.click(within(await screen.findByTestId("zone-list")).getByText("Europe/Paris"));
    expect(field).toHaveValue("Europe/Paris");
  });
});
