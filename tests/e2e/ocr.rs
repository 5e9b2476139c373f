//! Reading the bar back with tesseract: its words, and where each one is,
//! for the clicks. The bar's strip is grabbed, negated (light text on the
//! dark bar reads better dark on light) and enlarged three times.

use crate::support::{XSession, run, wait_for, workspace};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The bar's height in the tests that read it.
pub const HEIGHT: u32 = 40;

/// The words on the top `width` × [`HEIGHT`] pixels of the screen, each
/// with the screen column of its middle.
pub fn words_on_bar(session: &XSession, dir: &Path, width: u32) -> Vec<(String, u32)> {
    words_on_bar_at(session, dir, 0, width)
}

/// The words on the `width` × [`HEIGHT`] pixels at the top of the screen
/// from column `x`, each with the column of its middle from there.
fn words_on_bar_at(session: &XSession, dir: &Path, x: u32, width: u32) -> Vec<(String, u32)> {
    let png = dir.join("bar.png");
    let grab = run(session
        .command("import")
        .args(["-window", "root", "-crop", &format!("{width}x{HEIGHT}+{x}+0"), "+repage"])
        .arg(format!("PNG32:{}", png.display())));
    assert!(grab.status.success(), "import: {}", String::from_utf8_lossy(&grab.stderr));
    words_in(&png)
}

/// The words on the one line of text in `png`, each with the column of its
/// middle.
pub fn words_in(png: &Path) -> Vec<(String, u32)> {
    let large = png.with_extension("large.png");
    let convert = run(Command::new("convert").arg(png).args(["-negate", "-resize", "300%"]).arg(&large));
    assert!(convert.status.success(), "convert: {}", String::from_utf8_lossy(&convert.stderr));
    let ocr = run(Command::new("tesseract").arg(&large).args(["stdout", "--psm", "7", "tsv"]));
    assert!(ocr.status.success(), "tesseract: {}", String::from_utf8_lossy(&ocr.stderr));
    String::from_utf8_lossy(&ocr.stdout)
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let (left, width, text) =
                (fields.get(6)?.parse::<u32>().ok()?, fields.get(8)?.parse::<u32>().ok()?, fields.get(11)?);
            let text = text.trim();
            (!text.is_empty()).then(|| (text.to_owned(), (left + width / 2) / 3))
        })
        .collect()
}

/// Waits until the bar shows every one of `names`; gives where each word
/// is. When it never does, the last grab is kept as
/// `target/e2e-artifacts/{artifact}.png`.
pub fn wait_for_words(
    session: &XSession,
    dir: &Path,
    width: u32,
    names: &[&str],
    artifact: &str,
) -> Vec<(String, u32)> {
    wait_for_words_at(session, dir, 0, width, names, artifact)
}

/// [`wait_for_words`] on the `width` pixels of the top of the screen from
/// column `x` (a bar on another monitor).
pub fn wait_for_words_at(
    session: &XSession,
    dir: &Path,
    x: u32,
    width: u32,
    names: &[&str],
    artifact: &str,
) -> Vec<(String, u32)> {
    let mut words = Vec::new();
    let shown = wait_for(Duration::from_secs(20), || {
        words = words_on_bar_at(session, dir, x, width);
        names.iter().all(|name| words.iter().any(|(word, _)| word == name))
    });
    if !shown {
        let artifacts = workspace().join("target/e2e-artifacts");
        std::fs::create_dir_all(&artifacts).unwrap();
        let _ = std::fs::copy(dir.join("bar.png"), artifacts.join(format!("{artifact}.png")));
    }
    assert!(shown, "the bar shows {names:?}; it reads {words:?} (target/e2e-artifacts/{artifact}.png)");
    words
}

/// Where `word` is on the bar, as last read.
pub fn column_of(words: &[(String, u32)], word: &str) -> u32 {
    words.iter().find(|(read, _)| read == word).map(|(_, x)| *x).unwrap_or_else(|| panic!("no {word:?} in {words:?}"))
}
