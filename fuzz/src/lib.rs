//! What each fuzz target does with its bytes and what must hold afterwards.
//! Shared by the targets in `fuzz_targets/` and by the host's test
//! `fuzz_regressions`, which replays every input kept in `regressions/`.
//! Beyond not panicking: a refused config says why, and a tiler state read
//! from anything points only at things it has.

use obi::config::{BarConfig, Severity};
use obi::tiler::i3::{ipc, tree};
use obi::tiler::{Kind, State, komorebi};

/// A `komorebi.bar.json` as the bar reads it from disk.
pub fn config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Err(diagnostics) = BarConfig::parse(text, "fuzzed.json") {
        let errors = diagnostics.iter().filter(|diagnostic| diagnostic.severity == Severity::Error);
        assert!(errors.count() > 0, "the config was refused without an error: {diagnostics:?}");
    }
}

/// A notification komorebi writes to the bar's socket, for bars on
/// different monitors.
pub fn komorebi_notification(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for bar_monitor in [None, Some(0), Some(1), Some(7)] {
        if let Ok(state) = komorebi::read_notification(text, bar_monitor) {
            assert_consistent(&state);
        }
    }
}

/// What comes over an i3 or sway IPC socket: frames, a tree and outputs
/// among them, read as the client reads them.
pub fn i3_ipc(data: &[u8]) {
    let mut stream = data;
    let mut outputs = Vec::new();
    while let Ok((kind, payload)) = ipc::read_frame(&mut stream) {
        match kind {
            ipc::GET_OUTPUTS => outputs = serde_json::from_slice(&payload).unwrap_or_default(),
            ipc::GET_TREE => {
                let Ok(root) = serde_json::from_slice::<tree::Node>(&payload) else { continue };
                for monitor in [None, Some(0), Some(3)] {
                    let mut next_icon = 0;
                    let state = tree::fold(Kind::I3, &root, &outputs, monitor, None, &mut |_| {
                        next_icon += 1;
                        Some(next_icon)
                    });
                    assert_consistent(&state);
                }
            }
            _ => {}
        }
    }
}

/// Every index a state holds points into its list, or the list is empty.
fn assert_consistent(state: &State) {
    let within = |index: usize, length: usize| index < length || length == 0;
    assert!(state.bar_monitor.is_none_or(|index| index < state.monitors.len()), "bar monitor out of range");
    assert!(within(state.focused_monitor, state.monitors.len()), "focused monitor out of range");
    for monitor in &state.monitors {
        assert!(within(monitor.focused_workspace, monitor.workspaces.len()), "focused workspace out of range");
        for workspace in &monitor.workspaces {
            assert!(
                workspace.focused_container.is_none_or(|index| index < workspace.containers.len()),
                "focused container out of range"
            );
            assert!(
                workspace.focused_floating_window.is_none_or(|index| index < workspace.floating_windows.len()),
                "focused floating window out of range"
            );
            for container in workspace.containers.iter().chain(&workspace.monocle) {
                assert!(within(container.focused_window, container.windows.len()), "focused window out of range");
            }
        }
    }
}
