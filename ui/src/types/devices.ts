// The user's other devices attached to this Sidecar, as the core's devices commands
// carry them (src/companion/devices.rs, crates/link).

export interface PairingCode {
  code: string;
  expires_at: string;
}

export interface Device {
  id: number;
  name: string;
  paired_at: string;
  last_seen: string | null;
}

export interface DevicesView {
  listening: string[];
  problems: string[];
  fingerprint: string | null;
  code: PairingCode | null;
  devices: Device[];
  /** Where a phone's browser opens the web app, with its QR code (SVG). */
  web: WebPage[];
}

export interface WebPage {
  url: string;
  qr: string;
}

/** This computer using the Sidecar of another (its home core): `home_view`. */
export interface HomeView {
  address: string;
  /** This computer's name on the home core. */
  name: string;
  fingerprint: string;
  state: HomeLinkState;
  /** The state in words, with what to do. */
  said: string;
  /** Messages typed while the link was down, not yet answered. */
  waiting: number;
}

export type HomeLinkState = "connecting" | "up" | "down" | "refused";
