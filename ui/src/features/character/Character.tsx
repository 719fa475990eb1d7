// The character's page: renders the machine's state, grows its window for a speech
// bubble or its menu, follows drags, and turns clicks into the shell's commands.
import { useCallback, useEffect, useReducer, useRef, useState, type PointerEvent } from "react";
import { api, type CharacterStart, type Grown } from "../../api";
import { useStrings } from "../../i18n";
import { Art } from "./Art";
import { initial, mood as moodOf, nextChange, speechNow, step, type CharacterState, type Input } from "./machine";

/** The window grown for a speech bubble, and for the menu, logical pixels. */
const BUBBLE_SIZE = [280, 212] as const;
const MENU_SIZE = [220, 276] as const;
/** Half a breath at rest. */
const BREATH_MS = 2000;
/** A press that moves less than this is a click, not a drag. */
const DRAG_THRESHOLD = 4;
/** How long a click on a reminder's bubble waits for a second click (a snooze). */
const DOUBLE_CLICK_MS = 260;

interface Drag {
  startX: number;
  startY: number;
  dx: number;
  dy: number;
  moving: boolean;
}

function reducer(state: { machine: CharacterState; now: number }, input: Input | { kind: "tick" }) {
  const now = Date.now();
  return input.kind === "tick" ? { machine: state.machine, now } : { machine: step(state.machine, input, now), now };
}

export function Character() {
  const t = useStrings();
  const [{ machine, now }, dispatch] = useReducer(reducer, { machine: initial, now: Date.now() });
  const [start, setStart] = useState<CharacterStart | null>(null);
  const [menu, setMenu] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [grown, setGrown] = useState<Grown | null>(null);
  const [blink, setBlink] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [snoozeMinutes, setSnoozeMinutes] = useState<number | null>(null);
  const drag = useRef<Drag | null>(null);
  const clickTimer = useRef<number | null>(null);

  const mood = moodOf(machine, now);
  const speech = speechNow(machine, now);

  useEffect(() => {
    const unlisten = api.onCoreEvent((event) => dispatch({ kind: "core", event }));
    api
      .characterStart()
      .then((s) => {
        setStart(s);
        dispatch({ kind: "start", start: s });
      })
      .catch(() => undefined);
    api
      .snoozeChoices()
      .then((choices) => setSnoozeMinutes(choices[0] ?? null))
      .catch(() => undefined);
    return () => {
      unlisten.then((stop) => stop());
    };
  }, []);

  // Timeouts back to idle, and the quiet's end (asked of the core again then).
  useEffect(() => {
    const at = nextChange(machine, now);
    if (at === null) return;
    const timer = window.setTimeout(() => {
      const quietEnds = machine.quiet.changes_at ? Date.parse(machine.quiet.changes_at) : null;
      if (quietEnds !== null && quietEnds <= Date.now()) {
        api
          .quietNow()
          .then((quiet) => dispatch({ kind: "quiet", quiet }))
          .catch(() => dispatch({ kind: "tick" }));
      } else {
        dispatch({ kind: "tick" });
      }
    }, Math.max(50, at - Date.now()));
    return () => window.clearTimeout(timer);
  }, [machine, now]);

  // Breathing at rest: a small move every BREATH_MS, unless the system asks for less motion.
  const [inhale, setInhale] = useState(false);
  useEffect(() => {
    if (mood !== "idle" && mood !== "listening") return;
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    const timer = window.setInterval(() => setInhale((i) => !i), BREATH_MS);
    return () => {
      window.clearInterval(timer);
      setInhale(false);
    };
  }, [mood]);

  // A blink now and then, while awake (not when the system asks for less motion).
  useEffect(() => {
    if (mood === "sleeping" || mood === "thinking") return;
    if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
    let timer = window.setTimeout(function next() {
      setBlink(true);
      window.setTimeout(() => setBlink(false), 160);
      timer = window.setTimeout(next, 3500 + Math.random() * 4000);
    }, 2500 + Math.random() * 3000);
    return () => window.clearTimeout(timer);
  }, [mood]);

  // The window's size follows what is shown: the character alone, a bubble, or the menu.
  const layout = menu ? "menu" : speech && !dragging ? "bubble" : "rest";
  useEffect(() => {
    if (!start) return;
    const [width, height] = layout === "menu" ? MENU_SIZE : layout === "bubble" ? BUBBLE_SIZE : start.window.rest;
    api
      .characterFit(width, height)
      .then(setGrown)
      .catch(() => undefined);
  }, [layout, start]);

  useEffect(() => {
    if (!menu) return;
    const close = (e: KeyboardEvent | FocusEvent) => {
      if (e.type === "blur" || (e as KeyboardEvent).key === "Escape") setMenu(false);
    };
    window.addEventListener("keydown", close);
    window.addEventListener("blur", close);
    return () => {
      window.removeEventListener("keydown", close);
      window.removeEventListener("blur", close);
    };
  }, [menu]);

  const open = useCallback(
    (messageId: number | null) => {
      setMenu(false);
      if (messageId !== null) dispatch({ kind: "heard" });
      api.characterOpen(messageId).catch(() => undefined);
    },
    [dispatch],
  );

  const onPointerDown = (e: PointerEvent<HTMLButtonElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { startX: e.screenX, startY: e.screenY, dx: 0, dy: 0, moving: false };
  };
  const onPointerMove = (e: PointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    if (!d) return;
    d.dx = e.screenX - d.startX;
    d.dy = e.screenY - d.startY;
    if (!d.moving && Math.hypot(d.dx, d.dy) >= DRAG_THRESHOLD) {
      d.moving = true;
      setMenu(false);
      setDragging(true);
    }
    if (d.moving) api.characterDrag(d.dx, d.dy).catch(() => undefined);
  };
  const onPointerUp = () => {
    const d = drag.current;
    drag.current = null;
    if (!d) return;
    if (d.moving) {
      api
        .characterDrop(d.dx, d.dy)
        .catch(() => undefined)
        .finally(() => setDragging(false));
    } else {
      open(speech?.messageId ?? null);
    }
  };

  const onBubbleClick = () => {
    if (!speech) return;
    if (!speech.reminder || snoozeMinutes === null) return open(speech.messageId);
    if (clickTimer.current !== null) return;
    clickTimer.current = window.setTimeout(() => {
      clickTimer.current = null;
      open(speech.messageId);
    }, DOUBLE_CLICK_MS);
  };
  const onBubbleDoubleClick = () => {
    if (!speech?.reminder || snoozeMinutes === null) return;
    if (clickTimer.current !== null) window.clearTimeout(clickTimer.current);
    clickTimer.current = null;
    api
      .answerReminderMessage(speech.messageId, snoozeMinutes)
      .then(() => {
        dispatch({ kind: "heard" });
        setNote(t.characterSnoozed(snoozeMinutes));
        window.setTimeout(() => setNote(null), 2500);
      })
      .catch(() => undefined);
  };

  const menuItem = (label: string, testid: string, action: () => void) => (
    <button
      type="button"
      role="menuitem"
      data-testid={testid}
      onClick={() => {
        setMenu(false);
        action();
      }}
    >
      {label}
    </button>
  );

  const corner = `${grown?.right === false ? "left" : "right"} ${grown?.bottom === false ? "top" : "bottom"}`;
  return (
    <div
      className={`stage ${corner} ${start && !start.window.transparent ? "card" : ""}`}
      data-testid="character"
      data-mood={mood}
      data-layout={layout}
      data-see-through={start ? String(start.window.transparent) : undefined}
    >
      {layout === "bubble" && speech && (
        <div
          className="bubble"
          role="button"
          tabIndex={0}
          data-testid="character-bubble"
          title={speech.reminder && snoozeMinutes !== null ? t.characterBubbleSnoozeHint(snoozeMinutes) : t.characterBubbleHint}
          onClick={onBubbleClick}
          onDoubleClick={onBubbleDoubleClick}
          onKeyDown={(e) => e.key === "Enter" && open(speech.messageId)}
        >
          {speech.text}
        </div>
      )}
      {note && (
        <div className="bubble note" role="status" data-testid="character-note">
          {note}
        </div>
      )}
      {menu && (
        <div className="menu" role="menu" aria-label={t.characterMenu} data-testid="character-menu">
          {menuItem(t.characterOpen, "character-menu-open", () => open(null))}
          {menuItem(t.characterQuietHour, "character-menu-quiet", () =>
            api
              .quietForAnHour()
              .then((quiet) => dispatch({ kind: "quiet", quiet }))
              .catch(() => undefined),
          )}
          {menuItem(t.characterHide, "character-menu-hide", () => api.setCharacter(false).catch(() => undefined))}
          {menuItem(t.characterSettings, "character-menu-settings", () => api.characterSettings().catch(() => undefined))}
        </div>
      )}
      <button
        type="button"
        className="figure-button"
        data-testid="character-figure"
        aria-haspopup="menu"
        title={t.characterLabel(mood)}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onKeyDown={(e) => e.key === "Enter" && open(speech?.messageId ?? null)}
        onContextMenu={(e) => {
          e.preventDefault();
          setMenu((shown) => !shown);
        }}
      >
        <Art mood={mood} blink={blink} inhale={inhale} badge={machine.down.length > 0} label={t.characterLabel(mood) + (machine.down.length ? `. ${t.characterBadge}` : "")} />
      </button>
    </div>
  );
}
