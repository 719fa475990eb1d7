import { useEffect, useState } from "react";

/** "7:30", "0730" or "07:30" → "07:30"; anything else → null. */
export function readTime(text: string): string | null {
  const m = /^\s*([01]?\d|2[0-3])[:.h]?([0-5]\d)\s*$/.exec(text);
  return m ? `${m[1].padStart(2, "0")}:${m[2]}` : null;
}

/** A time of day written the 24-hour way, as everywhere else in Sidecar: the
 * browser's own time input follows the system locale and showed "07:30 AM" beside
 * 24-hour times (the first hour's p2). Reports only times it can read. */
export function TimeField(props: {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  label: string;
  testid: string;
}) {
  const [text, setText] = useState(props.value);
  useEffect(() => setText(props.value), [props.value]);
  const read = readTime(text);
  return (
    <input
      type="text"
      className="time-field"
      inputMode="numeric"
      placeholder="HH:MM"
      maxLength={5}
      aria-label={props.label}
      aria-invalid={read === null}
      value={text}
      data-testid={props.testid}
      onChange={(e) => {
        setText(e.target.value);
        const time = readTime(e.target.value);
        if (time) props.onChange(time);
      }}
      onBlur={() => {
        setText(read ?? props.value);
        props.onBlur?.();
      }}
    />
  );
}
