import { useEffect, useState, type KeyboardEvent } from "react";
import { api } from "../../api";
import { useStrings } from "../../i18n";

/** How many matches the list shows at once. */
const SHOWN = 8;

/** "buenos aires" matches "America/Argentina/Buenos_Aires": spaces are underscores. */
function matches(zones: string[], typed: string): string[] {
  const wanted = typed.trim().toLowerCase().replace(/\s+/g, "_");
  if (!wanted) return [];
  return zones.filter((z) => z.toLowerCase().includes(wanted)).slice(0, SHOWN);
}

/** A time zone field that searches the core's IANA names as you type. */
export function ZonePicker({ id, value, onChange }: { id?: string; value: string; onChange: (zone: string) => void }) {
  const t = useStrings();
  const [zones, setZones] = useState<string[]>([]);
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState(0);
  useEffect(() => {
    api.timeZones().then((z) => setZones(z ?? [])).catch(() => setZones([]));
  }, []);
  const found = open && !zones.includes(value) ? matches(zones, value) : [];
  const pick = (zone: string) => {
    onChange(zone);
    setOpen(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (found.length === 0) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setChosen((c) => (c + (e.key === "ArrowDown" ? 1 : found.length - 1)) % found.length);
    } else if (e.key === "Enter") {
      e.preventDefault();
      pick(found[Math.min(chosen, found.length - 1)]);
    } else if (e.key === "Escape") {
      setOpen(false);
    }
  };
  return (
    <span className="zone-picker">
      <input
        id={id}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
          setChosen(0);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
        placeholder={t.zoneSearch}
        role="combobox"
        aria-expanded={found.length > 0}
        aria-autocomplete="list"
        data-testid="timezone"
      />
      {found.length > 0 && (
        <ul className="zone-list" role="listbox" data-testid="zone-list">
          {found.map((zone, i) => (
            <li
              key={zone}
              role="option"
              aria-selected={i === Math.min(chosen, found.length - 1)}
              className={i === Math.min(chosen, found.length - 1) ? "chosen" : ""}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(zone);
              }}
            >
              {zone.replace(/_/g, " ")}
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
