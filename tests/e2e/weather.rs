//! The Weather widget in the bar, its Open-Meteo replaced by a local stand-in
//! through `OBI_OPEN_METEO_URL` (as a mirror would be): the stand-in is
//! asked for the configured place, and the bar shows its temperature.

use crate::ocr::words_on_bar;
use crate::support::{XSession, config_file, have_tools, run, wait_for, workspace};
use obi_test_support::web_server::WebServer;
use std::process::Stdio;
use std::time::Duration;

const BERLIN: &str = include_str!("../../plugins/weather/tests/berlin.json");

#[test]
fn the_bar_shows_the_temperature_from_the_open_meteo_it_is_pointed_at() {
    if !have_tools("weather test", &["Xvfb", "i3", "xwininfo", "import", "convert", "tesseract"]) {
        return;
    }
    let open_meteo = WebServer::serving(BERLIN);
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(
        r#"{ "height": 40, "font_size": 18, "right_widgets": [],
             "left_widgets": [ { "Weather": { "enable": true, "latitude": 52.52, "longitude": 13.41,
                                              "label_prefix": "IconAndText" } } ] }"#,
    );
    let env = [("OBI_OPEN_METEO_URL", std::ffi::OsStr::new(&open_meteo.url))];
    let (_bar, _window) = session.start_bar_with_env(&config, Stdio::null(), &env);
    let mut words = Vec::new();
    let shown = wait_for(Duration::from_secs(20), || {
        words = words_on_bar(&session, dir.path(), 400);
        words.iter().any(|(word, _)| word == "Weather:") && words.iter().any(|(word, _)| word.starts_with("3°"))
    });
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let kept = artifacts.join("weather-bar.png");
    run(std::process::Command::new("cp").arg(dir.path().join("bar.png")).arg(&kept));
    assert!(shown, "the bar reads {words:?} ({})", kept.display());
    let asked = open_meteo.requests();
    assert!(
        asked.iter().any(|request| request.starts_with("GET /v1/forecast?latitude=52.52&longitude=13.41")),
        "{asked:?}"
    );
}
