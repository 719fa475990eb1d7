// The user's other devices attached to this Sidecar, as the core's devices commands
// carry them (src/companion/devices.rs, crates/link), generated from the core's Rust
// types (./core.ts).
export type { Device, DevicesView, HomeLinkState, HomeView, PairingCode, WebPage } from "./core";
