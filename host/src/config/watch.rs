//! Watches the config file for changes. Editors save by writing in place or
//! by writing a new file and renaming it over the old one, so the directory
//! is watched and events are filtered by file name; a burst of events from
//! one save becomes one notification, sent once the burst is quiet.

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// How long a save's events must be quiet before the file is read.
const SETTLE: Duration = Duration::from_millis(100);

/// Stops watching when dropped.
pub struct ConfigWatcher {
    _watcher: RecommendedWatcher,
}

/// Calls `changed` (on a thread of its own) after each save of `path`.
pub fn watch(path: &Path, changed: impl Fn() + Send + 'static) -> Result<ConfigWatcher, String> {
    let path = path.canonicalize().map_err(|error| format!("watching {}: {error}", path.display()))?;
    let directory = path.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
    let name = path.file_name().map(ToOwned::to_owned);
    let (sender, receiver) = mpsc::channel::<()>();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let touches_config = event.is_ok_and(|event| {
            !event.kind.is_access() && event.paths.iter().any(|changed| changed.file_name() == name.as_deref())
        });
        if touches_config {
            let _ = sender.send(());
        }
    })
    .map_err(|error| format!("watching {}: {error}", directory.display()))?;
    watcher
        .watch(&directory, RecursiveMode::NonRecursive)
        .map_err(|error| format!("watching {}: {error}", directory.display()))?;
    thread::Builder::new()
        .name("obi-config-watch".into())
        .spawn(move || {
            // Ends when the watcher, and with it the sender, is dropped.
            while receiver.recv().is_ok() {
                while receiver.recv_timeout(SETTLE).is_ok() {}
                changed();
            }
        })
        .map_err(|error| format!("starting the config watcher: {error}"))?;
    Ok(ConfigWatcher { _watcher: watcher })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_is_noticed_once_and_other_files_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("komorebi.bar.json");
        std::fs::write(&config, "{}").unwrap();
        let (sender, receiver) = mpsc::channel();
        let _watcher = watch(&config, move || sender.send(()).unwrap()).unwrap();

        std::fs::write(dir.path().join("other.json"), "{}").unwrap();
        assert!(receiver.recv_timeout(SETTLE * 4).is_err(), "another file is not the config");

        // One write (several events: truncate, write, close) is one notification.
        std::fs::write(&config, "{ \"height\": 2 }").unwrap();
        receiver.recv_timeout(Duration::from_secs(5)).expect("the save is noticed");
        assert!(receiver.recv_timeout(SETTLE * 4).is_err(), "one save, one notification");

        // Saved as many editors do: a new file renamed over the old one.
        let temporary = dir.path().join(".komorebi.bar.json.swp");
        std::fs::write(&temporary, "{ \"height\": 1 }").unwrap();
        std::fs::rename(&temporary, &config).unwrap();
        receiver.recv_timeout(Duration::from_secs(5)).expect("the rename is noticed");
    }
}
