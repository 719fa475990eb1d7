/** Icons drawn as SVG, so they show on a system with no emoji font (the first hour's
 * p1: 📌 and 👍/👎 were empty boxes). Decorative: the button around each carries the
 * label a screen reader reads. */

const base = { width: 16, height: 16, viewBox: "0 0 24 24", fill: "none", stroke: "currentColor", strokeWidth: 2, strokeLinecap: "round", strokeLinejoin: "round" } as const;

export function ThumbUp() {
  return (
    <svg {...base} aria-hidden="true" focusable="false">
      <path d="M7 10v11H3V10h4z" />
      <path d="M7 10l4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.1 21H7" />
    </svg>
  );
}

export function ThumbDown() {
  return (
    <svg {...base} aria-hidden="true" focusable="false" style={{ transform: "rotate(180deg)" }}>
      <path d="M7 10v11H3V10h4z" />
      <path d="M7 10l4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.1 21H7" />
    </svg>
  );
}

export function Pin() {
  return (
    <svg {...base} width={12} height={12} aria-hidden="true" focusable="false">
      <path d="M9 4h6l-1 6 4 4H6l4-4-1-6z" />
      <path d="M12 14v7" />
    </svg>
  );
}

/** The conversations' side panel. */
export function Sidebar() {
  return (
    <svg {...base} aria-hidden="true" focusable="false">
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M9 4v16" />
    </svg>
  );
}

/** A new conversation: a pen on a page. */
export function Compose() {
  return (
    <svg {...base} aria-hidden="true" focusable="false">
      <path d="M12 4H5a2 2 0 0 0-2 2v13a2 2 0 0 0 2 2h13a2 2 0 0 0 2-2v-7" />
      <path d="M17.5 2.5a2.1 2.1 0 0 1 3 3L12 14l-4 1 1-4z" />
    </svg>
  );
}

/** An incognito chat: a hat and glasses. */
export function Incognito() {
  return (
    <svg {...base} aria-hidden="true" focusable="false">
      <path d="M2 11h20" />
      <path d="M5 11l2-7h10l2 7" />
      <circle cx="7" cy="17" r="3" />
      <circle cx="17" cy="17" r="3" />
      <path d="M10 17h4" />
    </svg>
  );
}

/** A star: filled when `on` (pinned), hollow when not. */
export function Star(props: { on: boolean }) {
  return (
    <svg {...base} fill={props.on ? "currentColor" : "none"} aria-hidden="true" focusable="false">
      <path d="M12 2.5l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5L2.5 9.4l6.6-.9z" />
    </svg>
  );
}
