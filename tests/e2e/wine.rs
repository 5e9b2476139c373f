//! `obi.exe`, the bar built for Windows (`x86_64-pc-windows-gnu`, warnings
//! denied), run under Wine on Xvfb, as komorebi's users run it: it finds
//! its config where komorebi-bar does, maps its window through WGL, shows
//! the clock and the keyboard's input language, reloads a saved config,
//! and answers `obi msg` over its named pipe; a see-through bar shows what
//! lies behind it, its tray stays in front of another taskbar, the date's
//! calendar opens as a popup that a click elsewhere closes, and its idle
//! inhibitor asks Windows to keep the display on.
//!
//! Wine runs a desktop of its own (`explorer /desktop`), as Windows has
//! one: windows are Wine's to place, not an X window manager's. Wine 8
//! lacks `bcryptprimitives.dll`, from which Rust's standard library takes
//! its random bytes; `wine/bcryptprimitives.c`, built here with MinGW into
//! the folder the bar runs from, stands in for it (a test fixture, never
//! shipped: Windows has its own).

use crate::ocr::words_in;
use crate::popup::popup_text;
use crate::support::{Frame, Reaped, have_tools, run, same_colour, start_server, text_ink, wait_for, workspace};
use chrono::Datelike;
use obi_test_support::cross::{MINGW, WINDOWS, build_windows_probe, cargo_obi_for};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

const TOOLS: &[&str] = &["Xvfb", "wine", "wineserver", MINGW, "xwininfo", "xdotool", "import", "convert", "tesseract"];
const SCREEN: (u32, u32) = (1280, 720);
/// Wine's desktop the bar runs on, as big as the screen.
const DESKTOP: &str = "/desktop=obi,1280x720";
const WS_EX_TOPMOST: u32 = 0x8;
const WS_EX_TOOLWINDOW: u32 = 0x80;
const WS_EX_APPWINDOW: u32 = 0x4_0000;
const WS_EX_NOACTIVATE: u32 = 0x800_0000;
const WS_CAPTION: u32 = 0x00C0_0000;
/// The title of a widget's popup's window.
const POPUP: &str = "obi popup";
const TOOLTIP: &str = "obi tooltip";

/// The bar with Notepad's button (its icon its program's) and the
/// keyboard's language on the left, what plays in the middle and the clock
/// on the right.
const CONFIG: &str = r#"{ "height": 40, "font_size": 18, "transparency_alpha": 255,
    "left_widgets": [
        { "Applications": { "enable": true, "items": [ { "name": "Notepad", "command": "notepad.exe" } ] } },
        { "Keyboard": { "enable": true, "label_prefix": "Text" } } ],
    "center_widgets": [ { "Media": { "enable": true } } ],
    "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ] }"#;

/// Whether Wine sees the host's fonts beside the prefix's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HostFonts {
    Seen,
    Unseen,
}

/// A word the bar should show, by name, and the test that finds it.
type WordTest<'a> = (&'a str, fn(&str) -> bool);

/// A Wine prefix of its own on an Xvfb of its own, ready to run `obi.exe`.
struct WineDesktop {
    display: String,
    _server: Reaped,
    prefix: tempfile::TempDir,
    /// The folder the bar runs from, with the stand-in DLL.
    folder: tempfile::TempDir,
    /// Held until the prefix is gone: a prefix is 700 MB of disk, and CI's
    /// disk is not large.
    _turn: MutexGuard<'static, ()>,
    /// A fontconfig file that names no fonts, for a Wine that sees only the
    /// prefix's (Wine finds the host's through fontconfig otherwise).
    no_host_fonts: Option<PathBuf>,
}

impl WineDesktop {
    /// None (after saying why) when this machine cannot run the test.
    fn start(test: &str) -> Option<WineDesktop> {
        WineDesktop::start_with(test, HostFonts::Seen)
    }

    /// [`WineDesktop::start`], with the host's fonts seen by Wine or not.
    fn start_with(test: &str, host_fonts: HostFonts) -> Option<WineDesktop> {
        if !have_tools(test, TOOLS) {
            return None;
        }
        if !obi_test_support::rust_target_installed(WINDOWS) {
            obi_test_support::skip::unavailable(&format!(
                "{test}: needs the Rust target {WINDOWS} (rustup target add)"
            ));
            return None;
        }
        let exe = obi_exe();
        static ONE_PREFIX_AT_A_TIME: Mutex<()> = Mutex::new(());
        let turn = ONE_PREFIX_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let folder = tempfile::tempdir().unwrap();
        let fixture = workspace().join("tests/e2e/wine");
        let shim = run(Command::new(MINGW)
            .args(["-shared", "-O2", "-o"])
            .arg(folder.path().join("bcryptprimitives.dll"))
            .arg(fixture.join("bcryptprimitives.c"))
            .arg(fixture.join("bcryptprimitives.def"))
            .arg("-ladvapi32"));
        assert!(shim.status.success(), "building the stand-in DLL: {}", String::from_utf8_lossy(&shim.stderr));
        place(exe, &folder.path().join("obi.exe"));
        place(probe_exe(), &folder.path().join("probe.exe"));
        let (server, display) = start_server(|display| {
            let mut xvfb = Command::new("Xvfb");
            let screen = format!("{}x{}x24", SCREEN.0, SCREEN.1);
            xvfb.args([display, "-screen", "0", &screen, "-nolisten", "tcp", "-noreset"]);
            xvfb
        });
        let no_host_fonts = (host_fonts == HostFonts::Unseen).then(|| {
            let config = folder.path().join("no-fonts.conf");
            std::fs::write(&config, "<?xml version=\"1.0\"?>\n<fontconfig></fontconfig>\n").unwrap();
            config
        });
        let prefix = tempfile::tempdir().unwrap();
        let mut desktop = WineDesktop { display, _server: server, prefix, folder, _turn: turn, no_host_fonts };
        let mut booted = run(desktop.wine("wineboot").arg("--init"));
        if !booted.status.success() {
            // Making a prefix fails now and then on a loaded machine (once in
            // a CI run: "could not load kernel32.dll"); that is Wine's, not
            // the bar's, so it is tried once more, in a new prefix.
            eprintln!("wineboot failed, trying a new prefix: {}", String::from_utf8_lossy(&booted.stderr));
            desktop.end_wine();
            desktop.prefix = tempfile::tempdir().unwrap();
            booted = run(desktop.wine("wineboot").arg("--init"));
        }
        assert!(booted.status.success(), "wineboot: {}", String::from_utf8_lossy(&booted.stderr));
        // A new prefix has no fonts; a Windows machine has its own.
        let fonts = desktop.prefix.path().join("drive_c/windows/Fonts");
        std::fs::create_dir_all(&fonts).unwrap();
        for font in ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"] {
            std::fs::copy(Path::new("/usr/share/fonts/truetype/dejavu").join(font), fonts.join(font))
                .unwrap_or_else(|error| panic!("copying {font} into Wine (fonts-dejavu-core): {error}"));
        }
        Some(desktop)
    }

    /// `program` (a Windows program, or Wine's own) run by Wine in this prefix.
    fn wine(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new("wine");
        command
            .arg(program)
            .current_dir(self.folder.path())
            .env("WINEPREFIX", self.prefix.path())
            .env("WINEDEBUG", "-all")
            // No offers to install Mono or Gecko.
            .env("WINEDLLOVERRIDES", "mscoree,mshtml=")
            .env("DISPLAY", &self.display)
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("DBUS_SESSION_BUS_ADDRESS")
            .env_remove("KOMOREBI_CONFIG_HOME");
        if let Some(config) = &self.no_host_fonts {
            command.env("FONTCONFIG_FILE", config);
        }
        command
    }

    /// `program` (one in the bar's folder) on Wine's desktop, where the bar
    /// runs: Windows programs see the desktop they run on.
    fn on_desktop(&self, program: &str) -> Command {
        let mut command = self.wine("explorer");
        command.args([DESKTOP, program]);
        command
    }

    /// `obi.exe` with `args`, run to its end.
    fn obi(&self, args: &[&str]) -> std::process::Output {
        run(self.wine("obi.exe").args(args))
    }

    /// The bar, on Wine's desktop, with `KOMOREBI_CONFIG_HOME` at `config_home`.
    fn start_bar(&self, config_home: &Path, log: &Path) -> Reaped {
        Self::spawn_bar(self.on_desktop("obi.exe"), config_home, log)
    }

    /// The bar as a window of the X server's own, not on Wine's desktop
    /// (inside which nothing composes see-through windows).
    fn start_bar_on_x(&self, config_home: &Path, log: &Path) -> Reaped {
        Self::spawn_bar(self.wine("obi.exe"), config_home, log)
    }

    fn spawn_bar(mut command: Command, config_home: &Path, log: &Path) -> Reaped {
        let bar = command
            .env("KOMOREBI_CONFIG_HOME", windows_path(config_home))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .expect("starting Wine");
        Reaped(bar)
    }

    /// What `obi-windows-probe <question>` says, run on the bar's desktop:
    /// a rectangle, left, top, right, bottom.
    fn probe(&self, question: &str) -> [i32; 4] {
        let probed = run(self.on_desktop("probe.exe").arg(question));
        let said = String::from_utf8_lossy(&probed.stdout);
        let sides: Vec<i32> = said.split_whitespace().filter_map(|side| side.parse().ok()).collect();
        sides.try_into().unwrap_or_else(|_| panic!("the probe said {said:?}: {probed:?}"))
    }

    /// The bar's window's styles and extended styles, as Windows has them.
    fn bar_styles(&self) -> (u32, u32) {
        self.styles("obi")
    }

    /// The styles and extended styles of the window titled `title`.
    fn styles(&self, title: &str) -> (u32, u32) {
        let styles = run(self.on_desktop("probe.exe").args(["styles", title]));
        let said = String::from_utf8_lossy(&styles.stdout);
        let words: Vec<u32> = said.split_whitespace().filter_map(|word| u32::from_str_radix(word, 16).ok()).collect();
        let [style, extended] = words[..] else { panic!("the probe said {said:?}: {styles:?}") };
        (style, extended)
    }

    /// The window titled `title` if it is shown: left, top, right, bottom,
    /// and whether it has the focus.
    fn shown(&self, title: &str) -> Option<([i32; 4], bool)> {
        let probed = run(self.on_desktop("probe.exe").args(["shown", title]));
        let said = String::from_utf8_lossy(&probed.stdout);
        let words: Vec<&str> = said.split_whitespace().collect();
        let sides: Vec<i32> = words.iter().filter_map(|word| word.parse().ok()).collect();
        Some((sides.try_into().ok()?, words.last() == Some(&"focused")))
    }

    /// Runs `xdotool` on the desktop's display with `args`.
    fn xdotool(&self, args: &[&str]) {
        let done = run(Command::new("xdotool").args(args).env("DISPLAY", &self.display));
        assert!(done.status.success(), "xdotool {args:?}: {done:?}");
    }

    /// `obi-windows-probe notify-icon` on the bar's desktop: a program with
    /// a red notification icon, saying what happens to it in `said`.
    fn notify_icon(&self, said: &Path) -> Reaped {
        let probe = self
            .on_desktop("probe.exe")
            .arg("notify-icon")
            .stdout(std::fs::File::create(said).unwrap())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting the probe");
        Reaped(probe)
    }

    /// `obi-windows-probe taskbar` on the bar's desktop: a top-most
    /// `Shell_TrayWnd` made after the bar's, as Explorer's is when it starts
    /// again (`announced`: it says so with `TaskbarCreated`, as Explorer
    /// does), saying in `said` what it is sent. Back once it is there.
    fn stand_in_taskbar(&self, said: &Path, announced: bool) -> Reaped {
        let mut command = self.on_desktop("probe.exe");
        command.arg("taskbar").args((!announced).then_some("quiet"));
        let taskbar = command
            .stdout(std::fs::File::create(said).unwrap())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting the probe");
        assert!(
            wait_for(Duration::from_secs(20), || read(said).contains("ready")),
            "the stand-in taskbar: {:?}",
            read(said)
        );
        Reaped(taskbar)
    }

    /// Where on the bar's strip the red icon is: its middle, if it shows.
    fn red_icon(&self) -> Option<(u32, u32)> {
        let frame = self.grab().rows(0, 40);
        let red: Vec<(u32, u32)> = (0..40)
            .flat_map(|y| (0..frame.width).map(move |x| (x, y)))
            .filter(|&(x, y)| same_colour(frame.pixel(x, y), [255, 0, 0, 255]))
            .collect();
        let count = red.len() as u32;
        (count >= 100)
            .then(|| (red.iter().map(|(x, _)| x).sum::<u32>() / count, red.iter().map(|(_, y)| y).sum::<u32>() / count))
    }

    /// The screen as it is now.
    fn grab(&self) -> Frame {
        let grab = run(Command::new("import").args(["-window", "root", "png:-"]).env("DISPLAY", &self.display));
        assert!(grab.status.success(), "import: {}", String::from_utf8_lossy(&grab.stderr));
        Frame::decode(&grab.stdout)
    }

    /// The screen's rectangle `[left, top, right, bottom]`, as the PNG file `png`.
    fn grab_rect(&self, [left, top, right, bottom]: [i32; 4], png: &Path) {
        let crop = format!("{}x{}+{left}+{top}", right - left, bottom - top);
        let grab = run(Command::new("import")
            .args(["-window", "root", "-crop", &crop, "+repage"])
            .arg(png)
            .env("DISPLAY", &self.display));
        assert!(grab.status.success(), "import: {}", String::from_utf8_lossy(&grab.stderr));
    }

    /// The bar's strip at the top of the screen, as a PNG file in `dir`.
    fn grab_bar(&self, dir: &Path) -> PathBuf {
        let png = dir.join("bar.png");
        let grab = run(Command::new("import")
            .args(["-window", "root", "-crop", &format!("{}x40+0+0", SCREEN.0), "+repage"])
            .arg(format!("PNG32:{}", png.display()))
            .env("DISPLAY", &self.display));
        assert!(grab.status.success(), "import: {}", String::from_utf8_lossy(&grab.stderr));
        png
    }

    /// The words on the bar's strip at the top of the screen.
    fn words_on_bar(&self, dir: &Path) -> Vec<String> {
        words_in(&self.grab_bar(dir)).into_iter().map(|(word, _)| word).collect()
    }

    /// Waits until the bar shows every one of `wanted` (each a test on one
    /// word); the words it shows then.
    fn wait_for_words(&self, dir: &Path, wanted: &[WordTest], log: &Path) -> Vec<String> {
        let mut words = Vec::new();
        let shown = wait_for(Duration::from_secs(60), || {
            words = self.words_on_bar(dir);
            wanted.iter().all(|(_, test)| words.iter().any(|word| test(word)))
        });
        let names: Vec<&str> = wanted.iter().map(|(name, _)| *name).collect();
        assert!(shown, "the bar shows {names:?}; it reads {words:?}; its log:\n{}", read(log));
        words
    }
}

impl WineDesktop {
    /// Ends every Windows process of the prefix, the bar among them.
    fn end_wine(&self) {
        let _ = Command::new("wineserver").arg("-k").env("WINEPREFIX", self.prefix.path()).status();
    }
}

impl Drop for WineDesktop {
    fn drop(&mut self) {
        self.end_wine();
    }
}

/// `obi.exe`, built once per test run, as the workspace has it now (the
/// compile test for Windows builds the same).
fn obi_exe() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let built = cargo_obi_for("build", WINDOWS, MINGW);
        assert!(built.status.success(), "building obi.exe:\n{}", String::from_utf8_lossy(&built.stderr));
        // This test runs from <target>/debug/deps.
        let test = std::env::current_exe().expect("the test's own path");
        let target = test.ancestors().nth(3).expect("the test runs from <target>/<profile>/deps");
        target.join(WINDOWS).join("debug/obi.exe")
    })
}

/// `obi-windows-probe.exe`, built once per test run.
fn probe_exe() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let built = build_windows_probe();
        assert!(built.status.success(), "building the probe:\n{}", String::from_utf8_lossy(&built.stderr));
        obi_exe().with_file_name("obi-windows-probe.exe")
    })
}

/// `program` at `to`: a link where the file system allows one (the debug
/// `obi.exe` is 130 MB), a copy where not.
fn place(program: &Path, to: &Path) {
    if std::fs::hard_link(program, to).is_err() {
        std::fs::copy(program, to)
            .unwrap_or_else(|error| panic!("copying {} to {}: {error}", program.display(), to.display()));
    }
}

/// `path` as Wine's Windows programs see it: the Unix root is drive Z.
fn windows_path(path: &Path) -> String {
    format!("Z:{}", path.display()).replace('/', "\\")
}

fn read(log: &Path) -> String {
    std::fs::read_to_string(log).unwrap_or_default()
}

fn clock(word: &str) -> bool {
    word.len() == 8 && word.as_bytes()[2] == b':' && word.as_bytes()[5] == b':'
}

#[test]
fn the_windows_bar_runs_under_wine_and_answers_obi_msg() {
    let Some(wine) = WineDesktop::start("Windows bar under Wine") else { return };
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("komorebi.bar.json");
    std::fs::write(&config, CONFIG).unwrap();
    let log = home.path().join("bar.log");
    let _bar = wine.start_bar(home.path(), &log);

    // komorebi-bar's config, found in %KOMOREBI_CONFIG_HOME%; the clock and
    // the input language Wine reports (Xvfb's keyboard is a US one).
    wine.wait_for_words(home.path(), &[("the clock", clock), ("English", |word| word == "English")], &log);
    let said = read(&log);
    assert!(said.contains("as komorebi-bar would") && said.contains("(WGL)"), "{said}");
    // A tool window (no taskbar button on Windows, no tile for komorebi),
    // on top of the others, never taking the focus, with no caption; not an
    // app window.
    let (style, extended) = wine.bar_styles();
    assert_eq!(style & WS_CAPTION, 0, "styles {style:08x}");
    assert_eq!(
        extended & (WS_EX_TOPMOST | WS_EX_TOOLWINDOW | WS_EX_NOACTIVATE | WS_EX_APPWINDOW),
        WS_EX_TOPMOST | WS_EX_TOOLWINDOW | WS_EX_NOACTIVATE,
        "extended styles {extended:08x}"
    );
    // A program going full screen (Windows tells the AppBars) has the bar
    // step behind it; once the program leaves full screen, it is on top again.
    let tell = |full: &str| {
        let told = run(wine.on_desktop("probe.exe").args(["full-screen", "obi", full]));
        assert!(told.status.success(), "{told:?}");
    };
    let on_top = || wine.bar_styles().1 & WS_EX_TOPMOST != 0;
    tell("1");
    assert!(wait_for(Duration::from_secs(10), || !on_top()), "the bar stays on top of a full-screen program");
    tell("0");
    assert!(wait_for(Duration::from_secs(10), on_top), "the bar is not on top again after full screen");

    // Notepad's button shows Notepad's own icon, in colour, not the glyph
    // (one colour, the text's) an item without an icon has elsewhere.
    let strip = wine.grab().rows(0, 40);
    let coloured = (0..40)
        .flat_map(|y| (0..60).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let [red, green, blue, _] = strip.pixel(x, y);
            red.max(green).max(blue) - red.min(green).min(blue) > 100
        })
        .count();
    assert!(coloured > 20, "Notepad's button has {coloured} coloured pixels: not its icon\n{said}");
    // Wine has no media session: the Media widget shows nothing, and says so once.
    assert!(said.matches("no media players are shown").count() <= 1, "{said}");

    // Without komorebi to keep it, the bar keeps its space as an AppBar:
    // another AppBar at the top of the screen is given what is below it.
    // (Wine keeps AppBars from each other, not from the work area.)
    let (width, third) = (SCREEN.0 as i32, SCREEN.1 as i32 / 3);
    assert_eq!(wine.probe("top-appbar-space"), [0, 40, width, third], "{}", read(&log));

    // A saved config is read again: the Date widget joins the bar.
    let with_date = CONFIG.replace(
        r#""right_widgets": ["#,
        r#""right_widgets": [ { "Date": { "enable": true, "format": { "Custom": "Day%j" } } },"#,
    );
    std::fs::write(&config, with_date).unwrap();
    wine.wait_for_words(home.path(), &[("the date", |word| word.starts_with("Day")), ("the clock", clock)], &log);

    // With a `work_area_offset`, komorebi keeps the bar's space: the bar is
    // no AppBar then.
    let offset =
        r#""monitor": { "index": 0, "work_area_offset": { "left": 0, "top": 40, "right": 0, "bottom": 40 } },"#;
    std::fs::write(&config, CONFIG.replacen('{', &format!("{{ {offset}"), 1)).unwrap();
    assert!(
        wait_for(Duration::from_secs(10), || wine.probe("top-appbar-space")[1] == 0),
        "the bar still keeps its space as an AppBar: {:?}\n{}",
        wine.probe("top-appbar-space"),
        read(&log)
    );

    // `obi msg` reaches the bar over its named pipe, and it obeys.
    let hidden = wine.obi(&["msg", "hide"]);
    let answer = String::from_utf8_lossy(&hidden.stdout);
    assert!(hidden.status.success() && answer.trim_end().ends_with(": ok"), "{hidden:?}");
    assert!(
        wait_for(Duration::from_secs(10), || !wine.words_on_bar(home.path()).iter().any(|word| clock(word))),
        "the bar is still shown after `obi msg hide`"
    );
    let shown = wine.obi(&["msg", "show"]);
    assert!(shown.status.success() && String::from_utf8_lossy(&shown.stdout).contains(": ok"), "{shown:?}");
    wine.wait_for_words(home.path(), &[("the clock", clock)], &log);

    // The display switched to 800 × 600: the bar follows, its clock at the
    // new right edge.
    let switched = run(wine.on_desktop("probe.exe").args(["display-mode", "800", "600"]));
    assert!(switched.status.success(), "{switched:?}");
    let right_edge = |words: &[(String, u32)]| words.iter().find(|(word, _)| clock(word)).map(|(_, column)| *column);
    let mut words = Vec::new();
    let followed = wait_for(Duration::from_secs(20), || {
        words = words_in(&wine.grab_bar(home.path()));
        right_edge(&words).is_some_and(|column| (700..800).contains(&column))
    });
    assert!(followed, "after the switch to 800 × 600 the bar reads {words:?}; its log:\n{}", read(&log));
}

#[test]
fn a_config_error_under_wine_names_the_file_line_and_field() {
    let Some(wine) = WineDesktop::start("Windows config check under Wine") else { return };
    let folder = tempfile::tempdir().unwrap();
    let config = folder.path().join("komorebi.bar.json");
    std::fs::write(&config, "{\n  \"left_widgets\": [],\n  \"height\": \"tall\",\n  \"right_widgets\": []\n}\n")
        .unwrap();
    let checked = wine.obi(&["check", &windows_path(&config)]);
    let said = String::from_utf8_lossy(&checked.stderr);
    assert!(!checked.status.success(), "{checked:?}");
    assert!(said.contains("komorebi.bar.json:3:") && said.contains("error: height:"), "{said}");
}

/// Windows at 150 %: the bar is drawn at its monitor's scale, 60 pixels
/// for a height of 40, with text as crisp and as large as the scale makes
/// it, not a small bar or an enlarged picture of one.
#[test]
fn at_150_percent_the_bar_is_drawn_at_its_monitors_scale() {
    let Some(wine) = WineDesktop::start("Windows bar at 150 % under Wine") else { return };
    let dpi = run(wine.wine("reg").args([
        "add",
        "HKCU\\Control Panel\\Desktop",
        "/v",
        "LogPixels",
        "/t",
        "REG_DWORD",
        "/d",
        "144",
        "/f",
    ]));
    assert!(dpi.status.success(), "setting Wine's DPI: {dpi:?}");
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("komorebi.bar.json"), CONFIG).unwrap();
    let log = home.path().join("bar.log");
    let _bar = wine.start_bar(home.path(), &log);
    wine.wait_for_words(home.path(), &[("the clock", clock)], &log);

    let frame = wine.grab();
    let background = frame.pixel(2, 2);
    let height = (0..frame.height).find(|&row| frame.pixel(2, row) != background).unwrap_or(frame.height);
    assert_eq!(height, 60, "the bar is {height} pixels high at 150 %; its log:\n{}", read(&log));
    // The clock's glyphs: 18 px text is some 13 rows high at 100 %.
    let (rows, _) = text_ink(&frame, SCREEN.0 - 200..SCREEN.0 - 10, 0..60);
    assert!(rows >= 17, "the clock's text is {rows} rows high at 150 %");
}

/// Obi hosts Windows' notification icons: a program's icon shows in the
/// Systray widget, a click on it reaches the program as its callback
/// message, and a `hidden_icons` rule naming the program's executable
/// keeps it off the bar.
#[test]
fn a_programs_notification_icon_shows_in_the_systray_and_takes_clicks() {
    let Some(wine) = WineDesktop::start("Windows tray under Wine") else { return };
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("komorebi.bar.json");
    let tray = |hidden: &str| {
        format!(
            r#"{{ "height": 40, "font_size": 18, "transparency_alpha": 255,
                "left_widgets": [ {{ "Systray": {{ "enable": true, "hidden_icons": [{hidden}] }} }} ],
                "right_widgets": [ {{ "Time": {{ "enable": true, "format": "TwentyFourHour" }} }} ] }}"#
        )
    };
    std::fs::write(&config, tray("")).unwrap();
    let log = home.path().join("bar.log");
    let _bar = wine.start_bar(home.path(), &log);
    wine.wait_for_words(home.path(), &[("the clock", clock)], &log);

    // Another taskbar comes after the bar's, in front of it, and does not
    // say so; a window that takes the focus (a click on that taskbar would)
    // brings the bar's forward again.
    let taskbar_said = home.path().join("taskbar.txt");
    let _taskbar = wine.stand_in_taskbar(&taskbar_said, false);
    let notepad = wine.on_desktop("notepad.exe").stdout(Stdio::null()).stderr(Stdio::null()).spawn();
    let _notepad = Reaped(notepad.expect("starting Notepad"));
    std::thread::sleep(Duration::from_secs(3));
    // Wine's desktop draws the new window over the bar, top-most or not.
    let closed = run(wine.wine("taskkill").args(["/f", "/im", "notepad.exe"]));
    assert!(closed.status.success(), "taskkill: {closed:?}");
    let said = home.path().join("probe.txt");
    let probe = wine.notify_icon(&said);
    let mut icon = None;
    let shown = wait_for(Duration::from_secs(20), || {
        icon = wine.red_icon();
        icon.is_some()
    });
    assert!(shown, "no red icon on the bar; the probe said {:?}; the bar's log:\n{}", read(&said), read(&log));
    assert!(read(&log).contains("tray icon added by probe.exe"), "{}", read(&log));
    // What the bar's tray took, it handed on to the other taskbar too.
    assert!(read(&taskbar_said).contains("copydata"), "the other taskbar was told {:?}", read(&taskbar_said));
    let (x, y) = icon.unwrap();
    // The pointer comes to rest on the icon before the button goes down: a
    // busy Wine can take a press that follows the motion at once where the
    // pointer was.
    wine.xdotool(&["mousemove", &x.to_string(), &y.to_string()]);
    std::thread::sleep(Duration::from_millis(500));
    wine.xdotool(&["click", "1"]);
    assert!(
        wait_for(Duration::from_secs(10), || read(&said).contains("clicked")),
        "the program was not told of the click: it said {:?}; the bar's log:\n{}",
        read(&said),
        read(&log)
    );
    drop(probe);
    // The program removed its icon as it ended.
    assert!(wait_for(Duration::from_secs(10), || wine.red_icon().is_none()), "the icon stayed after its program ended");

    std::fs::write(&config, tray(r#""probe.exe""#)).unwrap();
    std::thread::sleep(Duration::from_secs(2));
    // A taskbar that says it is new (as Explorer started again does) is
    // put behind the bar's at once.
    let _announced = wine.stand_in_taskbar(&home.path().join("taskbar-2.txt"), true);
    let _probe = wine.notify_icon(&said);
    assert!(
        wait_for(Duration::from_secs(20), || read(&log).matches("tray icon added by probe.exe").count() == 2),
        "the program's second icon was not added: {}",
        read(&log)
    );
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(wine.red_icon(), None, "an icon `hidden_icons` names is on the bar");
}

/// A secondary click on the date opens its month's calendar under it, in a
/// top-most tool window of its own (no taskbar button, no tile) that takes
/// the focus, as a menu does, which the bar never takes; a click elsewhere
/// on the desktop takes the focus from it and closes it, and so does Escape.
/// Its cells answer the pointer: a button and the wheel turn the month.
#[test]
fn the_dates_calendar_opens_under_wine_and_a_click_elsewhere_closes_it() {
    let Some(wine) = WineDesktop::start("Windows popup under Wine") else { return };
    let home = tempfile::tempdir().unwrap();
    let config = r#"{ "height": 40, "font_size": 18, "transparency_alpha": 255, "right_widgets": [],
        "left_widgets": [ { "Date": { "enable": true, "format": { "Custom": "Day%j" } } } ] }"#;
    std::fs::write(home.path().join("komorebi.bar.json"), config).unwrap();
    let log = home.path().join("bar.log");
    let _bar = wine.start_bar(home.path(), &log);
    wine.wait_for_words(home.path(), &[("the date", |word| word.starts_with("Day"))], &log);
    let open_popup = || {
        let mut shown = None;
        let opened = wait_for(Duration::from_secs(30), || {
            // At rest on the date before the press (see the tray's test).
            wine.xdotool(&["mousemove", "40", "20"]);
            std::thread::sleep(Duration::from_millis(500));
            wine.xdotool(&["click", "3"]);
            wait_for(Duration::from_secs(3), || {
                shown = wine.shown(POPUP);
                shown.is_some()
            })
        });
        assert!(opened, "no popup after a secondary click on the date; the bar's log:\n{}", read(&log));
        shown.unwrap()
    };

    let (rect @ [left, top, right, bottom], focused) = open_popup();
    assert_eq!(top, 40, "right under the bar: {rect:?}");
    assert!(left < 60 && right - left > 150 && bottom - top > 150, "{rect:?}");
    assert!(focused, "the popup has not the focus: a click elsewhere would not close it\n{}", read(&log));
    let (style, extended) = wine.styles(POPUP);
    assert_eq!(style & WS_CAPTION, 0, "styles {style:08x}");
    assert_eq!(
        extended & (WS_EX_TOPMOST | WS_EX_TOOLWINDOW | WS_EX_NOACTIVATE | WS_EX_APPWINDOW),
        WS_EX_TOPMOST | WS_EX_TOOLWINDOW,
        "extended styles {extended:08x}"
    );
    // The month and the year, in the bar's theme and font.
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let reads = |png: &Path, wanted: &str| {
        let mut text = String::new();
        let read_back = wait_for(Duration::from_secs(10), || {
            wine.grab_rect(rect, png);
            text = popup_text(png);
            text.contains(wanted)
        });
        assert!(read_back, "the popup ({}) reads {text:?}, not {wanted:?}", png.display());
    };
    let today = chrono::Local::now();
    let month = today.format("%B %Y").to_string();
    reads(&artifacts.join("wine-popup-calendar.png"), &month);
    // Its cells take the pointer: the next month's button is lit under it
    // (a point of its face left of its mark), then clicked; then the wheel
    // turned up over the calendar (the month before).
    let face = artifacts.join("wine-popup-button-face.png");
    let face_colour = || {
        wine.grab_rect([right - 55, top + 25, right - 54, top + 26], &face);
        Frame::read(&face).pixel(0, 0)
    };
    let unlit = face_colour();
    let next = (today.with_day(1).unwrap() + chrono::Months::new(1)).format("%B %Y").to_string();
    let (button, middle) = ((right - 30).to_string(), ((top + bottom) / 2).to_string());
    wine.xdotool(&["mousemove", &button, &(top + 25).to_string()]);
    let lit = wait_for(Duration::from_secs(10), || !same_colour(face_colour(), unlit));
    assert!(lit, "the button under the pointer is lit ({unlit:?}); the bar's log:\n{}", read(&log));
    wine.xdotool(&["click", "1"]);
    reads(&artifacts.join("wine-popup-next-month.png"), &next);
    wine.xdotool(&["mousemove", &button, &middle]);
    std::thread::sleep(Duration::from_millis(500));
    wine.xdotool(&["click", "4"]);
    reads(&artifacts.join("wine-popup-calendar.png"), &month);
    // The keys: Tab lights the first button (the month before), Return clicks it.
    let before = (today.with_day(1).unwrap() - chrono::Months::new(1)).format("%B %Y").to_string();
    wine.xdotool(&["key", "Tab", "Return"]);
    reads(&artifacts.join("wine-popup-previous-month.png"), &before);

    wine.xdotool(&["mousemove", "900", "500"]);
    std::thread::sleep(Duration::from_millis(500));
    wine.xdotool(&["click", "1"]);
    let closed = wait_for(Duration::from_secs(10), || wine.shown(POPUP).is_none());
    assert!(closed, "the popup stayed after a click elsewhere; the bar's log:\n{}", read(&log));

    open_popup();
    wine.xdotool(&["key", "Escape"]);
    let closed = wait_for(Duration::from_secs(10), || wine.shown(POPUP).is_none());
    assert!(closed, "the popup stayed after Escape; the bar's log:\n{}", read(&log));
}

/// A tooltip under Wine: resting the pointer on an item that has one shows
/// it under the item in a top-most tool window that never takes the focus,
/// with the item's words; moving off hides it.
#[test]
fn a_tooltip_shows_under_its_item_under_wine() {
    let Some(wine) = WineDesktop::start("Windows tooltip under Wine") else { return };
    let home = tempfile::tempdir().unwrap();
    let config = r#"{ "height": 40, "font_size": 18, "transparency_alpha": 255, "right_widgets": [],
        "left_widgets": [ { "PowerMenu": { "enable": true, "label_prefix": "IconAndText" } } ] }"#;
    std::fs::write(home.path().join("komorebi.bar.json"), config).unwrap();
    let log = home.path().join("bar.log");
    let _bar = wine.start_bar(home.path(), &log);
    wine.wait_for_words(home.path(), &[("the power button", |word| word == "Power")], &log);
    let mut shown = None;
    let appeared = wait_for(Duration::from_secs(30), || {
        wine.xdotool(&["mousemove", "30", "20"]);
        wine.xdotool(&["mousemove", "40", "20"]);
        wait_for(Duration::from_secs(3), || {
            shown = wine.shown(TOOLTIP);
            shown.is_some()
        })
    });
    assert!(appeared, "no tooltip after resting on the power button; the bar's log:\n{}", read(&log));
    let (rect @ [left, top, _, _], focused) = shown.unwrap();
    assert!((40..60).contains(&top) && left < 60, "under the item: {rect:?}");
    assert!(!focused, "a tooltip never takes the focus");
    let (_, extended) = wine.styles(TOOLTIP);
    assert_eq!(
        extended & (WS_EX_TOPMOST | WS_EX_TOOLWINDOW | WS_EX_NOACTIVATE | WS_EX_APPWINDOW),
        WS_EX_TOPMOST | WS_EX_TOOLWINDOW | WS_EX_NOACTIVATE,
        "extended styles {extended:08x}"
    );
    let artifacts = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let png = artifacts.join("wine-tooltip.png");
    let mut text = String::new();
    let reads = wait_for(Duration::from_secs(10), || {
        wine.grab_rect(rect, &png);
        text = popup_text(&png);
        text.contains("Lock") && text.contains("shut down")
    });
    assert!(reads, "the tooltip ({}) reads {text:?}", png.display());
    wine.xdotool(&["mousemove", "900", "500"]);
    let hidden = wait_for(Duration::from_secs(10), || wine.shown(TOOLTIP).is_none());
    assert!(hidden, "the tooltip stayed after the pointer left; the bar's log:\n{}", read(&log));
}

/// A see-through bar is a layered window: Windows composes its pixels, with
/// their alpha, over what lies behind it, whatever the GL driver does with a
/// window's alpha (Wine's WGL offers no config with alpha at all, and some
/// drivers show such windows on black: komorebi #1391). Wine's own desktop
/// draws layered windows on black too, for nothing composes inside it; here
/// the bar is a window of the X server's, which xcompmgr composes.
#[test]
fn a_see_through_bar_shows_what_lies_behind_it() {
    let Some(wine) = WineDesktop::start("see-through Windows bar under Wine") else { return };
    if !have_tools("see-through Windows bar under Wine", &["xcompmgr"]) {
        return;
    }
    let compositor = Command::new("xcompmgr").env("DISPLAY", &wine.display).stderr(Stdio::null()).spawn();
    let _compositor = Reaped(compositor.expect("starting xcompmgr"));
    let home = tempfile::tempdir().unwrap();
    let config = r#"{ "height": 40, "font_size": 18, "transparency_alpha": 60, "left_widgets": [],
        "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ] }"#;
    std::fs::write(home.path().join("komorebi.bar.json"), config).unwrap();
    let log = home.path().join("bar.log");
    let _bar = wine.start_bar_on_x(home.path(), &log);
    wine.wait_for_words(home.path(), &[("the clock", clock)], &log);

    let frame = wine.grab();
    let (behind, bar) = (frame.pixel(10, 60), frame.pixel(10, 10));
    // The default theme's background, #1e1e2e, at 60 of 255 over what is behind.
    let alpha = 60.0 / 255.0;
    let expected: Vec<f64> = [30.0, 30.0, 46.0]
        .iter()
        .zip(behind)
        .map(|(ours, under)| ours * alpha + f64::from(under) * (1.0 - alpha))
        .collect();
    let near = bar.iter().zip(&expected).all(|(got, wanted)| (f64::from(*got) - wanted).abs() <= 4.0);
    assert!(
        near,
        "the bar's background is {bar:?}: {expected:?} is #1e1e2e at 60/255 over {behind:?}; its log:\n{}",
        read(&log)
    );
}

/// Installs the font file `source` in the prefix as Windows installs a
/// font: its file in `Fonts` (a link where the file system allows one:
/// a CJK collection is 19 MB), named `name` in the registry.
fn install_font(wine: &WineDesktop, source: &Path, name: &str) {
    let file = source.file_name().expect("a font file's name");
    let installed = wine.prefix.path().join("drive_c/windows/Fonts").join(file);
    if std::fs::hard_link(source, &installed).is_err() {
        std::fs::copy(source, &installed)
            .unwrap_or_else(|error| panic!("copying {} into Wine: {error}", source.display()));
    }
    let fonts_key = r"HKLM\Software\Microsoft\Windows NT\CurrentVersion\Fonts";
    let value = file.to_string_lossy();
    let registered = run(wine.wine("reg").args(["add", fonts_key, "/v", name, "/t", "REG_SZ", "/d", &value, "/f"]));
    assert!(registered.status.success(), "registering {name}: {registered:?}");
}

/// Text in Chinese under Wine, with a CJK font installed in the prefix as
/// a Chinese Windows has one (and the host's fonts hidden from Wine): the
/// bar's font (DejaVu Sans) lacks the characters, and they come from the
/// system's fallback (DirectWrite's, through fontique).
#[test]
fn chinese_shows_from_a_cjk_font_in_the_prefix_under_wine() {
    let Some(wine) = WineDesktop::start_with("Chinese under Wine", HostFonts::Unseen) else { return };
    install_font(
        &wine,
        Path::new("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
        "Noto Sans CJK (TrueType)",
    );
    let home = tempfile::tempdir().unwrap();
    let config = r#"{ "height": 40, "font_size": 20, "font_family": "DejaVu Sans", "transparency_alpha": 255,
        "left_widgets": [ { "Applications": { "enable": true, "display": "Text",
            "items": [ { "name": "中華民國", "command": "notepad.exe" } ] } } ],
        "right_widgets": [] }"#;
    std::fs::write(home.path().join("komorebi.bar.json"), config).unwrap();
    let log = home.path().join("bar.log");
    let _bar = wine.start_bar(home.path(), &log);
    let png = home.path().join("bar.png");
    let large = home.path().join("bar-large.png");
    let mut reading = String::new();
    let read_back = wait_for(Duration::from_secs(60), || {
        wine.grab_rect([0, 0, 400, 40], &png);
        run(Command::new("convert").arg(&png).args(["-negate", "-resize", "300%"]).arg(&large));
        let ocr = run(Command::new("tesseract").arg(&large).args(["stdout", "--psm", "7", "-l", "chi_tra"]));
        reading = String::from_utf8_lossy(&ocr.stdout).chars().filter(|c| !c.is_whitespace()).collect();
        reading.contains("中華民國")
    });
    if !read_back {
        let artifacts = workspace().join("target/e2e-artifacts");
        std::fs::create_dir_all(&artifacts).unwrap();
        let _ = std::fs::copy(&png, artifacts.join("wine-chinese.png"));
    }
    assert!(read_back, "the bar reads {reading:?} (wine-chinese.png); its log:\n{}", read(&log));
}

/// The release's MSI installs silently with its autostart feature, the
/// `obi.exe` it puts in Program Files draws its bar, and uninstalling
/// takes away the program's folder, its Start menu entry and its autostart.
#[test]
fn the_msi_installs_the_bar_and_uninstalling_removes_it_under_wine() {
    let Some(wine) = WineDesktop::start("the MSI under Wine") else { return };
    let Some(dist) = crate::install::artifacts("the MSI under Wine") else { return };
    let msi = windows_path(&crate::install::artifact(dist, ".msi"));
    let installed = run(wine.wine("msiexec").args(["/i", &msi, "/qn", "ADDLOCAL=ALL"]));
    assert!(installed.status.success(), "msiexec /i: {installed:?}");
    let drive = wine.prefix.path().join("drive_c");
    let folder = drive.join("Program Files/Obi");
    for file in ["obi.exe", "README.md", "LICENSE-MIT.txt", "LICENSE-APACHE.txt", "komorebi.bar.example.json"] {
        assert!(folder.join(file).is_file(), "the MSI did not install {file}");
    }
    let notices = std::fs::read_to_string(folder.join("THIRD-PARTY-LICENSES.txt")).unwrap();
    crate::install::assert_third_party_notices(&notices, "windows", "x11rb");
    // The MSI is a machine's (ALLUSERS=1); Wine puts its Start menu entry
    // in the installing user's menu all the same.
    let shortcuts = || {
        let files = crate::support::files_under(&drive);
        files.into_iter().filter(|file| file.file_name().is_some_and(|name| name == "Obi.lnk")).collect::<Vec<_>>()
    };
    let shortcut = shortcuts();
    assert!(
        shortcut.len() == 1 && shortcut[0].to_string_lossy().contains("Start Menu/Programs"),
        "the Start menu entries: {shortcut:?}"
    );
    let autostart = || run(wine.wine("reg").args(["query", RUN_KEY, "/v", "Obi"]));
    let said = String::from_utf8_lossy(&autostart().stdout).into_owned();
    assert!(said.contains(r"C:\Program Files\Obi\obi.exe"), "the autostart value: {said:?}");

    // Wine 8's missing DLL, beside the installed bar while it runs (and
    // taken away before it is uninstalled: it is the test's, not the MSI's).
    let stand_in = folder.join("bcryptprimitives.dll");
    std::fs::copy(wine.folder.path().join("bcryptprimitives.dll"), &stand_in).unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("komorebi.bar.json"), CONFIG).unwrap();
    let log = home.path().join("bar.log");
    let bar = WineDesktop::spawn_bar(wine.on_desktop(r"C:\Program Files\Obi\obi.exe"), home.path(), &log);
    wine.wait_for_words(home.path(), &[("the clock", clock)], &log);
    let kept = workspace().join("target/e2e-artifacts");
    std::fs::create_dir_all(&kept).unwrap();
    std::fs::copy(home.path().join("bar.png"), kept.join("installed-msi.png")).unwrap();
    drop(bar);
    wine.end_wine();
    std::fs::remove_file(&stand_in).unwrap();

    let removed = run(wine.wine("msiexec").args(["/x", &msi, "/qn"]));
    assert!(removed.status.success(), "msiexec /x: {removed:?}");
    assert!(!folder.exists(), "uninstalling left {}", folder.display());
    assert_eq!(shortcuts(), Vec::<PathBuf>::new(), "uninstalling left the Start menu entry");
    assert!(!autostart().status.success(), "uninstalling left the autostart value");
}

const RUN_KEY: &str = r"HKLM\Software\Microsoft\Windows\CurrentVersion\Run";

/// The idle inhibitor on from the start asks Windows to keep the display
/// and the system on (`SetThreadExecutionState` with `ES_CONTINUOUS |
/// ES_SYSTEM_REQUIRED | ES_DISPLAY_REQUIRED`), and a click on it lets go
/// (`ES_CONTINUOUS` alone): Wine carries the call no further than its log,
/// where what the bar asked is read.
#[test]
fn the_idle_inhibitor_asks_windows_to_keep_the_display_on_and_lets_go() {
    let Some(wine) = WineDesktop::start("Windows idle inhibitor under Wine") else { return };
    let home = tempfile::tempdir().unwrap();
    let config = r#"{ "height": 40, "font_size": 18, "transparency_alpha": 255, "right_widgets": [],
        "left_widgets": [ { "IdleInhibitor": { "enable": true, "label_prefix": "Text", "start_activated": true } } ] }"#;
    std::fs::write(home.path().join("komorebi.bar.json"), config).unwrap();
    let log = home.path().join("bar.log");
    let mut bar = wine.on_desktop("obi.exe");
    bar.env("WINEDEBUG", "-all,warn+ntdll");
    let _bar = WineDesktop::spawn_bar(bar, home.path(), &log);
    wine.wait_for_words(home.path(), &[("on", |word| word == "on")], &log);
    // ntdll's warning `NtSetThreadExecutionState (0x80000003, …): stub, harmless.`
    let asked = |flags: &str| read(&log).contains(&format!("NtSetThreadExecutionState ({flags},"));
    assert!(wait_for(Duration::from_secs(10), || asked("0x80000003")), "{}", read(&log));

    wine.xdotool(&["mousemove", "40", "20"]);
    wine.xdotool(&["click", "1"]);
    wine.wait_for_words(home.path(), &[("off", |word| word == "off")], &log);
    assert!(wait_for(Duration::from_secs(10), || asked("0x80000000")), "{}", read(&log));
}
