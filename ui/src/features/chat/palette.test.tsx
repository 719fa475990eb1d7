import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";

describe("the / palette", () => {
  it("lists the core's commands, narrows as you type, and picks with the keyboard", async () => {
    const core = new FakeCore();
    renderApp();
    const user = userEvent.setup();
    const composer = await screen.findByTestId("composer");
    await waitFor(() => expect(core.invoked("command_table")).toHaveLength(1));
    await user.type(composer, "/");
    const palette = await screen.findByTestId("palette");
    expect(within(palette).getAllByTestId("palette-item").map((i) => i.textContent)).toEqual([
      "/helpThis list of commands",
      "/statusSidecar's state",
      "/quiet 30m | 2h | off | hereNo spontaneous messages for a while",
      "/reminders clear | lostPending reminders",
    ]);
    await user.type(composer, "r");
    expect(within(screen.getByTestId("palette")).getAllByTestId("palette-item")).toHaveLength(1);
    await user.keyboard("{Enter}");
    expect(composer).toHaveValue("/reminders ");
    expect(screen.queryByTestId("palette")).toBeNull();
    expect(core.invoked("send_message")).toHaveLength(0);

    await user.clear(composer);
    await user.type(composer, "/");
    await user.keyboard("{ArrowDown}{ArrowDown}{Tab}");
    expect(composer).toHaveValue("/quiet ");
    await user.clear(composer);
    await user.type(composer, "/st");
    await user.keyboard("{Escape}");
    expect(screen.queryByTestId("palette")).toBeNull();
    // A command typed in full goes with Enter, like any message.
    await user.clear(composer);
    await user.type(composer, "/status{Enter}");
    expect(core.invoked("send_message")[0].args).toEqual({ text: "/status" });
  });

  it("stays closed for ordinary text and paths", async () => {
    new FakeCore();
    renderApp();
    const user = userEvent.setup();
    const composer = await screen.findByTestId("composer");
    await user.type(composer, "hola");
    expect(screen.queryByTestId("palette")).toBeNull();
    await user.clear(composer);
    await user.type(composer, "/usr/bin is a folder");
    expect(screen.queryByTestId("palette")).toBeNull();
  });
});
