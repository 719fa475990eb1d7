import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { describe, expect, it } from "vitest";
import type { Attachment } from "../../api";
import { FakeCore } from "../../test/fakeCore";
import { renderApp } from "../../test/renderApp";
import { message } from "../../test/fixtures";

const plan: Attachment = { name: "plan.md", kind: "text", text: "# Trip\n- book the train", cut: false, tokens: 9 };
const book: Attachment = { name: "book.pdf", kind: "pdf", text: "CHAPTER ONE … THE END", cut: true, tokens: 1500 };

function withFiles() {
  const core = new FakeCore();
  core.handlers.attach_file = (args) => {
    const { path } = args as { path: string };
    if (path.endsWith("plan.md")) return plan;
    if (path.endsWith("book.pdf")) return book;
    return Promise.reject({ message: "cat.png is an image; the models here are sent text only, so describe it in words or paste its text", retryable: false });
  };
  return core;
}

describe("attachments", () => {
  it("files dropped on the window become chips, a refusal says why, and they are sent with the message", async () => {
    const core = withFiles();
    renderApp();
    const user = userEvent.setup();
    const composer = await screen.findByTestId("composer");
    await act(() => emit("tauri://drag-drop", { paths: ["/home/ana/plan.md", "/home/ana/cat.png"], position: { x: 10, y: 10 } }));
    const chips = await screen.findAllByTestId("attachment-chip");
    expect(chips.map((c) => c.textContent)).toEqual(["TXT plan.md×"]);
    expect(await screen.findByTestId("attach-refused")).toHaveTextContent("cat.png is an image");

    core.handlers["plugin:dialog|open"] = () => ["/home/ana/book.pdf"];
    await user.click(screen.getByTestId("attach"));
    await waitFor(() => expect(screen.getAllByTestId("attachment-chip")).toHaveLength(2));
    expect(screen.getAllByTestId("attachment-chip")[1]).toHaveTextContent("book.pdf · start and end only");

    await user.type(composer, "What do these say?{Enter}");
    expect(core.invoked("send_with_files")[0].args).toEqual({ text: "What do these say?", attachments: [plan, book] });
    expect(screen.queryByTestId("composer-files")).not.toBeInTheDocument();
    const mine = screen.getAllByTestId("message-user").at(-1)!;
    expect(mine).toHaveTextContent("What do these say?");
    expect(within(mine).getAllByTestId("attachment-chip").map((c) => c.textContent)).toEqual(["TXT plan.md", "PDF book.pdf · start and end only"]);
    expect(mine).not.toHaveTextContent("book the train");
  });

  it("a file alone can be sent, and one taken off is not", async () => {
    const core = withFiles();
    core.handlers["plugin:dialog|open"] = () => ["/home/ana/plan.md", "/home/ana/book.pdf"];
    renderApp();
    const user = userEvent.setup();
    await screen.findByTestId("composer");
    expect(screen.getByTestId("send")).toBeDisabled();
    await user.click(screen.getByTestId("attach"));
    await waitFor(() => expect(screen.getAllByTestId("attachment-chip")).toHaveLength(2));
    await user.click(within(screen.getAllByTestId("attachment-chip")[1]).getByTestId("attachment-remove"));
    await user.click(screen.getByTestId("send"));
    expect(core.invoked("send_with_files")[0].args).toEqual({ text: "", attachments: [plan] });
  });

  it("a stored message with files shows what was typed and its chips", async () => {
    const core = new FakeCore();
    core.history = [
      message({
        id: 3,
        conversation_id: 1,
        role: "user",
        content: 'Summarise\n\n<attachment name="informe.docx" kind="docx">\nInforme anual\n</attachment>',
        status: "complete",
        finish_reason: null,
        created_at: "2026-11-24T10:00:00Z",
        meta: { typed: "Summarise", attachments: [{ name: "informe.docx", kind: "docx", cut: false }] },
      }),
    ];
    renderApp();
    const mine = await screen.findByTestId("message-user");
    expect(mine).toHaveTextContent("Summarise");
    expect(mine.textContent).not.toContain("Informe anual");
    expect(within(mine).getByTestId("attachment-chip")).toHaveTextContent("DOCX informe.docx");
  });

  it("an image for a model that sees is a chip and goes back to the core as the core gave it", async () => {
    const core = new FakeCore();
    const photo: Attachment = { name: "cat.png", kind: "image", text: "", cut: false, tokens: 1000, image: { media_type: "image/png", file: "ab12.png" } };
    core.handlers.attach_file = () => photo;
    core.handlers["plugin:dialog|open"] = () => ["/home/ana/cat.png"];
    renderApp();
    const user = userEvent.setup();
    const composer = await screen.findByTestId("composer");
    await user.click(screen.getByTestId("attach"));
    expect(await screen.findByTestId("attachment-chip")).toHaveTextContent("IMG cat.png");
    await user.type(composer, "What is this?{Enter}");
    expect(core.invoked("send_with_files")[0].args).toEqual({ text: "What is this?", attachments: [photo] });
  });
});
