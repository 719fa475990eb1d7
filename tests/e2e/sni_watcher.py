"""A StatusNotifierWatcher on the session bus, so the app's tray icon registers
somewhere a test can see it, and helpers to click the tray's menu over D-Bus
(com.canonical.dbusmenu), the way a desktop's panel does.

Run as a script it serves the watcher and prints each registration as a line
"registered <bus name> <object path>".
"""
import asyncio
import sys
from pathlib import Path

from dbus_next import BusType, Variant
from dbus_next.aio import MessageBus
from dbus_next.service import PropertyAccess, ServiceInterface, dbus_property, method, signal


class Watcher(ServiceInterface):
    def __init__(self):
        super().__init__("org.kde.StatusNotifierWatcher")
        # "<bus name><object path>", as KDE's watcher lists them, oldest first.
        self.items = []
        # dbus-next does not pass a method its caller, so the bus name of each
        # registration is read off the message itself (see `serve`).
        self.senders = []

    @method()
    def RegisterStatusNotifierItem(self, service: "s"):  # noqa: F821
        sender = self.senders.pop(0) if self.senders else ""
        # appindicator sends its object path; other items send their bus name.
        item = f"{sender}{service}" if service.startswith("/") else f"{service}/StatusNotifierItem"
        self.items.append(item)
        print(f"registered {item}", flush=True)
        self.StatusNotifierItemRegistered(item)

    @method()
    def RegisterStatusNotifierHost(self, service: "s"):  # noqa: F821
        pass

    @dbus_property(access=PropertyAccess.READ)
    def RegisteredStatusNotifierItems(self) -> "as":  # noqa: F821
        return self.items

    @dbus_property(access=PropertyAccess.READ)
    def IsStatusNotifierHostRegistered(self) -> "b":  # noqa: F821
        return True

    @dbus_property(access=PropertyAccess.READ)
    def ProtocolVersion(self) -> "i":  # noqa: F821
        return 0

    @signal()
    def StatusNotifierItemRegistered(self, service) -> "s":  # noqa: F821
        return service

    @signal()
    def StatusNotifierHostRegistered(self):
        pass


async def serve():
    bus = await MessageBus(bus_type=BusType.SESSION).connect()
    watcher = Watcher()

    def note_sender(message):
        if message.member == "RegisterStatusNotifierItem":
            watcher.senders.append(message.sender)

    bus.add_message_handler(note_sender)
    bus.export("/StatusNotifierWatcher", watcher)
    await bus.request_name("org.kde.StatusNotifierWatcher")
    print("watcher ready", flush=True)
    await asyncio.get_running_loop().create_future()


async def _find_items(bus):
    """(bus name, path) of the StatusNotifierItems registered with the watcher whose
    connection is still on the bus, newest first. Asking the watcher, not every
    connection: a connection that cannot answer (dbus-monitor's) cost a 2 s timeout each."""
    introspection = await bus.introspect("org.freedesktop.DBus", "/org/freedesktop/DBus")
    dbus = bus.get_proxy_object("org.freedesktop.DBus", "/org/freedesktop/DBus", introspection)
    names = set(await dbus.get_interface("org.freedesktop.DBus").call_list_names())
    node = await bus.introspect("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher")
    watcher = bus.get_proxy_object("org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher", node)
    registered = await watcher.get_interface("org.kde.StatusNotifierWatcher").get_registered_status_notifier_items()
    found = []
    for item in reversed(registered):
        slash = item.index("/")
        if item[:slash] in names:
            found.append((item[:slash], item[slash:]))
    return found


# The greyed-out entries the last menu walk found.
disabled = set()


async def _menu_labels_and_click(label=None):
    bus = await MessageBus(bus_type=BusType.SESSION).connect()
    try:
        items = await _find_items(bus)
        if not items:
            return None, []
        name, path = items[0]
        node = await bus.introspect(name, path)
        item = bus.get_proxy_object(name, path, node).get_interface("org.freedesktop.DBus.Properties")
        menu_path = (await item.call_get("org.kde.StatusNotifierItem", "Menu")).value
        menu_node = await bus.introspect(name, menu_path)
        menu = bus.get_proxy_object(name, menu_path, menu_node).get_interface("com.canonical.dbusmenu")
        _revision, layout = await menu.call_get_layout(0, -1, ["label", "enabled"])
        entries = []

        def walk(node):
            ident, props, children = node
            if ident != 0 and "label" in props:  # 0 is the menu's root, not an entry
                entries.append((ident, props["label"].value))
                if not props.get("enabled", Variant("b", True)).value:
                    disabled.add(props["label"].value.replace("_", ""))
            for child in children:
                walk(child.value)

        walk(layout)
        labels = [l.replace("_", "") for _, l in entries]
        if label is not None:
            ident = next(i for i, l in entries if l.replace("_", "") == label)
            await menu.call_event(ident, "clicked", Variant("s", ""), 0)
        return (name, path), labels
    finally:
        bus.disconnect()


async def _icon():
    bus = await MessageBus(bus_type=BusType.SESSION).connect()
    try:
        items = await _find_items(bus)
        if not items:
            return None
        name, path = items[0]
        node = await bus.introspect(name, path)
        item = bus.get_proxy_object(name, path, node).get_interface("org.freedesktop.DBus.Properties")
        icon = (await item.call_get("org.kde.StatusNotifierItem", "IconName")).value
        theme = (await item.call_get("org.kde.StatusNotifierItem", "IconThemePath")).value
        return icon if icon.startswith("/") else f"{theme}/{icon}.png"
    finally:
        bus.disconnect()


def tray_icon():
    """The file of the tray item's icon as the panel reads it, or None."""
    return asyncio.run(_icon())


def tray_icon_bytes():
    """The tray item's icon as a panel would read it now, or None while there is none. The
    app writes a new file when the icon changes and removes the old one, so a path read a
    moment ago may be gone."""
    path = tray_icon()
    try:
        return Path(path).read_bytes() if path else None
    except FileNotFoundError:
        return None


def tray_menu_labels():
    """The tray item's menu labels, or [] when no tray item is registered."""
    return asyncio.run(_menu_labels_and_click())[1]


def tray_menu_disabled():
    """The labels of the tray menu's entries that are greyed out."""
    disabled.clear()
    asyncio.run(_menu_labels_and_click())
    return set(disabled)


def click_tray_menu(label):
    """Clicks the tray menu entry with this label, as a panel would."""
    item, labels = asyncio.run(_menu_labels_and_click(label))
    if item is None:
        raise RuntimeError("no tray item on the bus")
    return labels


if __name__ == "__main__":
    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        sys.exit(0)
