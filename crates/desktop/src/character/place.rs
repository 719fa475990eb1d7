//! Where the character's window goes on a screen: where the user left it, kept whole on
//! the screen, or the bottom-right corner the first time.

use serde::{Deserialize, Serialize};

/// Space kept between the character and the screen's edges at its first place, logical
/// pixels.
pub const MARGIN: f64 = 24.0;

/// A top-left corner, in the screen's physical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct Spot {
    pub x: i32,
    pub y: i32,
}

/// The part of a screen windows may use (without panels and docks), physical pixels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Screen {
    /// The name the system gives the screen; places are kept per name.
    pub name: String,
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
    /// Physical pixels per logical one (2 on a HiDPI screen).
    pub scale: f64,
}

/// The window's size, physical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Size {
    pub width: u32,
    pub height: u32,
}

/// Where the character stands on `screen`: `saved` kept whole on the screen (a screen
/// that shrank, or a place dragged half off it, still shows all of it), else the
/// bottom-right corner.
pub(crate) fn place(screen: &Screen, size: Size, saved: Option<Spot>) -> Spot {
    match saved {
        Some(spot) => keep_on(screen, size, spot),
        None => {
            let margin = (MARGIN * screen.scale).round() as i32;
            let corner =
                Spot { x: screen.x + screen.width as i32 - size.width as i32 - margin, y: screen.y + screen.height as i32 - size.height as i32 - margin };
            keep_on(screen, size, corner)
        }
    }
}

/// `spot` moved the least so that the whole window is on the screen.
pub(crate) fn keep_on(screen: &Screen, size: Size, spot: Spot) -> Spot {
    let clamp = |value: i32, start: i32, length: u32, own: u32| {
        let end = start + length as i32 - own as i32;
        if end < start {
            start
        } else {
            value.clamp(start, end)
        }
    };
    Spot { x: clamp(spot.x, screen.x, screen.width, size.width), y: clamp(spot.y, screen.y, screen.height, size.height) }
}

/// What the character's page needs to know about its window.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ts_rs::TS)]
pub struct WindowFacts {
    /// `false`: no compositor, so the character sits on a small card.
    pub transparent: bool,
    /// The window with the character alone, logical pixels.
    pub rest: (f64, f64),
}

/// The character's window grown for a speech bubble or its menu: where the window goes,
/// and in which corner of it the character stays put.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Grown {
    pub window: Spot,
    /// The character is at the window's right edge (the window grew leftwards).
    pub right: bool,
    /// The character is at the window's bottom edge (the window grew upwards).
    pub bottom: bool,
}

/// Grows the window from `rest` (the character alone) to `grown`, towards the middle of
/// the screen, so the character does not move and what grew stays on the screen.
pub fn grow(screen: &Screen, rest: Spot, rest_size: Size, grown: Size) -> Grown {
    let right = rest.x + rest_size.width as i32 / 2 >= screen.x + screen.width as i32 / 2;
    let bottom = rest.y + rest_size.height as i32 / 2 >= screen.y + screen.height as i32 / 2;
    let x = if right { rest.x + rest_size.width as i32 - grown.width as i32 } else { rest.x };
    let y = if bottom { rest.y + rest_size.height as i32 - grown.height as i32 } else { rest.y };
    Grown { window: keep_on(screen, grown, Spot { x, y }), right, bottom }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(x: i32, width: u32, height: u32) -> Screen {
        Screen { name: "HDMI-1".into(), x, y: 0, width, height, scale: 1.0 }
    }
    const M: i32 = MARGIN as i32;
    const SIZE: Size = Size { width: 120, height: 120 };

    #[test]
    fn the_first_place_is_the_bottom_right_corner() {
        assert_eq!(place(&screen(0, 1280, 800), SIZE, None), Spot { x: 1280 - 120 - M, y: 800 - 120 - M });
        // A second screen to the right of the first.
        assert_eq!(place(&screen(1920, 1280, 800), SIZE, None), Spot { x: 1920 + 1280 - 120 - M, y: 800 - 120 - M });
    }

    #[test]
    fn the_margin_is_the_same_to_the_eye_on_a_hidpi_screen() {
        let hidpi = Screen { scale: 2.0, ..screen(0, 2560, 1600) };
        let size = Size { width: 224, height: 224 };
        assert_eq!(place(&hidpi, size, None), Spot { x: 2560 - 224 - 2 * M, y: 1600 - 224 - 2 * M });
    }

    #[test]
    fn a_saved_place_is_kept_whole_on_the_screen() {
        let s = screen(0, 1280, 800);
        assert_eq!(place(&s, SIZE, Some(Spot { x: 100, y: 200 })), Spot { x: 100, y: 200 });
        assert_eq!(place(&s, SIZE, Some(Spot { x: 1250, y: -40 })), Spot { x: 1160, y: 0 }, "dragged half off");
        assert_eq!(place(&screen(0, 800, 600), SIZE, Some(Spot { x: 1100, y: 700 })), Spot { x: 680, y: 480 }, "the screen shrank");
    }

    #[test]
    fn the_window_grows_towards_the_middle_of_the_screen() {
        let s = screen(0, 1280, 800);
        let grown = Size { width: 300, height: 220 };
        // At the bottom-right corner: up and to the left; the character stays put.
        let corner = place(&s, SIZE, None);
        let g = grow(&s, corner, SIZE, grown);
        assert_eq!(g, Grown { window: Spot { x: corner.x + 120 - 300, y: corner.y + 120 - 220 }, right: true, bottom: true });
        // At the top-left: down and to the right.
        assert_eq!(grow(&s, Spot { x: 10, y: 10 }, SIZE, grown), Grown { window: Spot { x: 10, y: 10 }, right: false, bottom: false });
    }

    #[test]
    fn a_screen_smaller_than_the_window_shows_its_top_left() {
        assert_eq!(place(&screen(0, 100, 100), SIZE, None), Spot { x: 0, y: 0 });
    }
}
