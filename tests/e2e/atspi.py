#!/usr/bin/python3
"""What a screen reader sees of Obi, for the end-to-end tests: reads the
accessibility tree of the application named `obi` over AT-SPI (pyatspi, on
the session bus DBUS_SESSION_BUS_ADDRESS names) and acts on it.

    atspi.py enable              turns assistive technology on for the bus, as Orca does
    atspi.py tree                prints the application's windows as JSON
    atspi.py act ROLE NAME       does the first action of the first ROLE named NAME
    atspi.py set ROLE NAME VALUE sets the value of the first ROLE named NAME

A command that finds nothing within ten seconds fails, saying what it saw.
"""

import json
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

WAIT = 10.0


def enable():
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    bus.call_sync(
        "org.a11y.Bus",
        "/org/a11y/bus",
        "org.freedesktop.DBus.Properties",
        "Set",
        GLib.Variant("(ssv)", ("org.a11y.Status", "IsEnabled", GLib.Variant("b", True))),
        None,
        Gio.DBusCallFlags.NONE,
        5000,
        None,
    )


def application():
    import pyatspi

    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        if app is not None and app.name == "obi" and app.childCount > 0:
            return app
    return None


def describe(node):
    import pyatspi

    states = sorted(pyatspi.stateToString(state) for state in node.getState().getStates())
    described = {"role": node.getRoleName(), "name": node.name, "description": node.description, "states": states}
    try:
        value = node.queryValue()
        described["value"] = [value.minimumValue, value.currentValue, value.maximumValue]
    except NotImplementedError:
        pass
    try:
        action = node.queryAction()
        described["actions"] = [action.getName(index) for index in range(action.nActions)]
    except NotImplementedError:
        pass
    described["children"] = [describe(node.getChildAtIndex(index)) for index in range(node.childCount)]
    return described


def find(node, role, name):
    if node.getRoleName() == role and node.name == name:
        return node
    for index in range(node.childCount):
        found = find(node.getChildAtIndex(index), role, name)
        if found is not None:
            return found
    return None


def until_found(look):
    """What `look` finds, asked again until it finds something."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            found = look()
        except Exception as error:  # the tree changed under the walk
            found, last = None, error
        else:
            last = None
        if found is not None:
            return found
        if time.monotonic() > deadline:
            app = application()
            seen = json.dumps(describe(app)) if app is not None else "no application named obi"
            sys.exit(f"nothing found ({last or 'not there'}); the tree: {seen}")
        time.sleep(0.2)


def named(role, name):
    def look():
        app = application()
        return None if app is None else find(app, role, name)

    return until_found(look)


def main(args):
    command = args[0] if args else ""
    if command == "enable":
        enable()
    elif command == "tree":
        app = until_found(application)
        print(json.dumps([describe(app.getChildAtIndex(index)) for index in range(app.childCount)]))
    elif command == "act" and len(args) == 3:
        node = named(args[1], args[2])
        print(json.dumps(node.queryAction().doAction(0)))
    elif command == "set" and len(args) == 4:
        node = named(args[1], args[2])
        node.queryValue().currentValue = float(args[3])
        print(json.dumps(True))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
