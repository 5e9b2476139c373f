//! The Applications widget's buttons and clicks, through the harness.

use obi_harness::{Harness, Input, Piece, Script, View, texts};

fn script() -> Script {
    Script::at("2024-03-09T15:04:05Z".parse().unwrap())
}

const APPS: &str = r#"[
    { "name": "Terminal", "command": "alacritty --working-directory \"$HOME\"", "icon": "/usr/share/pixmaps/terminal.png" },
    { "name": "Notes", "command": "xdg-open ~/notes.md", "icon": "N", "display": "Text", "show_command_on_hover": true },
    { "name": "Hidden", "command": "false", "enable": false },
    { "name": "Files", "command": "nautilus" }
]"#;

fn view(options: &str, script: &Script) -> View {
    let config = format!(r#"{{ "enable": true, {options} "items": {APPS} }}"#);
    Harness::stock("Applications", &config, script).unwrap().refresh().unwrap()
}

#[test]
fn one_button_per_enabled_item_in_its_display_format() {
    let script = script();
    let icons = view("", &script);
    assert_eq!(icons.items.len(), 3, "the disabled item is left out");
    // The widget names a file; the runtime reads it (here it cannot) and holds what it read.
    assert!(matches!(icons.items[0].pieces[..], [Piece::HeldImage(_)]), "{:?}", icons.items[0]);
    assert_eq!(icons.items[1].pieces, [Piece::Text("Notes".into())], "its own display wins");
    assert!(matches!(icons.items[2].pieces[..], [Piece::Icon(_)]), "the app icon when none is given");

    let both = view(r#""display": "IconAndText","#, &script);
    assert_eq!(texts(&both), ["Terminal", "Notes", "Files"]);
    assert_eq!(both.items[0].pieces.len(), 2);
}

#[test]
fn a_glyph_icon_is_drawn_in_the_bar_font() {
    let script = script();
    let config = r#"{ "enable": true, "display": "IconAndText", "items": [ { "name": "Mail", "command": "thunderbird", "icon": "M" } ] }"#;
    let shown = Harness::stock("Applications", config, &script).unwrap().refresh().unwrap();
    assert_eq!(shown.items[0].pieces, [Piece::Text("M".into()), Piece::Text("Mail".into())]);
}

#[test]
fn tooltips_name_the_app_or_show_its_command() {
    let script = script();
    let tooltips = |view: View| view.items.into_iter().map(|item| item.tooltip.unwrap()).collect::<Vec<_>>();
    assert_eq!(tooltips(view("", &script)), ["Terminal", "xdg-open ~/notes.md", "Files"]);
    let commands = tooltips(view(r#""show_command_on_hover": true,"#, &script));
    assert_eq!(commands, ["alacritty --working-directory \"$HOME\"", "xdg-open ~/notes.md", "nautilus"]);
}

#[test]
fn spacing_sets_the_gap_between_buttons() {
    let script = script();
    assert_eq!(view(r#""spacing": 14.5,"#, &script).item_spacing, Some(14.5));
    assert_eq!(view("", &script).item_spacing, None, "the theme's gap");
    assert_eq!(view(r#""spacing": -3,"#, &script).item_spacing, Some(0.0));
}

#[test]
fn a_click_runs_the_items_command_as_written() {
    let script = script();
    let config = format!(r#"{{ "enable": true, "items": {APPS} }}"#);
    let mut apps = Harness::stock("Applications", &config, &script).unwrap();
    // Items are known by their place in `items`, the disabled one's too.
    apps.input("3", Input::PrimaryClick).unwrap();
    apps.input("2", Input::PrimaryClick).unwrap();
    apps.input("0", Input::PrimaryClick).unwrap();
    apps.input("0", Input::SecondaryClick).unwrap();
    apps.input("9", Input::PrimaryClick).unwrap();
    // The shell resolves `$HOME`, not the widget.
    assert_eq!(script.spawned(), ["nautilus", "alacritty --working-directory \"$HOME\""]);
}

#[test]
fn it_refreshes_only_on_input() {
    let script = script();
    let config = format!(r#"{{ "enable": true, "items": {APPS} }}"#);
    assert_eq!(Harness::stock("Applications", &config, &script).unwrap().schedule().interval_ms, 0);
}
