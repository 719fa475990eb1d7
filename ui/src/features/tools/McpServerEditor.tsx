import { useState } from "react";
import type { McpField, McpServerForm } from "../../api";
import { useStrings } from "../../i18n";

const isAddress = (line: string) => /^https?:\/\//.test(line.trim());

/**
 * A server's command line (or address) and its environment variables (or headers).
 * A field marked secret is sent once and kept by the core in the keychain; a kept one
 * comes back without its value, and left empty it stays as it was.
 */
export function McpServerEditor({
  initial,
  name: fixedName,
  busy,
  onSave,
  onCancel,
}: {
  initial: McpServerForm;
  /** The server being edited; `undefined` while adding one (the name is asked). */
  name?: string;
  busy: boolean;
  onSave: (name: string, form: McpServerForm) => void;
  onCancel?: () => void;
}) {
  const t = useStrings();
  const [name, setName] = useState(fixedName ?? "");
  const [line, setLine] = useState(initial.line);
  const [fields, setFields] = useState<McpField[]>(initial.fields);
  const address = isAddress(line);
  const change = (index: number, patch: Partial<McpField>) => setFields((all) => all.map((f, i) => (i === index ? { ...f, ...patch } : f)));
  const ready = name.trim() !== "" && line.trim() !== "";

  return (
    <form
      className="mcp-editor"
      data-testid="mcp-editor"
      onSubmit={(e) => {
        e.preventDefault();
        const kept = fields.filter((f) => f.name.trim() !== "").map((f) => ({ ...f, value: f.secret && !f.value ? null : (f.value ?? "") }));
        onSave(name.trim(), { line, fields: kept });
      }}
    >
      <div className="token-row">
        {fixedName === undefined && (
          <label>
            <span className="small">{t.toolsName}</span>
            <input value={name} onChange={(e) => setName(e.target.value)} placeholder="files" data-testid="mcp-name" />
          </label>
        )}
        <label className="grow">
          <span className="small">{t.toolsLine}</span>
          <input value={line} onChange={(e) => setLine(e.target.value)} placeholder={t.toolsLinePlaceholder} data-testid="mcp-line" />
        </label>
      </div>
      {fields.length > 0 && (
        <div className="mcp-fields">
          <div className="label small">{address ? t.toolsHeaders : t.toolsEnv}</div>
          {fields.map((field, index) => (
            <div className="mcp-field" key={index} data-testid="mcp-field">
              <input aria-label={t.toolsFieldName} value={field.name} onChange={(e) => change(index, { name: e.target.value })} placeholder={address ? "Authorization" : "API_KEY"} data-testid="mcp-field-name" />
              <input
                aria-label={t.toolsFieldValue}
                type={field.secret ? "password" : "text"}
                value={field.value ?? ""}
                onChange={(e) => change(index, { value: e.target.value })}
                placeholder={field.secret && field.value === null ? t.toolsSecretKept : t.toolsFieldValue}
                data-testid="mcp-field-value"
              />
              <label className="small mcp-secret">
                <input type="checkbox" checked={field.secret} onChange={(e) => change(index, { secret: e.target.checked })} data-testid="mcp-field-secret" />
                {t.toolsSecret}
              </label>
              <button type="button" className="ghost small" aria-label={t.toolsRemoveField(field.name)} onClick={() => setFields((all) => all.filter((_, i) => i !== index))}>
                ×
              </button>
            </div>
          ))}
          <p className="muted small">{t.toolsSecretNote}</p>
        </div>
      )}
      <div className="row">
        <button type="button" className="ghost small" onClick={() => setFields((all) => [...all, { name: "", value: "", secret: false }])} data-testid="mcp-field-add">
          {address ? t.toolsAddHeader : t.toolsAddEnv}
        </button>
        <span className="grow" />
        {onCancel && (
          <button type="button" className="ghost small" onClick={onCancel}>
            {t.toolsCancel}
          </button>
        )}
        <button type="submit" disabled={busy || !ready} data-testid={fixedName === undefined ? "mcp-add" : "mcp-save"}>
          {fixedName === undefined ? t.toolsAdd : t.toolsSave}
        </button>
      </div>
    </form>
  );
}
