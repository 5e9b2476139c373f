//! The system's fonts as fontique lists them (fontconfig, DirectWrite,
//! CoreText), listed once per process: on a thread of its own once a bar
//! has shown its first frame (listing them costs tens of milliseconds of a
//! busy start), or by the first text that needs them. Every painter's text
//! engine shares the one listing (a fontique collection's system fonts are
//! shared by its clones).

use fontique::{Collection, CollectionOptions};
use std::sync::{Once, OnceLock};

static LISTED: OnceLock<Collection> = OnceLock::new();
static STARTED: Once = Once::new();

/// Starts listing the system's fonts, unless that has begun.
pub fn start() {
    STARTED.call_once(|| {
        let spawned = std::thread::Builder::new().name("obi-fonts".into()).spawn(|| {
            LISTED.get_or_init(list);
        });
        // Without a thread to spare, the listing is made when first needed.
        if let Err(error) = spawned {
            tracing::debug!("the system's fonts are listed when needed: {error}");
        }
    });
}

/// The system's fonts, when they have been listed.
pub fn listed() -> Option<Collection> {
    LISTED.get().cloned()
}

/// The system's fonts, waiting for them to be listed (or listing them).
pub fn wait() -> Collection {
    LISTED.get_or_init(list).clone()
}

fn list() -> Collection {
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
