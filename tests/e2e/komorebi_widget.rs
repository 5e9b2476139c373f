//! The Komorebi widget drawn from a simulated komorebi's state, in each of
//! its display forms, compared with reviewed golden images: workspaces
//! focused, occupied and empty, the layout, the focused stack with its
//! shown window selected, the lock and the layer.

use crate::golden::{check_with, fixed};
use crate::komorebi_simulator::{Simulator, state, window, workspace};
use serde_json::json;

/// "code" focused with a locked stack of two windows and a lone one,
/// "web" with one window, "3" empty, "chat" with one window.
fn komorebi_state() -> serde_json::Value {
    let mut code = workspace(
        Some("code"),
        &[&[window("main.rs", "code.exe"), window("shell", "wt.exe")], &[window("notes", "obsidian.exe")]],
        0,
        "VerticalStack",
    );
    code["containers"]["elements"][0]["locked"] = json!(true);
    code["containers"]["elements"][0]["windows"]["focused"] = json!(1);
    state(
        vec![
            code,
            workspace(Some("web"), &[&[window("page", "firefox.exe")]], 0, "BSP"),
            workspace(None, &[], 0, "BSP"),
            workspace(Some("chat"), &[&[window("chat", "chat.exe")]], 0, "Columns"),
        ],
        0,
    )
}

fn bar(workspaces: &str, container: &str) -> String {
    format!(
        r#"{{ "height": 36, "font_size": 13, "font_family": "DejaVu Sans", "transparency_alpha": 255,
             "left_widgets": [ {{ "Komorebi": {{
                 "workspaces": {{ "enable": true, "hide_empty_workspaces": false, "display": {workspaces} }},
                 "layout": {{ "enable": true, "display": "IconAndText" }},
                 "focused_container": {{ "enable": true, "display": "{container}" }},
                 "locked_container": {{ "enable": true, "display": "Icon" }},
                 "workspace_layer": {{ "enable": true, "show_when_tiling": true, "display": "Icon" }} }} }} ],
             "right_widgets": [ {} ] }}"#,
        fixed(r#"[ { "text": "12:34" } ]"#)
    )
}

#[test]
fn the_komorebi_widget_in_each_display_form() {
    let dir = tempfile::tempdir().unwrap();
    let _komorebi = Simulator::start(dir.path(), komorebi_state());
    let arguments =
        [std::ffi::OsStr::new("--tiler"), "komorebi".as_ref(), "--komorebi-dir".as_ref(), dir.path().as_os_str()];
    let forms = [
        ("AllIcons", "Icon"),
        ("AllIconsAndText", "IconAndText"),
        ("AllIconsAndTextOnSelected", "IconAndTextOnSelected"),
        ("Icon", "Icon"),
        ("Text", "Text"),
        ("IconAndText", "IconAndText"),
        ("IconAndTextOnSelected", "IconAndTextOnSelected"),
        ("TextAndIconOnSelected", "TextAndIconOnSelected"),
    ];
    for (workspaces, container) in forms {
        check_with(&format!("komorebi-{workspaces}"), &bar(&format!("\"{workspaces}\""), container), 900, &arguments);
    }
}
