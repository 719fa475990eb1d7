"""Another X client holding a key combination, as a program that owns a global
shortcut does: `python key_grabber.py ctrl+alt+k` grabs it on the root window until
killed, and prints "grabbed" once the X server has granted it."""
import sys

from Xlib import X, XK, display
from Xlib.error import CatchError

MODIFIERS = {"ctrl": X.ControlMask, "alt": X.Mod1Mask, "shift": X.ShiftMask, "super": X.Mod4Mask}


def main(combo):
    *mods, key = combo.lower().split("+")
    screen = display.Display()
    root = screen.screen().root
    keycode = screen.keysym_to_keycode(XK.string_to_keysym(key))
    mask = 0
    for mod in mods:
        mask |= MODIFIERS[mod]
    failed = CatchError()
    # With and without Num Lock / Caps Lock, as shortcut libraries grab it.
    for extra in (0, X.Mod2Mask, X.LockMask, X.Mod2Mask | X.LockMask):
        root.grab_key(keycode, mask | extra, True, X.GrabModeAsync, X.GrabModeAsync, onerror=failed)
    screen.sync()
    if failed.get_error():
        print("refused", flush=True)
        sys.exit(1)
    print("grabbed", flush=True)
    while True:
        screen.next_event()


if __name__ == "__main__":
    main(sys.argv[1])
