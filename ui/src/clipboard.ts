// Copying text: the async clipboard where the webview allows it, else the older
// selection-and-copy path (some WebKitGTK builds refuse the async one).

export async function copyText(text: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return;
    }
  } catch {
    // Fall through to the selection path.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const copied = document.execCommand?.("copy") ?? false;
  area.remove();
  if (!copied) throw new Error("copy refused");
}
