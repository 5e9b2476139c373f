//! Watches files for saves: the config file, and the components of
//! third-party widgets. Editors and compilers save by writing in place or
//! by writing a new file and renaming it over the old one, so each file's
//! directory is watched and events are filtered by file name; a burst of
//! events from one save becomes one notification, sent once the burst is
//! quiet.

use anyhow::Context;
use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use std::collections::{BTreeSet, HashMap};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// How long a save's events must be quiet before the file is read.
const SETTLE: Duration = Duration::from_millis(100);

/// Stops watching when dropped.
pub struct FileWatcher {
    _watcher: RecommendedWatcher,
}

/// Calls `changed` (on a thread of its own) after each save of `path`.
pub fn watch(path: &Path, changed: impl Fn() + Send + 'static) -> anyhow::Result<FileWatcher> {
    watch_files(&[path.to_path_buf()], move |_| changed())
}

/// Calls `changed` with the path as given (on a thread of its own) after
/// each save of one of `paths`; files saved in one burst are each named once.
pub fn watch_files(paths: &[PathBuf], changed: impl Fn(&Path) + Send + 'static) -> anyhow::Result<FileWatcher> {
    // Events name a file by its directory as watched and its name.
    let mut watched: HashMap<(PathBuf, OsString), PathBuf> = HashMap::new();
    for path in paths {
        let canonical = path.canonicalize().with_context(|| format!("watching {}", path.display()))?;
        let directory = canonical.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let name = canonical.file_name().map(ToOwned::to_owned).unwrap_or_default();
        watched.insert((directory, name), path.clone());
    }
    let directories: BTreeSet<PathBuf> = watched.keys().map(|(directory, _)| directory.clone()).collect();
    let (sender, receiver) = mpsc::channel::<PathBuf>();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if event.kind.is_access() {
            return;
        }
        for touched in &event.paths {
            let (Some(directory), Some(name)) = (touched.parent(), touched.file_name()) else { continue };
            if let Some(path) = watched.get(&(directory.to_path_buf(), name.to_owned())) {
                let _ = sender.send(path.clone());
            }
        }
    })
    .context("watching files")?;
    for directory in &directories {
        watcher
            .watch(directory, RecursiveMode::NonRecursive)
            .with_context(|| format!("watching {}", directory.display()))?;
    }
    thread::Builder::new()
        .name("obi-file-watch".into())
        .spawn(move || {
            // Ends when the watcher, and with it the sender, is dropped.
            while let Ok(first) = receiver.recv() {
                let mut saved = BTreeSet::from([first]);
                while let Ok(more) = receiver.recv_timeout(SETTLE) {
                    saved.insert(more);
                }
                saved.iter().for_each(|path| changed(path));
            }
        })
        .context("starting the file watcher")?;
    Ok(FileWatcher { _watcher: watcher })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the watcher reports until it reports `sentinel`, which is
    /// written now: whatever it would wrongly report before has come by then,
    /// however slow it is.
    fn reported_before(sentinel: &Path, receiver: &mpsc::Receiver<PathBuf>) -> Vec<PathBuf> {
        std::fs::write(sentinel, "written last").unwrap();
        let mut reported = Vec::new();
        loop {
            let path = receiver.recv_timeout(Duration::from_secs(5)).expect("the sentinel is reported");
            if path == sentinel {
                return reported;
            }
            reported.push(path);
        }
    }

    #[test]
    fn a_save_is_noticed_once_and_other_files_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("komorebi.bar.json");
        let sentinel = dir.path().join("sentinel");
        std::fs::write(&config, "{}").unwrap();
        std::fs::write(&sentinel, "").unwrap();
        let (sender, receiver) = mpsc::channel();
        let paths = [config.clone(), sentinel.clone()];
        let _watcher = watch_files(&paths, move |path| sender.send(path.to_owned()).unwrap()).unwrap();

        std::fs::write(dir.path().join("other.json"), "{}").unwrap();
        assert_eq!(reported_before(&sentinel, &receiver), [] as [PathBuf; 0], "another file is not the config");

        // One write (several events: truncate, write, close) is one notification.
        std::fs::write(&config, "{ \"height\": 2 }").unwrap();
        assert_eq!(receiver.recv_timeout(Duration::from_secs(5)).expect("the save is noticed"), config);
        std::thread::sleep(SETTLE * 2);
        assert_eq!(reported_before(&sentinel, &receiver), [] as [PathBuf; 0], "one save, one notification");

        // Saved as many editors do: a new file renamed over the old one.
        let temporary = dir.path().join(".komorebi.bar.json.swp");
        std::fs::write(&temporary, "{ \"height\": 1 }").unwrap();
        std::fs::rename(&temporary, &config).unwrap();
        assert_eq!(receiver.recv_timeout(Duration::from_secs(5)).expect("the rename is noticed"), config);
    }

    #[test]
    fn the_plain_watch_calls_back_on_a_save() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("komorebi.bar.json");
        std::fs::write(&config, "{}").unwrap();
        let (sender, receiver) = mpsc::channel();
        let _watcher = watch(&config, move || sender.send(()).unwrap()).unwrap();
        std::fs::write(&config, "{ \"height\": 2 }").unwrap();
        receiver.recv_timeout(Duration::from_secs(5)).expect("the save is noticed");
    }

    #[test]
    fn each_of_several_files_is_named_as_given() {
        let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let a = one.path().join("a.wasm");
        let b = two.path().join("sub/../b.wasm");
        std::fs::create_dir(two.path().join("sub")).unwrap();
        std::fs::write(&a, "a").unwrap();
        std::fs::write(&b, "b").unwrap();
        let (sender, receiver) = mpsc::channel();
        let _watcher = watch_files(&[a.clone(), b.clone()], move |path| sender.send(path.to_owned()).unwrap()).unwrap();
        std::fs::write(&b, "b2").unwrap();
        assert_eq!(receiver.recv_timeout(Duration::from_secs(5)).unwrap(), b);
        std::fs::write(&a, "a2").unwrap();
        assert_eq!(receiver.recv_timeout(Duration::from_secs(5)).unwrap(), a);
    }
}
