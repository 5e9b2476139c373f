//! A release feed for the Update widget on a local port, announcing a
//! version above any Obi's to every request.

use crate::web_server::WebServer;

/// The feed's URL.
pub fn newer_release_feed() -> String {
    let body = r#"{ "tag_name": "v999.0.0", "html_url": "https://example.org/obi/v999.0.0" }"#;
    format!("{}/releases", WebServer::serving(body).url)
}
