// A file attached to a message: its name and kind, whether only its start and end were
// sent, and (in the composer) a button to take it off.
import type { AttachedFile } from "../../api";
import { useStrings } from "../../i18n";

const KIND: Record<string, string> = { pdf: "PDF", docx: "DOCX", image: "IMG" };

export function AttachmentChip({ file, onRemove }: { file: AttachedFile; onRemove?: () => void }) {
  const t = useStrings();
  return (
    <span className="attachment-chip" data-testid="attachment-chip" title={file.cut ? t.attachCut : undefined}>
      <span className="attachment-kind" aria-hidden="true">
        {KIND[file.kind] ?? "TXT"}
      </span>{" "}
      {file.name}
      {file.cut && <span className="muted small"> · {t.attachCutShort}</span>}
      {onRemove && (
        <button type="button" className="link" aria-label={t.attachRemove(file.name)} data-testid="attachment-remove" onClick={onRemove}>
          ×
        </button>
      )}
    </span>
  );
}
