//! One Sidecar on every device. The home core listens (off until the user turns it on)
//! for the user's other devices; a device attaches with a pairing code once, and from
//! then on with its own token, over TLS to a certificate it pinned at pairing.
//!
//! Code map: `pairing` (the code the user reads and types), `identity` (the core's
//! certificate and its fingerprint), `devices` (the paired devices and their hashed
//! tokens), `present` (which are attached, and the one the user is at), `calls` (what the core does for a device), `server` with `socket` and `replies` (the listener, one device's link, the
//! answers kept so a call sent twice runs once), `client` with `tls` and `home` (the
//! device's side: pinning, its home core kept), `protocol` (the frames), `qr` (the web app's address for a phone's camera), `web` (the web app a browser opens: the window's files, a
//! session cookie, the content policy), `words` (both languages).

mod calls;
mod client;
mod devices;
mod error;
mod home;
mod identity;
mod pairing;
mod present;
mod protocol;
mod qr;
mod replies;
mod server;
mod socket;
mod tls;
mod web;
pub mod words;

pub use calls::{Addressed, Calls};
pub use client::{pair, CallFailure, LinkClient, LinkState, Paired, Refusal};
pub use devices::{Device, Devices, Issued};
pub use error::{LinkError, PairingError};
pub use home::Home;
pub use identity::{Fingerprint, Identity};
pub use pairing::{PairingCode, CODE_LIFETIME, TRIES};
pub use present::{Present, AT_HAND};
pub use protocol::{Frame, Outcome};
pub use qr::{qr_svg, web_address};
pub use server::{LinkServer, Listening};
pub use web::WebFiles;
