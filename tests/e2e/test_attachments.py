"""Attachments in the real app: files dropped on the window (the shell's drag-drop
event, as the desktop sends it) become chips; an image is refused in words; the
message goes with the files' text to the model, and the chat shows chips, not text."""
import io
import json
import zipfile

from conftest import wait_until
from scripted_llm import ScriptedLlm, text_reply
from test_agent import write_settings


def docx_saying(*paragraphs):
    body = "".join(f"<w:p><w:r><w:t>{p}</w:t></w:r></w:p>" for p in paragraphs)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("word/document.xml", f'<?xml version="1.0"?><w:document xmlns:w="x"><w:body>{body}</w:body></w:document>')
    return buffer.getvalue()


def drop(session, paths):
    session.script(
        "return window.__TAURI_INTERNALS__.invoke('plugin:event|emit', {event: 'tauri://drag-drop', payload: {paths: arguments[0], position: {x: 40, y: 40}}})",
        [str(p) for p in paths],
    )


def test_dropped_files_are_sent_to_the_model_and_shown_as_chips(desktop, tmp_path):
    llm = ScriptedLlm([text_reply("The plan is to take the train; the report says sales rose.")])
    # A text-only model: the picture is refused, in words.
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "llama3.2")])
    files = tmp_path / "files"
    files.mkdir()
    (files / "plan.md").write_text("# Trip\n- book the train to Porto\n")
    (files / "informe.docx").write_bytes(docx_saying("Informe anual", "Las ventas subieron"))
    (files / "cat.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        composer = session.wait_for("[data-testid=composer]", 20)
        drop(session, [files / "plan.md", files / "informe.docx", files / "cat.png"])
        wait_until(lambda: len(session.texts("[data-testid=attachment-chip]")) == 2, 10,
                   f"no chips: {session.texts('[data-testid=composer-files]')}")
        # Each file is read on its own: the picture's refusal may come after the chips.
        wait_until(lambda: any("cat.png is an image" in t for t in session.texts("[data-testid=attach-refused]")), 10,
                   f"the picture was not refused: {session.texts('[data-testid=composer-files]')}")
        desktop.screenshot("attachments-composer")
        session.send_keys(composer, "What do these say?\ue007")
        wait_until(lambda: "sales rose" in " ".join(session.texts("[data-testid=message-assistant] .content")), 30, "no reply")
        sent = json.dumps(llm.requests[-1])
        assert "book the train to Porto" in sent and "Las ventas subieron" in sent, sent[:2000]
        mine = session.texts("[data-testid=message-user]")[-1]
        assert "What do these say?" in mine and "plan.md" in mine and "informe.docx" in mine, mine
        assert "book the train" not in mine, "the chat shows chips, not the files' text"
        desktop.screenshot("attachments-sent")
    finally:
        desktop.close(session)
        llm.close()


# The smallest real PNG: one transparent pixel.
PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="


def test_a_picture_goes_to_a_model_that_sees_it(desktop, tmp_path):
    import base64
    llm = ScriptedLlm([text_reply("One transparent pixel.")])
    config = write_settings(tmp_path / "settings.toml", [("primary", llm.base_url, "gpt-4o")])
    photo = tmp_path / "pixel.png"
    photo.write_bytes(base64.b64decode(PIXEL))
    session = desktop.launch(tmp_path / "data", ["--config", str(config)])
    try:
        composer = session.wait_for("[data-testid=composer]", 20)
        drop(session, [photo])
        wait_until(lambda: session.texts("[data-testid=attachment-chip]"), 30, "no chip")
        chip = session.texts("[data-testid=attachment-chip]")[0]
        assert "IMG" in chip and "pixel.png" in chip, chip
        session.send_keys(composer, "What is this?\ue007")
        wait_until(lambda: "transparent pixel" in " ".join(session.texts("[data-testid=message-assistant] .content")), 30, "no reply")
        sent = json.dumps(llm.requests[-1])
        assert f"data:image/png;base64,{PIXEL}" in sent, sent[:2000]
        assert "IMG" in session.texts("[data-testid=message-user] [data-testid=attachment-chip]")[-1]
        desktop.screenshot("attachments-image")
    finally:
        desktop.close(session)
        llm.close()
