//! # Update
//!
//! Shows, selected, the newest Obi release when it is newer than the one
//! running; a click opens its release page. Up to date, offline, or while
//! a check is under way, it shows nothing.
//!
//! | key                     | values                                           | default |
//! |-------------------------|--------------------------------------------------|---------|
//! | `enable`                | `true` / `false`                                 | required |
//! | `data_refresh_interval` | hours between two checks                         | `12`    |
//! | `label_prefix`          | `None`, `Icon`, `Text`, `IconAndText`            | `IconAndText` |
//! | `release_feed`          | the URL listing the releases (Obi extension)     | none    |
//!
//! The feed has the shape of GitHub's releases API: one release or a list
//! of them, each with `tag_name` (`v1.2.0`), `html_url`, and the `draft` and
//! `prerelease` flags (such releases are passed over), for example
//! `https://api.github.com/repos/OWNER/REPO/releases`. Obi has no public
//! release feed yet, so there is no default: without `release_feed` the
//! widget says so once in the log and shows nothing. A check that fails
//! (offline) is tried again within the hour; `obi msg refresh Update`
//! checks at once.
//!
//! ```json
//! { "Update": { "enable": true, "release_feed": "https://api.github.com/repos/OWNER/obi/releases" } }
//! ```

use obi_sdk::config::UpdateConfig as Config;
use obi_sdk::log::{self, Level};
use obi_sdk::web::{self, FetchState, Response};
use obi_sdk::{Input, Inputs, LabelPrefix, Piece, Schedule, View, Widget, clock, icons, item};
use semver::Version;

#[derive(Debug, Clone, PartialEq)]
struct Release {
    version: Version,
    page: Option<String>,
}

pub struct Update {
    feed: Option<String>,
    label_prefix: LabelPrefix,
    running: Version,
    every_secs: i64,
    /// When the next check is due, in seconds since the epoch; now at start.
    next_check: i64,
    checking: bool,
    newer: Option<Release>,
}

/// A failed check (offline) is tried again this soon, and the widget is
/// refreshed this often to see whether a check is due (checks are hours apart).
const RETRY_SECS: i64 = 3600;

/// The newest release in `feed` that is newer than `running`.
fn newer_release(feed: &str, running: &Version) -> Result<Option<Release>, String> {
    let feed: serde_json::Value = serde_json::from_str(feed).map_err(|error| format!("not JSON: {error}"))?;
    let releases = match feed {
        serde_json::Value::Array(releases) => releases,
        release @ serde_json::Value::Object(_) => vec![release],
        _ => return Err("neither a release nor a list of releases".into()),
    };
    let newest = releases
        .iter()
        .filter(|release| !flag(release, "draft") && !flag(release, "prerelease"))
        .filter_map(|release| {
            let tag = release.get("tag_name")?.as_str()?;
            let version = Version::parse(tag.trim_start_matches(['v', 'V'])).ok()?;
            let page = release.get("html_url").and_then(|url| url.as_str()).map(str::to_owned);
            Some(Release { version, page })
        })
        .max_by(|a, b| a.version.cmp(&b.version));
    Ok(newest.filter(|release| release.version > *running))
}

fn flag(release: &serde_json::Value, name: &str) -> bool {
    release.get(name).and_then(|value| value.as_bool()).unwrap_or(false)
}

impl Update {
    fn check(&mut self, feed: &str, now: i64) {
        let check_again_in = match web::fetch(feed) {
            FetchState::Pending => {
                self.checking = true;
                return;
            }
            FetchState::Done(Response { status: 200..=299, body, .. }) => match newer_release(&body, &self.running) {
                Ok(newer) => {
                    self.newer = newer;
                    self.every_secs
                }
                Err(error) => {
                    log::log(Level::Warn, &format!("the release feed {feed} is {error}"));
                    self.every_secs
                }
            },
            FetchState::Done(Response { status, .. }) => {
                log::log(Level::Warn, &format!("the release feed {feed} answered {status}"));
                self.every_secs
            }
            FetchState::Failed(error) => {
                // Offline is an ordinary state: the last answer stands.
                log::log(Level::Debug, &format!("cannot reach the release feed {feed}: {error}"));
                RETRY_SECS
            }
        };
        self.checking = false;
        self.next_check = now + check_again_in;
    }
}

impl Widget for Update {
    type Config = Config;

    fn new(config: Config) -> Result<(Self, Schedule), String> {
        if config.release_feed.is_none() {
            log::log(Level::Info, "no release_feed is set: Obi has no public release feed yet, so nothing is checked");
        }
        // komorebi-bar reads 0 as "all the time"; a release feed is asked once an hour at most.
        let every_secs = config.data_refresh_interval.unwrap_or(12).max(1) as i64 * 3600;
        let update = Update {
            feed: config.release_feed,
            label_prefix: config.label_prefix.unwrap_or(LabelPrefix::IconAndText),
            running: Version::parse(env!("CARGO_PKG_VERSION")).expect("the crate's version is semver"),
            every_secs,
            next_check: i64::MIN,
            checking: false,
            newer: None,
        };
        Ok((update, Schedule::every_secs(RETRY_SECS as u64)))
    }

    fn refresh(&mut self) -> View {
        let now = clock::now().seconds;
        if let Some(feed) = self.feed.clone()
            && (self.checking || now >= self.next_check)
        {
            self.check(&feed, now);
        }
        let Some(newer) = &self.newer else { return View::empty() };
        let version = format!("v{}", newer.version);
        View::of([item("update")
            .takes(Inputs::PRIMARY_CLICK)
            .maybe(self.label_prefix.shows_icon().then(|| Piece::Icon(icons::UPDATE.into())))
            .text(self.label_prefix.label("UPDATE", &version))
            .selected(true)
            .tooltip(format!("Obi {} is out (this is {}): click for its release page", newer.version, self.running))])
    }

    fn on_input(&mut self, _key: &str, input: Input) {
        let Some(page) = self.newer.as_ref().and_then(|newer| newer.page.as_deref()) else { return };
        if input == Input::PrimaryClick
            && let Err(error) = web::open(page)
        {
            log::log(Level::Error, &format!("cannot open {page}: {error}"));
        }
    }

    fn on_refresh_requested(&mut self) {
        self.next_check = i64::MIN;
    }
}

obi_sdk::export!(Update);

#[cfg(test)]
mod tests {
    use super::*;

    fn running() -> Version {
        Version::new(0, 5, 0)
    }

    #[test]
    fn the_newest_stable_release_above_the_running_one() {
        let feed = r#"[
            { "tag_name": "v0.7.0-rc.1", "prerelease": true, "html_url": "https://x/0.7.0-rc.1" },
            { "tag_name": "v0.6.1", "html_url": "https://x/0.6.1" },
            { "tag_name": "v0.9.0", "draft": true },
            { "tag_name": "nightly" },
            { "tag_name": "0.6.0", "html_url": "https://x/0.6.0" }
        ]"#;
        let newer = newer_release(feed, &running()).unwrap().unwrap();
        assert_eq!(newer, Release { version: Version::new(0, 6, 1), page: Some("https://x/0.6.1".into()) });
    }

    #[test]
    fn one_release_up_to_date_or_not() {
        assert!(newer_release(r#"{ "tag_name": "v0.5.0" }"#, &running()).unwrap().is_none());
        assert!(newer_release(r#"{ "tag_name": "v0.4.9" }"#, &running()).unwrap().is_none());
        assert!(newer_release(r#"{ "tag_name": "v1.0.0" }"#, &running()).unwrap().is_some());
        assert!(newer_release("<html>", &running()).unwrap_err().contains("not JSON"));
        assert!(newer_release("3", &running()).is_err());
    }
}
