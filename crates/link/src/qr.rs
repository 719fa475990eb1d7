//! The web app's address as a QR code, for a phone's camera: the page to open, never the
//! pairing code or a token (those are typed, so a photo of the screen opens nothing).

use std::net::SocketAddr;

use qrcode::render::svg;
use qrcode::QrCode;

/// The address a browser opens for a listener at `address`: none for an unspecified
/// one (0.0.0.0 names no computer a phone can reach) or loopback (this computer only).
pub fn web_address(address: SocketAddr) -> Option<String> {
    let ip = address.ip();
    if ip.is_unspecified() || ip.is_loopback() {
        return None;
    }
    Some(format!("https://{address}/"))
}

/// `text` as a QR code in SVG, dark on light whatever the theme (cameras need contrast).
pub fn qr_svg(text: &str) -> Option<String> {
    let code = QrCode::new(text.as_bytes()).ok()?;
    Some(code.render::<svg::Color<'_>>().min_dimensions(180, 180).dark_color(svg::Color("#000000")).light_color(svg::Color("#ffffff")).build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_address_a_phone_can_reach_gets_a_code() {
        assert_eq!(web_address("192.168.1.20:47200".parse().unwrap()).as_deref(), Some("https://192.168.1.20:47200/"));
        assert_eq!(web_address("[fd7a:115c::1]:47200".parse().unwrap()).as_deref(), Some("https://[fd7a:115c::1]:47200/"));
        assert_eq!(web_address("0.0.0.0:47200".parse().unwrap()), None);
        assert_eq!(web_address("127.0.0.1:47200".parse().unwrap()), None);
        let svg = qr_svg("https://192.168.1.20:47200/").unwrap();
        assert!(svg.starts_with("<?xml") && svg.contains("<svg"), "{svg}");
    }
}
