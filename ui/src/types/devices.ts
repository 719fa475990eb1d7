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
}
