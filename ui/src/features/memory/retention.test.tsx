import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";

describe("Settings → Your data → Keeping", () => {
  it("keeps everything by default, saves a retention the user picks, and tidies now with a report", async () => {
    const core = new FakeCore();
    core.handlers.keep_days = () => null;
    core.handlers.set_keep_days = () => undefined;
    core.handlers.tidy_now = () => ({ conversations_expired: 3, conversations_removed: 1, vectors_removed: 42, corrections_removed: 0 });
    renderApp();
    const user = userEvent.setup();
    await user.click(screen.getByTestId("nav-settings"));
    const select = (await screen.findByTestId("keep-days")) as HTMLSelectElement;
    await waitFor(() => expect(select).not.toBeDisabled());
    expect(select.selectedOptions[0]).toHaveTextContent("Forever");
    await user.selectOptions(select, "365");
    expect(core.invoked("set_keep_days")[0].args).toEqual({ days: 365 });
    expect(await screen.findByTestId("retention-note")).toHaveTextContent("nothing said for 365 days will be deleted at the next tidy");
    await user.selectOptions(select, "");
    expect(core.invoked("set_keep_days")[1].args).toEqual({ days: null });
    await user.click(screen.getByTestId("tidy-now"));
    expect(await screen.findByText(/3 old conversations deleted, 1 deleted ones removed for good, 42 search vectors/)).toBeInTheDocument();
  });
});
