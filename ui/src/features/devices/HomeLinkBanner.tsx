import { useEffect, useState } from "react";
import { api } from "../../api";
import { useStrings } from "../../i18n";

/** On a computer that uses another's Sidecar: a line while the link is down (what is
 * typed waits and is sent once when it is back) or refused (pair again), gone when
 * the link is up. The words are the core's. */
export function HomeLinkBanner() {
  const t = useStrings();
  const [said, setSaid] = useState<{ text: string; refused: boolean } | null>(null);
  useEffect(() => {
    api
      .homeView()
      .then((home) => setSaid(home && home.state !== "up" && home.state !== "connecting" ? { text: home.said, refused: home.state === "refused" } : null))
      .catch(() => {});
    const off = api.onCoreEvent((event) => {
      if (event.type !== "home_link") return;
      // Trying again after a drop is still down: the line stays until the link is up.
      if (event.state === "connecting") return;
      const down = event.state === "down" || event.state === "refused";
      setSaid(down ? { text: event.said ?? "", refused: event.state === "refused" } : null);
    });
    return () => {
      off.then((f) => f());
    };
  }, []);
  if (!said) return null;
  return (
    <div className={said.refused ? "budget-banner spent" : "budget-banner"} role="status" data-testid="home-link-banner">
      <span>{said.text}</span>
      {said.refused && <span className="small">{t.homeRefusedHow}</span>}
    </div>
  );
}
