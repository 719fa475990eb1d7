"""A StatusNotifierWatcher on the session bus, so the app's tray icon registers
somewhere a test can see it, and helpers to click the tray's menu over D-Bus
(com.canonical.dbusmenu), the way a desktop's panel does.

Run as a script it serves the watcher and prints each registration as a line
"registered <bus name> <object path>".
"""
import asyncio
import sys

from dbus_next import BusType, Variant
from dbus_next.aio import MessageBus
from dbus_next.service import PropertyAccess, ServiceInterface, dbus_property, method, signal


class Watcher(ServiceInterface):
    def __init__(self):
        super().__init__("org.kde.StatusNotifierWatcher")
        self.items = []

    @method()
    def RegisterStatusNotifierItem(self, service: "s"):  # noqa: F821
        # The sender is not passed to methods by dbus-next; appindicator sends its
        # object path, so the bus name is learned from the NameOwner lookup later.
        self.items.append(service)
        print(f"registered {service}", flush=True)
        self.StatusNotifierItemRegistered(service)

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
    bus.export("/StatusNotifierWatcher", Watcher())
    await bus.request_name("org.kde.StatusNotifierWatcher")
    print("watcher ready", flush=True)
    await asyncio.get_running_loop().create_future()


async def _find_items(bus):
    """(bus name, path) of every StatusNotifierItem on the bus: any connection that
    exports org.kde.StatusNotifierItem at a path appindicator uses."""
    introspection = await bus.introspect("org.freedesktop.DBus", "/org/freedesktop/DBus")
    dbus = bus.get_proxy_object("org.freedesktop.DBus", "/org/freedesktop/DBus", introspection)
    names = await dbus.get_interface("org.freedesktop.DBus").call_list_names()
    found = []
    for name in names:
        if not name.startswith(":"):
            continue
        for path in await _paths_with(bus, name, "/", "org.kde.StatusNotifierItem"):
            found.append((name, path))
    return found


async def _paths_with(bus, name, path, interface, depth=0):
    if depth > 6:
        return []
    try:
        node = await asyncio.wait_for(bus.introspect(name, path), 2)
    except Exception:
        return []
    out = [path] if any(i.name == interface for i in node.interfaces) else []
    for child in node.nodes:
        child_path = path.rstrip("/") + "/" + child.name
        out += await _paths_with(bus, name, child_path, interface, depth + 1)
    return out


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
