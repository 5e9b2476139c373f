//! The cover of what plays: the player's `mpris:artUrl`, a file or an
//! http(s) address, read off the widgets' thread (at most 8 MiB), decoded
//! (PNG or JPEG), shrunk to [`COVER_PIXELS`] a side and held for the
//! painter. One cover at a time: another address replaces it, its image
//! released, and the widgets that read it are woken when it has come.

use crate::capabilities::web::SystemWeb;
use crate::sync::lock;
use crate::view::Pixels;
use crate::view::images::{self, HeldImages, IMAGE_FILE_BYTES};
use crate::wake::{Subscribers, Waker};
use std::sync::{Arc, Mutex};

/// The longest side of a cover as held: sharp in a popup at twice the scale.
pub const COVER_PIXELS: u32 = 128;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cover {
    Coming,
    Held(u64),
    /// It cannot be had (logged once).
    Missing,
}

#[derive(Default)]
struct Current {
    url: Option<String>,
    cover: Option<Cover>,
}

#[derive(Clone)]
pub struct Covers {
    held: HeldImages,
    current: Arc<Mutex<Current>>,
    readers: Arc<Subscribers>,
    web: Arc<SystemWeb>,
}

impl Covers {
    /// Covers held in `held`.
    pub fn new(held: HeldImages) -> Covers {
        Covers { held, current: Arc::default(), readers: Arc::default(), web: Arc::new(SystemWeb::new()) }
    }

    /// The held cover at `url`, once it has come; `waker`'s widget is
    /// woken when it does. The first reading of an address fetches it.
    pub fn at(&self, url: Option<&str>, waker: &Waker) -> Option<u64> {
        self.readers.subscribe(waker);
        let mut current = lock(&self.current);
        if current.url.as_deref() != url {
            if let Some(Cover::Held(handle)) = current.cover {
                self.held.release(handle);
            }
            *current = Current { url: url.map(str::to_owned), cover: url.map(|_| Cover::Coming) };
            if let Some(url) = url {
                self.fetch(url.to_owned());
            }
        }
        match current.cover {
            Some(Cover::Held(handle)) => Some(handle),
            _ => None,
        }
    }

    fn fetch(&self, url: String) {
        let covers = self.clone();
        let spawned = std::thread::Builder::new().name("obi-cover".into()).spawn(move || {
            let read = read_cover(&covers.web, &url);
            let mut current = lock(&covers.current);
            // Another track's cover was asked for meanwhile.
            if current.url.as_deref() != Some(url.as_str()) {
                return;
            }
            current.cover = Some(match read {
                Ok(pixels) => Cover::Held(covers.held.hold(pixels)),
                Err(error) => {
                    tracing::info!("media: no cover from {url}: {error:#}");
                    Cover::Missing
                }
            });
            drop(current);
            covers.readers.wake_all();
        });
        if let Err(error) = spawned {
            tracing::warn!("media: no thread to fetch a cover: {error}");
        }
    }
}

/// The cover at `url`, shrunk.
fn read_cover(web: &SystemWeb, url: &str) -> anyhow::Result<Pixels> {
    let bytes = match url.split_once("://") {
        Some(("file", path)) => crate::files::read_regular(&crate::files::path_of_file_url(path)?, IMAGE_FILE_BYTES)?,
        Some(("http" | "https", _)) => match web.get_bytes(url, IMAGE_FILE_BYTES).map_err(anyhow::Error::msg)? {
            (200..=299, body) => body,
            (status, _) => anyhow::bail!("the server answered {status}"),
        },
        _ => anyhow::bail!("only file, http and https addresses are read"),
    };
    Ok(images::shrink(images::decode_image_bytes(bytes)?, COVER_PIXELS))
}
