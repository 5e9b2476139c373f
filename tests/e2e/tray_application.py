"""A real tray application for the end-to-end tests: an Ayatana AppIndicator
(the library GTK programs use for their status icons) with an icon from a
theme directory and a menu of two entries. It prints "ready" once shown, and
"chosen <label>" for each entry chosen.

Usage: tray_application.py THEME_DIR ICON_NAME
"""

import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("AyatanaAppIndicator3", "0.1")
from gi.repository import AyatanaAppIndicator3 as AppIndicator, Gtk  # noqa: E402


def chosen(_entry, label):
    print("chosen", label, flush=True)
    if label == "Quit":
        Gtk.main_quit()


theme_dir, icon_name = sys.argv[1], sys.argv[2]
indicator = AppIndicator.Indicator.new_with_path(
    "obi-test-application", icon_name, AppIndicator.IndicatorCategory.APPLICATION_STATUS, theme_dir
)
indicator.set_title("Obi test application")
indicator.set_status(AppIndicator.IndicatorStatus.ACTIVE)

menu = Gtk.Menu()
for label in ["Greet", "Quit"]:
    entry = Gtk.MenuItem(label=label)
    entry.connect("activate", chosen, label)
    menu.append(entry)
menu.show_all()
indicator.set_menu(menu)

print("ready", flush=True)
Gtk.main()
