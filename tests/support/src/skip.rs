//! The one rule for tests that need something this machine may lack (an X
//! server, i3, `../shared`): say so loudly and skip, or fail when `CI` is
//! set, because CI installs everything.

/// Reports that a test cannot run here: panics under CI, else prints a
/// loud notice so the skip is seen.
pub fn unavailable(message: &str) {
    use std::io::Write;
    if std::env::var_os("CI").is_some() {
        panic!("{message}");
    }
    // Straight to stderr: the test harness captures `eprintln!` of passing
    // tests, which would hide the skip.
    let _ = writeln!(std::io::stderr().lock(), "\n*** SKIPPED {message} ***\n");
}
