//! The system's fonts as fontique lists them (fontconfig, DirectWrite,
//! CoreText), listed once per process, for the first text that needs a font
//! the bar's own lack: a bar in the bar's font alone never lists them (the
//! listing costs tens of milliseconds and a few megabytes, most of them
//! fontconfig's). Every painter's text engine shares the one listing (a
//! fontique collection's system fonts are shared by its clones).

use fontique::{Collection, CollectionOptions};
use std::sync::{Once, OnceLock};

static LISTED: OnceLock<Collection> = OnceLock::new();

/// The system's fonts, when they have been listed.
pub fn listed() -> Option<Collection> {
    LISTED.get().cloned()
}

/// The system's fonts, listing them the first time (another thread asking
/// meanwhile waits for the same listing).
pub fn list() -> Collection {
    LISTED.get_or_init(list_now).clone()
}

/// Starts listing the system's fonts on a thread of its own, once; [`list`]
/// waits for that listing rather than making another.
pub fn list_in_background() {
    static STARTED: Once = Once::new();
    if LISTED.get().is_some() {
        return;
    }
    STARTED.call_once(|| {
        let spawned = std::thread::Builder::new().name("obi-fonts".into()).spawn(|| drop(list()));
        if let Err(error) = spawned {
            tracing::debug!("the system's fonts are listed when a text first needs them: {error}");
        }
    });
}

fn list_now() -> Collection {
    let started = std::time::Instant::now();
    // A listing that fails (a broken fontconfig) leaves the bar its own fonts.
    let listed = std::panic::catch_unwind(|| Collection::new(CollectionOptions { shared: false, system_fonts: true }))
        .unwrap_or_else(|_| {
            tracing::warn!("the system's fonts could not be listed: only the bar's own fonts are drawn");
            Collection::new(CollectionOptions { shared: false, system_fonts: false })
        });
    tracing::debug!("the system's fonts listed in {:.1?}", started.elapsed());
    listed
}
