// Sidecar's character, drawn for Sidecar (see LICENSE beside this file): a small round
// companion whose antenna light tells its state. One SVG for every state; the state's
// class on the root picks the face, and character.css animates it.
//
// Everything that changes stays inside the opaque body: WebKitGTK without GPU
// compositing (WebKit bug 319864, fixed after 2.50) paints a see-through window's
// changes over the last frame, so anything that moved or vanished over the desktop
// would leave a trail. Bubbles and the menu grow the window, which repaints it whole.
import type { Mood } from "./machine";

export function Art({ mood, blink, inhale, badge, label }: { mood: Mood; blink: boolean; inhale: boolean; badge: boolean; label: string }) {
  const closedEyes = mood === "sleeping" || blink;
  return (
    <svg className={`art mood-${mood}${inhale ? " inhale" : ""}`} viewBox="0 0 100 100" role="img" aria-label={label} data-testid="character-art" data-mood={mood}>
      <ellipse className="shadow" cx="50" cy="93" rx="25" ry="3.5" />
      <path className="antenna" d="M50 20 C50 13 53 9 58 7" />
      <circle className="antenna-tip" cx="59" cy="6.5" r="5.5" />
      <circle className="antenna-light" cx="59" cy="6.5" r="3.6" />
      <ellipse className="arm" cx="17" cy="64" rx="5" ry="8" />
      <ellipse className="arm" cx="83" cy="64" rx="5" ry="8" />
      <path className="body" d="M50 19 C73 19 85 37 85 59 C85 79 71 89 50 89 C29 89 15 79 15 59 C15 37 27 19 50 19 Z" />
      <ellipse className="belly" cx="50" cy="60" rx="25" ry="21" />
      <g className="face">
        <ellipse className="cheek" cx="33.5" cy="65" rx="4.2" ry="2.6" />
        <ellipse className="cheek" cx="66.5" cy="65" rx="4.2" ry="2.6" />
        {closedEyes ? (
          <g className="eyes closed">
            <path d="M36 57 Q41 61 46 57" />
            <path d="M54 57 Q59 61 64 57" />
          </g>
        ) : (
          <g className="eyes open">
            <ellipse cx="41" cy="56" rx="4.3" ry={mood === "asking" ? 6.6 : 5.8} />
            <ellipse cx="59" cy="56" rx="4.3" ry={mood === "asking" ? 6.6 : 5.8} />
            <circle className="shine" cx="42.4" cy="53.6" r="1.5" />
            <circle className="shine" cx="60.4" cy="53.6" r="1.5" />
          </g>
        )}
        {mood === "thinking" ? (
          <g className="dots">
            <circle cx="44" cy="70" r="1.8" />
            <circle cx="50" cy="70" r="1.8" />
            <circle cx="56" cy="70" r="1.8" />
          </g>
        ) : mood === "speaking" ? (
          <ellipse className="mouth open" cx="50" cy="69" rx="4" ry="3.2" />
        ) : mood === "asking" ? (
          <ellipse className="mouth small" cx="50" cy="70" rx="2.2" ry="2" />
        ) : (
          <path className="mouth" d="M45.5 68 Q50 71.5 54.5 68" />
        )}
      </g>
      {mood === "sleeping" && (
        <text className="z" x="64" y="37">
          z
        </text>
      )}
      {mood === "asking" && (
        <text className="ask" x="63" y="39">
          ?
        </text>
      )}
      {badge && (
        <g className="badge" data-testid="character-badge">
          <circle cx="30.5" cy="74" r="5.5" />
          <text x="30.5" y="77.6">
            !
          </text>
        </g>
      )}
    </svg>
  );
}
