//! The Komorebi widget over scripted tiler states: each of its six parts,
//! every display format, the looks of focused, occupied, empty and urgent
//! workspaces, and the messages its clicks send.

use obi_harness::tiler::{Container, Kind, Layer, Monitor, State, Status, Window, Workspace};
use obi_harness::{
    Emphasis, Harness, Input, Item, Piece, PopupInput, Rgba, Script, ScrollDirection, View, popup_rows, texts,
};
use std::time::Duration;

fn window(title: &str, icon: Option<u64>) -> Window {
    Window { title: title.into(), exe: format!("{title}.exe"), class: "Class".into(), icon }
}

fn container(windows: &[Window], focused: usize) -> Container {
    Container { windows: windows.to_vec(), focused_window: focused, locked: false }
}

fn workspace(name: &str, containers: Vec<Container>) -> Workspace {
    Workspace {
        name: name.into(),
        focused_container: (!containers.is_empty()).then_some(0),
        containers: containers.into(),
        layout: "BSP".into(),
        tiling: true,
        ..Workspace::default()
    }
}

/// One monitor: "code" (two containers, focused), "web" (one, urgent),
/// "3" (empty), "chat" (one).
fn state() -> State {
    let mut web = workspace("web", vec![container(&[window("firefox", Some(7))], 0)]);
    web.urgent = true;
    let code = workspace(
        "code",
        vec![
            container(&[window("editor", Some(1)), window("terminal", Some(2))], 1),
            container(&[window("notes", None)], 0),
        ],
    );
    let chat = workspace("chat", vec![container(&[window("chat", Some(9))], 0)]);
    State {
        monitors: vec![Monitor {
            name: "DISPLAY1".into(),
            area: None,
            workspaces: vec![code, web, workspace("3", Vec::new()), chat],
            focused_workspace: 0,
        }],
        focused_monitor: 0,
        bar_monitor: Some(0),
        ..State::empty(Kind::Komorebi)
    }
}

fn komorebi(config: &str, state: State) -> (Harness, Script) {
    let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
    script.set_tiler(Status::Connected(state));
    (Harness::stock("Komorebi", config, &script).unwrap(), script)
}

fn workspaces_only(display: &str, hide_empty: bool) -> String {
    format!(
        r#"{{ "workspaces": {{ "enable": true, "hide_empty_workspaces": {hide_empty}, "display": "{display}" }} }}"#
    )
}

/// Each item as a short picture: icons as `[n]` (a held image) or `[*]` (a
/// glyph), then its text.
fn pictures(view: &View) -> Vec<String> {
    view.items.iter().map(picture).collect()
}

fn picture(item: &Item) -> String {
    item.pieces
        .iter()
        .map(|piece| match piece {
            Piece::HeldImage(handle) => format!("[{handle}]"),
            Piece::Icon(_) => "[*]".into(),
            Piece::Text(text) => text.clone(),
            other => format!("{other:?}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn emphases(view: &View) -> Vec<Emphasis> {
    view.items.iter().map(|item| item.emphasis).collect()
}

/// The middle message of each batch sent (the one between the
/// mouse-follows-focus pair).
fn sent(script: &Script) -> Vec<String> {
    script
        .sent()
        .iter()
        .map(|batch| {
            assert_eq!(batch.len(), 3, "{batch:?}");
            assert_eq!(batch[0], r#"{"type":"MouseFollowsFocus","content":false}"#);
            assert_eq!(batch[2], r#"{"type":"MouseFollowsFocus","content":true}"#);
            batch[1].clone()
        })
        .collect()
}

#[test]
fn focused_occupied_empty_and_urgent_workspaces_look_different() {
    let (mut widget, _) = komorebi(&workspaces_only("Text", false), state());
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["code", "web", "3", "chat"]);
    assert_eq!(emphases(&view), [Emphasis::Selected, Emphasis::Urgent, Emphasis::Muted, Emphasis::Normal]);
}

/// i3's numbered workspaces (`1:code`), as i3bar's `strip_workspace_numbers`
/// and `strip_workspace_name` show them; the tooltip keeps the whole name.
#[test]
fn a_numbered_workspace_shows_its_name_or_its_number_as_asked() {
    let mut numbered = state();
    for (workspace, name) in numbered.monitors[0].workspaces.iter_mut().zip(["1:code", "2:web", "3", "chat"]) {
        workspace.name = name.into();
    }
    let config = |strip: &str| {
        format!(r#"{{ "workspaces": {{ "enable": true, "hide_empty_workspaces": false, "strip": "{strip}" }} }}"#)
    };
    let (mut widget, _) = komorebi(&config("Numbers"), numbered.clone());
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["code", "web", "3", "chat"]);
    assert_eq!(view.items[0].tooltip.as_deref(), Some("1:code"));
    assert_eq!(view.items[2].tooltip, None, "a number alone is its whole name");
    let (mut widget, _) = komorebi(&config("Names"), numbered);
    assert_eq!(texts(&widget.refresh().unwrap()), ["1", "2", "3", "chat"]);
}

/// i3bar's buttons: each state in the colours given for it, with a border
/// of a pixel and room inside; a state given none is the theme's.
#[test]
fn workspaces_and_the_binding_mode_take_the_colours_given_for_their_state() {
    let config = r##"{ "workspaces": { "enable": true, "hide_empty_workspaces": false, "colours": {
            "focused": { "border": "#4c7899", "background": "#285577", "text": "#ffffff" },
            "urgent": { "background": "#900000" } } },
        "binding_mode": { "enable": true, "colours": { "background": "#ff8000", "text": "#000000" } } }"##;
    let mut moded = state();
    moded.mode = Some("resize".into());
    let (mut widget, _) = komorebi(config, moded);
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["code", "web", "3", "chat", "resize"]);
    let look = |at: usize| view.items[at].look.as_deref();
    let focused = look(0).expect("the focused workspace looks its own way");
    assert_eq!(
        (focused.background, focused.colour),
        (Some(Rgba(0x28, 0x55, 0x77, 255)), Some(Rgba(255, 255, 255, 255)))
    );
    let border = focused.border.unwrap();
    assert_eq!((border.colour, border.top, border.left, focused.padding), (Rgba(0x4c, 0x78, 0x99, 255), 1.0, 1.0, 5.0));
    assert_eq!(look(1).and_then(|look| look.background), Some(Rgba(0x90, 0, 0, 255)), "web is urgent");
    assert_eq!(look(2), None, "no colours for inactive ones: the theme's");
    assert_eq!(look(4).and_then(|look| look.background), Some(Rgba(0xff, 0x80, 0, 255)), "the binding mode");
}

#[test]
fn every_workspace_display_format() {
    let cases = [
        ("Text", ["code", "web", "3", "chat"]),
        ("Icon", ["[2]", "[7]", "3", "[9]"]),
        ("IconAndText", ["[2] code", "[7] web", "3", "[9] chat"]),
        ("IconAndTextOnSelected", ["[2] code", "[7]", "3", "[9]"]),
        ("TextAndIconOnSelected", ["[2] code", "web", "3", "chat"]),
        ("AllIcons", ["[2] [*]", "[7]", "3", "[9]"]),
        ("AllIconsAndText", ["[2] [*] code", "[7] web", "3", "[9] chat"]),
        ("AllIconsAndTextOnSelected", ["[2] [*] code", "[7]", "3", "[9]"]),
    ];
    for (display, expected) in cases {
        let (mut widget, _) = komorebi(&workspaces_only(display, false), state());
        assert_eq!(pictures(&widget.refresh().unwrap()), expected, "{display}");
    }
    // The older spelling of a display format.
    let wrapped =
        r#"{ "workspaces": { "enable": true, "hide_empty_workspaces": false, "display": { "Existing": "Icon" } } }"#;
    assert_eq!(pictures(&komorebi(wrapped, state()).0.refresh().unwrap()), ["[2]", "[7]", "3", "[9]"]);
}

#[test]
fn a_click_focuses_a_workspace_by_its_real_index_while_empty_ones_are_hidden() {
    let (mut widget, script) = komorebi(&workspaces_only("Text", true), state());
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["code", "web", "chat"], "the empty one is hidden");
    assert!(view.items.iter().all(|item| item.takes.takes(Input::PrimaryClick)));
    let chat = &view.items[2].key;
    widget.input(chat, Input::PrimaryClick).unwrap();
    assert_eq!(sent(&script), [r#"{"type":"FocusMonitorWorkspaceNumber","content":[0,3]}"#]);
    // The focused workspace is shown even when empty.
    let mut empty_focused = state();
    empty_focused.monitors[0].focused_workspace = 2;
    script.set_tiler(Status::Connected(empty_focused));
    assert_eq!(texts(&widget.refresh().unwrap()), ["code", "web", "3", "chat"]);
}

#[test]
fn the_bars_own_monitor_is_shown_and_named_in_clicks() {
    let mut two = state();
    let mut second = two.monitors[0].clone();
    second.name = "DISPLAY2".into();
    second.workspaces.truncate(2);
    second.focused_workspace = 1;
    two.monitors.push(second);
    two.bar_monitor = Some(1);
    let (mut widget, script) = komorebi(&workspaces_only("Text", false), two);
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["code", "web"]);
    assert_eq!(emphases(&view)[1], Emphasis::Selected);
    widget.input(&view.items[0].key, Input::PrimaryClick).unwrap();
    assert_eq!(sent(&script), [r#"{"type":"FocusMonitorWorkspaceNumber","content":[1,0]}"#]);
}

#[test]
fn the_widget_is_woken_when_the_state_changes() {
    let (mut widget, script) = komorebi(&workspaces_only("Text", false), state());
    widget.refresh().unwrap();
    let mut next = state();
    next.monitors[0].focused_workspace = 3;
    script.set_tiler(Status::Connected(next));
    assert!(widget.wait_for_wake(Duration::from_secs(1)), "reading the state subscribed the widget");
    assert_eq!(emphases(&widget.refresh().unwrap())[3], Emphasis::Selected);
}

#[test]
fn the_layout_shows_monocle_floating_and_paused_as_komorebi_bar_does() {
    let config = r#"{ "layout": { "enable": true, "display": "Text" } }"#;
    let layout = |change: &dyn Fn(&mut State)| {
        let mut state = state();
        change(&mut state);
        texts(&komorebi(config, state).0.refresh().unwrap())
    };
    assert_eq!(layout(&|_| {}), ["BSP"]);
    assert_eq!(layout(&|state| state.monitors[0].workspaces[0].layout = "Columns".into()), ["Columns"]);
    let monocle =
        |state: &mut State| state.monitors[0].workspaces[0].monocle = Some(container(&[window("x", None)], 0));
    assert_eq!(layout(&monocle), ["Monocle"]);
    assert_eq!(layout(&|state| state.monitors[0].workspaces[0].tiling = false), ["Floating"]);
    assert_eq!(layout(&|state| state.paused = true), ["Paused"]);
}

#[test]
fn a_click_on_the_layout_opens_its_options_and_choosing_one_sends_it() {
    let config = r#"{ "layout": { "enable": true, "display": "Text", "options": ["BSP", "Columns", { "Default": "Grid" }, "Monocle", "Floating", "Paused", "Custom"] } }"#;
    let (mut widget, script) = komorebi(config, state());
    assert_eq!(texts(&widget.refresh().unwrap()), ["BSP"]);
    let view = widget.input("layout", Input::PrimaryClick).unwrap();
    assert_eq!(texts(&view), ["BSP"], "the options open in a popup, not on the bar");
    let options = popup_rows(&view);
    assert_eq!(options.concat(), ["BSP", "Columns", "Grid", "Monocle", "Floating", "Paused", "Custom"]);
    let popup = view.popup.as_ref().unwrap();
    assert_eq!(popup.item_key, "layout");
    let selected: Vec<&str> =
        popup.cells().filter(|cell| cell.emphasis == Emphasis::Selected).map(|cell| cell.key.as_str()).collect();
    assert_eq!(selected, ["layout-option:0"], "the current layout is selected among the options");
    let view = widget.popup_input("layout", "layout-option:1", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(view.popup, None, "choosing closes the picker");
    for option in [3, 4, 5, 6, 7] {
        widget.input("layout", Input::PrimaryClick).unwrap();
        let cell = format!("layout-option:{}", option - 1);
        widget.popup_input("layout", &cell, PopupInput::Input(Input::PrimaryClick)).unwrap();
    }
    assert!(widget.input("layout", Input::PrimaryClick).unwrap().popup.is_some());
    assert_eq!(widget.input("layout", Input::PrimaryClick).unwrap().popup, None, "a second click closes it");
    assert!(widget.input("layout", Input::PrimaryClick).unwrap().popup.is_some());
    assert_eq!(widget.close_popup().unwrap().popup, None, "closed from outside");
    widget.input("layout", Input::SecondaryClick).unwrap();
    widget.input("layout", Input::Scroll(ScrollDirection::Up)).unwrap();
    assert_eq!(
        sent(&script),
        [
            r#"{"type":"ChangeLayout","content":"Columns"}"#,
            r#"{"type":"ChangeLayout","content":"Grid"}"#,
            r#"{"type":"ToggleMonocle"}"#,
            r#"{"type":"ToggleTiling"}"#,
            r#"{"type":"TogglePause"}"#,
            r#"{"type":"CycleLayout","content":"Next"}"#,
            r#"{"type":"CycleLayout","content":"Previous"}"#,
        ],
        "Custom sends nothing"
    );
}

#[test]
fn on_i3_the_layouts_to_choose_are_those_it_carries_out() {
    let mut i3 = state();
    i3.kind = Kind::I3;
    i3.monitors[0].workspaces[0].layout = "splitv".into();
    let (mut widget, script) = komorebi(r#"{ "layout": { "enable": true, "display": "Text" } }"#, i3);
    assert_eq!(texts(&widget.refresh().unwrap()), ["splitv"]);
    let view = widget.input("layout", Input::PrimaryClick).unwrap();
    assert_eq!(popup_rows(&view).concat(), ["Columns", "Rows", "Monocle"]);
    let selected = view.popup.as_ref().unwrap().cells().position(|cell| cell.emphasis == Emphasis::Selected);
    assert_eq!(selected, Some(1), "i3's splitv is komorebi's Rows");
    widget.popup_input("layout", "layout-option:0", PopupInput::Input(Input::PrimaryClick)).unwrap();
    assert_eq!(sent(&script), [r#"{"type":"ChangeLayout","content":"Columns"}"#]);
}

#[test]
fn the_focused_containers_windows_with_the_shown_one_selected() {
    let config = |display: &str| format!(r#"{{ "focused_container": {{ "enable": true, "display": "{display}" }} }}"#);
    let (mut widget, script) = komorebi(&config("IconAndText"), state());
    let view = widget.refresh().unwrap();
    assert_eq!(pictures(&view), ["[1] editor", "[2] terminal"]);
    assert_eq!(emphases(&view), [Emphasis::Normal, Emphasis::Selected]);
    widget.input(&view.items[0].key, Input::PrimaryClick).unwrap();
    assert_eq!(sent(&script), [r#"{"type":"FocusStackWindow","content":0}"#]);
    let shown = |display: &str| pictures(&komorebi(&config(display), state()).0.refresh().unwrap());
    assert_eq!(shown("Icon"), ["[1]", "[2]"]);
    assert_eq!(shown("Text"), ["editor", "terminal"]);
    assert_eq!(shown("IconAndTextOnSelected"), ["[1]", "[2] terminal"]);
    assert_eq!(shown("TextAndIconOnSelected"), ["editor", "[2] terminal"]);
    // The older name, and its show_icon.
    let older = r#"{ "focused_window": { "enable": true, "show_icon": false } }"#;
    assert_eq!(pictures(&komorebi(older, state()).0.refresh().unwrap()), ["editor", "terminal"]);
    // A lone window is not a stack: not selected, and it leaves clicks to the bar.
    let mut lone = state();
    lone.monitors[0].workspaces[0].focused_container = Some(1);
    let view = komorebi(&config("IconAndText"), lone).0.refresh().unwrap();
    assert_eq!((pictures(&view), emphases(&view)), (vec!["[*] notes".to_string()], vec![Emphasis::Normal]));
    assert!(!view.items[0].takes.takes(Input::PrimaryClick));
}

#[test]
fn a_focused_floating_window_is_the_focused_container() {
    let mut floating = state();
    let code = &mut floating.monitors[0].workspaces[0];
    code.floating_windows = [window("calculator", Some(5))].into();
    code.focused_floating_window = Some(0);
    code.layer = Layer::Floating;
    let config = r#"{ "focused_container": { "enable": true } }"#;
    assert_eq!(pictures(&komorebi(config, floating).0.refresh().unwrap()), ["[5] calculator"]);
}

#[test]
fn the_lock_shows_when_locked_or_asked_to_and_a_click_toggles_it() {
    let config =
        |show: bool| format!(r#"{{ "locked_container": {{ "enable": true, "show_when_unlocked": {show} }} }}"#);
    assert!(komorebi(&config(false), state()).0.refresh().unwrap().items.is_empty());
    assert_eq!(pictures(&komorebi(&config(true), state()).0.refresh().unwrap()), ["[*] Unlocked"]);
    let mut locked = state();
    let code = &mut locked.monitors[0].workspaces[0];
    let mut containers = code.containers.to_vec();
    containers[0].locked = true;
    code.containers = containers.into();
    let (mut widget, script) = komorebi(&config(false), locked);
    assert_eq!(pictures(&widget.refresh().unwrap()), ["[*] Locked"]);
    widget.input("lock", Input::PrimaryClick).unwrap();
    assert_eq!(sent(&script), [r#"{"type":"ToggleLock"}"#]);
}

#[test]
fn the_layer_shows_when_floating_or_asked_to_and_a_click_toggles_it() {
    let config = |show: bool| {
        format!(r#"{{ "workspace_layer": {{ "enable": true, "show_when_tiling": {show}, "display": "Text" }} }}"#)
    };
    assert!(komorebi(&config(false), state()).0.refresh().unwrap().items.is_empty());
    assert_eq!(texts(&komorebi(&config(true), state()).0.refresh().unwrap()), ["Tiling"]);
    let mut floating = state();
    floating.monitors[0].workspaces[0].layer = Layer::Floating;
    let (mut widget, script) = komorebi(&config(false), floating);
    assert_eq!(texts(&widget.refresh().unwrap()), ["Floating"]);
    widget.input("layer", Input::PrimaryClick).unwrap();
    assert_eq!(sent(&script), [r#"{"type":"ToggleWorkspaceLayer"}"#]);
}

#[test]
fn the_configuration_switcher_replaces_the_configuration() {
    let config = r#"{ "configuration_switcher": { "enable": true, "configurations": { "Home": "C:\\komorebi\\home.json", "Work": "~/work.json" } } }"#;
    let (mut widget, script) = komorebi(config, state());
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["Home", "Work"]);
    widget.input(&view.items[0].key, Input::PrimaryClick).unwrap();
    assert_eq!(sent(&script), [r#"{"type":"ReplaceConfiguration","content":"C:\\komorebi\\home.json"}"#]);
}

#[test]
fn without_a_tiler_a_quiet_plug_says_why() {
    let script = Script::at("2024-03-09T15:04:05Z".parse().unwrap());
    script.set_tiler(Status::Disconnected("komorebi is not running".into()));
    let mut widget = Harness::stock("Komorebi", &workspaces_only("Text", false), &script).unwrap();
    let view = widget.refresh().unwrap();
    assert_eq!(view.items.len(), 1);
    assert_eq!(view.items[0].emphasis, Emphasis::Muted);
    assert!(view.items[0].tooltip.as_deref().unwrap().contains("komorebi is not running"));
    widget.input(&view.items[0].key, Input::PrimaryClick).unwrap();
    assert!(script.sent().is_empty());
}

#[test]
fn an_entry_with_every_part_disabled_shows_nothing() {
    let config = r#"{ "workspaces": { "enable": false, "hide_empty_workspaces": false }, "layout": { "enable": false },
                      "focused_container": { "enable": false }, "locked_container": { "enable": false },
                      "workspace_layer": { "enable": false }, "configuration_switcher": { "enable": false, "configurations": {} } }"#;
    assert!(komorebi(config, state()).0.refresh().unwrap().items.is_empty());
    assert!(komorebi("{}", state()).0.refresh().unwrap().items.is_empty());
}

/// [`state`] on i3, in the binding mode `mode`.
fn in_mode(mode: Option<&str>) -> State {
    State { mode: mode.map(str::to_owned), ..State { kind: Kind::I3, ..state() } }
}

#[test]
fn a_binding_mode_shows_after_the_workspaces_drawn_urgent_while_it_is_on() {
    let (mut widget, script) = komorebi(&workspaces_only("Text", true), in_mode(Some("resize")));
    let view = widget.refresh().unwrap();
    assert_eq!(texts(&view), ["code", "web", "chat", "resize"]);
    let mode = view.items.last().unwrap();
    assert_eq!(mode.emphasis, Emphasis::Urgent);
    assert_eq!(mode.tooltip.as_deref(), Some("Binding mode: resize"));
    script.set_tiler(Status::Connected(in_mode(None)));
    assert_eq!(texts(&widget.refresh().unwrap()), ["code", "web", "chat"], "back in the default mode");
}

/// A mode declared `--pango_markup` (its markup kept by the tiler) is drawn
/// with its styles, and named plain in the tooltip.
#[test]
fn a_binding_mode_in_markup_is_drawn_styled() {
    let markup = "<span foreground='#ff0000'>resize</span> &amp; <b>move</b>";
    let (mut widget, _script) = komorebi(&workspaces_only("Text", true), in_mode(Some(markup)));
    let view = widget.refresh().unwrap();
    let mode = view.items.last().unwrap();
    let Some(Piece::Styled(spans)) = mode.pieces.last() else { panic!("{:?}", mode.pieces) };
    let texts: Vec<&str> = spans.iter().map(|span| span.text.as_str()).collect();
    assert_eq!(texts, ["resize", " & ", "move"]);
    assert_eq!((spans[0].style.colour, spans[2].style.weight), (Some([255, 0, 0, 255]), Some(700)));
    assert_eq!(mode.tooltip.as_deref(), Some("Binding mode: resize & move"));
}

#[test]
fn the_binding_mode_part_turns_it_off_or_shows_it_alone() {
    let off = r#"{ "workspaces": { "enable": true, "hide_empty_workspaces": true, "display": "Text" },
                   "binding_mode": { "enable": false } }"#;
    assert_eq!(texts(&komorebi(off, in_mode(Some("resize"))).0.refresh().unwrap()), ["code", "web", "chat"]);
    let alone = r#"{ "binding_mode": { "enable": true, "display": "IconAndText" } }"#;
    let (mut widget, _) = komorebi(alone, in_mode(Some("move")));
    assert_eq!(pictures(&widget.refresh().unwrap()), ["[*] move"]);
    let without_workspaces = r#"{ "layout": { "enable": true, "display": "Text" } }"#;
    let view = komorebi(without_workspaces, in_mode(Some("move"))).0.refresh().unwrap();
    assert!(!texts(&view).contains(&"move".to_owned()), "shown with the workspaces alone by default: {view:?}");
}

/// A tiler listing more than a view holds (300 workspaces, 40 windows on
/// one, a stack of 50) is shown within the view's limits, the focused
/// workspace and window among what shows (the view was refused, and the
/// widget restarted, for as long as it lasted).
#[test]
fn more_workspaces_and_windows_than_a_view_holds_show_the_focused_ones() {
    let mut windows: Vec<Container> =
        (0..40).map(|index| container(&[window(&format!("w{index}"), None)], 0)).collect();
    let stack: Vec<Window> = (0..50).map(|index| window(&format!("s{index}"), Some(index))).collect();
    windows.push(container(&stack, 45));
    let mut crowded = workspace("crowded", windows);
    crowded.focused_container = Some(40);
    let mut many = state();
    let workspaces = &mut many.monitors[0].workspaces;
    workspaces.extend((4..299).map(|index| workspace(&index.to_string(), Vec::new())));
    workspaces.push(crowded);
    many.monitors[0].focused_workspace = 299;
    let config = r#"{ "workspaces": { "enable": true, "display": "AllIconsAndText" },
                      "focused_container": { "enable": true, "display": "IconAndText" } }"#;
    let view = komorebi(config, many).0.refresh().unwrap();
    assert!(view.items.len() <= 256, "{} items", view.items.len());
    let crowded = view.items.iter().find(|item| item.key == "workspace:299").expect("the focused workspace shows");
    assert_eq!((crowded.pieces.len(), crowded.emphasis), (32, Emphasis::Selected));
    assert!(matches!(crowded.pieces.last(), Some(Piece::Text(text)) if text == "crowded"));
    let windows: Vec<&str> = view.items.iter().filter_map(|item| item.key.strip_prefix("window:")).collect();
    assert_eq!(windows.len(), 32);
    assert_eq!(windows.last(), Some(&"45"), "the focused window of the stack, kept last");
    assert_eq!(view.items[0].key, "workspace:0", "the workspaces first");
}
