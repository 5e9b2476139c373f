//! The real bar in a hostile environment, each case named in the README's
//! security section: a second local user who plants compiled code, links
//! and a control folder where the bar looks; clients of the control socket
//! that say nothing or never stop; an environment value written to break
//! out of a mouse command; config files that are a FIFO, a device or huge;
//! a FIFO and a corrupt font named as the bar's font. In each, nothing
//! planted is used, and the bar keeps drawing.

use crate::nobody::{NOBODY, am_root};
use crate::support::{Reaped, XSession, config_file, have_tools, obi, run, wait_for};
use crate::window::{CPU_AND_CLOCK, ONLY_CPU, TOOLS, bar_strip, inked};
use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The uid the second user acts as.
const OTHER_USER: u32 = NOBODY;

/// Runs `script` in `sh` as the second user: through `setpriv` as root,
/// else through `sudo`.
fn as_other_user(script: &str) {
    let output = if am_root() {
        let (user, group) = (format!("--reuid={OTHER_USER}"), format!("--regid={OTHER_USER}"));
        run(Command::new("setpriv").args([user.as_str(), group.as_str(), "--clear-groups", "sh", "-c", script]))
    } else {
        run(Command::new("sudo").args(["-n", "-u", &format!("#{OTHER_USER}"), "sh", "-c", script]))
    };
    assert!(output.status.success(), "as the second user: {script}: {output:?}");
}

/// Root can act as a second user, and so can a user `sudo` lets; anyone
/// else skips loudly (or fails, under CI).
fn can_act_as_another_user(test: &str) -> bool {
    let helper = if am_root() { "setpriv" } else { "sudo" };
    if !have_tools(test, &[TOOLS, &[helper]].concat()) {
        return false;
    }
    let sudo_lets = || Command::new("sudo").args(["-n", "true"]).status().is_ok_and(|status| status.success());
    if !am_root() && !sudo_lets() {
        crate::skip::unavailable(&format!(
            "{test}: acting as a second local user needs root or sudo without a password"
        ));
        return false;
    }
    true
}

/// `command`'s output, failing the test when it runs past `limit`.
fn within(limit: Duration, command: &mut Command) -> Output {
    let mut child = Reaped(command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("starting it"));
    let started = Instant::now();
    while child.0.try_wait().unwrap().is_none() {
        assert!(started.elapsed() < limit, "{command:?} still runs after {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut output = Output { status: child.0.wait().unwrap(), stdout: Vec::new(), stderr: Vec::new() };
    child.0.stdout.take().unwrap().read_to_end(&mut output.stdout).unwrap();
    child.0.stderr.take().unwrap().read_to_end(&mut output.stderr).unwrap();
    output
}

/// The names the bar gives its compiled components, learnt from a bar that
/// drew [`ONLY_CPU`] offscreen with a cache of its own.
fn cache_file_names(config: &Path, dir: &Path) -> Vec<String> {
    let cache = dir.join("learnt-cache");
    let shot = dir.join("learnt.png");
    let output = run(obi().env("OBI_CACHE_DIR", &cache).arg("--config").arg(config).arg("--screenshot").arg(&shot));
    assert!(output.status.success(), "{output:?}");
    let names: Vec<String> =
        std::fs::read_dir(&cache).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
    assert!(names.iter().any(|name| name.ends_with(".cwasm")), "{names:?}");
    names
}

/// Another user makes the cache folder the bar would use (with a file of
/// garbage and a link to a file of the bar's user under each name the bar
/// would load or write) and the folder of its control socket: the bar uses
/// neither, says why, compiles its widgets anew and draws; the planted
/// files and the linked file are untouched, and `obi msg` refuses the
/// planted control folder at once instead of hanging on it.
#[test]
fn another_users_cache_and_control_folders_are_refused_and_the_bar_draws() {
    if !can_act_as_another_user("planted cache and control folder test") {
        return;
    }
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(ONLY_CPU);
    let names = cache_file_names(&config, dir.path());
    // A place both users may write, as /tmp is: sticky, open to all.
    let shared = dir.path().join("shared");
    std::fs::create_dir(&shared).unwrap();
    for open in [dir.path(), shared.as_path()] {
        std::fs::set_permissions(open, std::fs::Permissions::from_mode(0o1777)).unwrap();
    }
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "the user's own file").unwrap();
    let components = shared.join("cache/obi/components");
    let mut plant = format!(
        "mkdir -p '{0}' '{1}/obi-0' && chmod -R 777 '{1}/cache' '{1}/obi-0'",
        components.display(),
        shared.display()
    );
    for (index, name) in names.iter().enumerate() {
        plant += &match index % 2 {
            0 => format!(" && printf 'planted code' > '{}/{name}'", components.display()),
            _ => format!(" && ln -s '{}' '{}/{name}'", victim.display(), components.display()),
        };
    }
    as_other_user(&plant);

    let log_path = dir.path().join("obi.log");
    let bar = obi()
        .arg("--config")
        .arg(&config)
        .env("DISPLAY", &session.display)
        .env_remove("OBI_CACHE_DIR")
        .env_remove("XDG_RUNTIME_DIR")
        .env("XDG_CACHE_HOME", shared.join("cache"))
        .env("TMPDIR", &shared)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log_path).unwrap())
        .spawn()
        .expect("starting obi");
    let _bar = Reaped(bar);
    session.find_window("^obi$", Duration::from_secs(20)).expect("the bar window appears");
    assert!(wait_for(Duration::from_secs(20), || inked(&bar_strip(&session), 0, 400)), "the Cpu widget drew");
    let log = std::fs::read_to_string(&log_path).unwrap();
    let cache_refused =
        format!("not using the component cache: {} belongs to another user (uid {OTHER_USER})", components.display());
    assert!(log.contains(&cache_refused), "{log}");
    assert!(log.contains("no control socket") && log.contains("the control folder cannot be used"), "{log}");

    for (index, name) in names.iter().enumerate() {
        let planted = components.join(name);
        if index % 2 == 0 {
            assert_eq!(std::fs::read(&planted).unwrap(), b"planted code", "{name} untouched");
        } else {
            assert!(std::fs::symlink_metadata(&planted).unwrap().file_type().is_symlink(), "{name} untouched");
        }
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "the user's own file", "nothing was written through a link");
    let sockets: Vec<_> = std::fs::read_dir(shared.join("obi-0")).unwrap().collect();
    assert!(sockets.is_empty(), "no socket in the planted folder: {sockets:?}");

    let msg = within(
        Duration::from_secs(5),
        obi().env_remove("XDG_RUNTIME_DIR").env("TMPDIR", &shared).args(["msg", "quit"]),
    );
    assert!(!msg.status.success(), "{msg:?}");
    let said = String::from_utf8_lossy(&msg.stderr);
    assert!(said.contains("the control folder cannot be used") && said.contains("belongs to another user"), "{said}");
}

/// A client of the control socket that says nothing holds it a second at
/// most, one that writes without end is cut off after a line's length
/// (the bar's memory does not grow), clients that drip a byte at a time
/// are cut off a second after they came, and `obi msg` goes on working
/// beside them all; a bar that never answers is named by `obi msg` within
/// seconds.
/// The socket is the user's alone, in a folder that is theirs alone.
#[test]
fn silent_flooding_and_dripping_control_clients_hold_up_nobody() {
    if !have_tools("control client test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(ONLY_CPU);
    let runtime = dir.path().join("runtime");
    let (bar, _window) =
        session.start_bar_with_env(&config, Stdio::null(), &[("XDG_RUNTIME_DIR", runtime.as_os_str())]);
    let pid = bar.0.id();
    let socket = runtime.join("obi").join(format!("bar-{pid}.sock"));
    assert!(wait_for(Duration::from_secs(10), || socket.exists()), "the bar listens on {}", socket.display());
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!((mode(&runtime.join("obi")), mode(&socket)), (0o700, 0o600));
    let resident = || {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let line = status.lines().find(|line| line.starts_with("VmRSS:")).unwrap().to_owned();
        line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() << 10
    };
    let msg =
        |command: &str| within(Duration::from_secs(10), obi().env("XDG_RUNTIME_DIR", &runtime).args(["msg", command]));
    // The memory to compare with is the bar's once it has drawn, hidden
    // and shown itself: what those cost is not the flood's.
    for command in ["hide", "show"] {
        assert!(msg(command).status.success());
    }
    std::thread::sleep(Duration::from_secs(1));
    let before = resident();

    let _silent = UnixStream::connect(&socket).unwrap();
    let flood = {
        let socket = socket.clone();
        std::thread::spawn(move || {
            let mut stream = UnixStream::connect(&socket).unwrap();
            let chunk = vec![b'x'; 1 << 20];
            let mut written = 0u64;
            while written < 4 << 30 {
                match stream.write(&chunk) {
                    Ok(count) => written += count as u64,
                    Err(_) => break,
                }
            }
            written
        })
    };
    for command in ["hide", "show"] {
        let asked = Instant::now();
        let output = msg(command);
        assert!(output.status.success(), "{command} beside a silent and a flooding client: {output:?}");
        assert!(asked.elapsed() < Duration::from_secs(4), "{command} took {:?}", asked.elapsed());
    }
    let written = flood.join().unwrap();
    assert!(written < 64 << 20, "the flood was cut off, after {written} bytes");
    let grown = resident().saturating_sub(before);
    assert!(grown < 4 << 20, "the bar's memory grew by {grown} bytes under the flood");

    // Clients that drip a byte every 0.9 s, connecting again as soon as
    // they are cut off: each had its every read within the second it was
    // given, and they locked `obi msg` out for minutes.
    let dripping = Arc::new(AtomicBool::new(true));
    let drippers: Vec<_> = (0..6)
        .map(|_| {
            let (socket, dripping) = (socket.clone(), dripping.clone());
            std::thread::spawn(move || {
                while dripping.load(Ordering::SeqCst) {
                    let Ok(mut stream) = UnixStream::connect(&socket) else { continue };
                    while dripping.load(Ordering::SeqCst) && stream.write_all(b"t").is_ok() {
                        std::thread::sleep(Duration::from_millis(900));
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(2));
    for command in ["hide", "show"] {
        let asked = Instant::now();
        let output = msg(command);
        assert!(output.status.success(), "{command} beside dripping clients: {output:?}");
        assert!(asked.elapsed() < Duration::from_secs(4), "{command} took {:?}", asked.elapsed());
    }
    dripping.store(false, Ordering::SeqCst);
    drippers.into_iter().for_each(|dripper| dripper.join().unwrap());

    // A socket whose bar never answers: this test process's, which never accepts.
    let silent_bar = runtime.join("obi").join(format!("bar-{}.sock", std::process::id()));
    let _listener = UnixListener::bind(&silent_bar).unwrap();
    let asked = Instant::now();
    let output = within(
        Duration::from_secs(10),
        obi().env("XDG_RUNTIME_DIR", &runtime).args(["msg", "--pid", &std::process::id().to_string(), "toggle"]),
    );
    assert!(!output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("no answer within 3 s"), "{output:?}");
    assert!(asked.elapsed() < Duration::from_secs(6), "{:?}", asked.elapsed());
}

/// An environment value made to break out of a mouse command, in every
/// quoting komorebi-bar's spellings may sit in, runs nothing: the command
/// gets the value as text.
#[test]
fn an_environment_value_with_quotes_and_semicolons_runs_nothing_more() {
    if !have_tools("environment value test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(
        r#"{ "height": 40, "left_widgets": [], "right_widgets": [],
             "mouse": { "on_primary_double_click": "printf '%s|' %OBI_E2E_EVIL% \"$Env:OBI_E2E_EVIL\" '$OBI_E2E_EVIL' >> \"$OBI_E2E_MARK\"" } }"#,
    );
    let (mark, pwned) = (dir.path().join("clicked"), dir.path().join("pwned"));
    // No blank in it: unquoted, it stays one word, and `${IFS}` is what an
    // attacker writes for one.
    let evil = format!("x';touch${{IFS}}{0};\";touch${{IFS}}{0};\"`touch${{IFS}}{0}`;echo${{IFS}}'", pwned.display());
    let (_bar, _window) = session.start_bar_with_env(
        &config,
        Stdio::null(),
        &[("OBI_E2E_MARK", mark.as_os_str()), ("OBI_E2E_EVIL", std::ffi::OsStr::new(&evil))],
    );
    run(session.command("xdotool").args(["mousemove", "600", "20", "click", "--repeat", "2", "--delay", "80", "1"]));
    assert!(wait_for(Duration::from_secs(10), || mark.exists()), "the double click ran its command");
    std::thread::sleep(Duration::from_millis(500));
    assert!(!pwned.exists(), "the value ran as shell code");
    let printed = std::fs::read_to_string(&mark).unwrap();
    assert!(printed.matches(evil.as_str()).count() >= 3, "each spelling gave the value as text: {printed:?}");
}

/// Config files that are not files, or are huge: `obi check` refuses each
/// at once, and a running bar whose config is replaced by one logs it and
/// keeps its config and its ticking clock.
#[test]
fn a_fifo_a_device_and_a_huge_file_as_the_config_are_refused_at_once() {
    if !have_tools("hostile config file test", &[TOOLS, &["mkfifo"]].concat()) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.json");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let huge = dir.path().join("huge.json");
    let mut text = String::from("{ \"left_widgets\": [], \"right_widgets\": [], \"padding\": [");
    text += &"1, ".repeat((50 << 20) / 3);
    text += "1] }";
    std::fs::write(&huge, &text).unwrap();
    for (path, said) in [
        (fifo.as_path(), "it is a FIFO, not a regular file"),
        (Path::new("/dev/urandom"), "it is a device, not a regular file"),
        (huge.as_path(), "at most 1 MiB is read"),
    ] {
        let output = within(Duration::from_secs(3), obi().arg("check").arg(path));
        assert!(!output.status.success(), "{output:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains(said), "{}: {output:?}", path.display());
    }

    let session = XSession::start(1280, 720);
    let (bar_dir, config) = config_file(CPU_AND_CLOCK);
    let log_path = bar_dir.path().join("obi.log");
    let (bar, _window) = session.start_bar(&config, Stdio::from(std::fs::File::create(&log_path).unwrap()));
    let clock = || bar_strip(&session);
    assert!(wait_for(Duration::from_secs(20), || inked(&clock(), 880, 1280)), "the clock drew");
    let log = || std::fs::read_to_string(&log_path).unwrap_or_default();
    let ticks = || {
        let first = clock();
        wait_for(Duration::from_secs(3), || {
            let now = clock();
            (0..now.height).any(|y| (880..1280).any(|x| now.pixel(x, y) != first.pixel(x, y)))
        })
    };
    let replacement = bar_dir.path().join("replacement");
    let fifo = |at: &Path| assert!(Command::new("mkfifo").arg(at).status().unwrap().success());
    let device = |at: &Path| std::os::unix::fs::symlink("/dev/urandom", at).unwrap();
    let large = |at: &Path| std::fs::copy(&huge, at).map(drop).unwrap();
    type Replacement<'a> = (&'a dyn Fn(&Path), &'a str);
    let replacements: [Replacement; 3] = [(&fifo, "a FIFO"), (&device, "a device"), (&large, "at most 1 MiB is read")];
    for (make, said) in replacements {
        make(&replacement);
        std::fs::rename(&replacement, &config).unwrap();
        assert!(wait_for(Duration::from_secs(10), || log().contains(said)), "logged {said}: {}", log());
        assert!(ticks(), "after {said} the clock still ticks");
    }
    let mut bar = bar;
    assert!(bar.0.try_wait().unwrap().is_none(), "the bar runs on: {}", log());
    assert!(inked(&clock(), 0, 400), "with its last good config");
}

/// A corrupt copy of the bar's font and a FIFO, in the user's font
/// folders and named as the font (so read before the installed one): the
/// bar passes over both and draws (the FIFO held its start for ever, the
/// corrupt font failed it with "canvas error").
#[test]
fn a_fifo_and_a_corrupt_font_named_as_the_bars_are_passed_over() {
    use obi_test_support::font_collection::{DEJAVU_SANS, with_no_units_per_em};
    if !have_tools("hostile font test", &[TOOLS, &["mkfifo"]].concat()) {
        return;
    }
    let Ok(font) = std::fs::read(DEJAVU_SANS) else {
        obi_test_support::skip::unavailable("hostile font test: DejaVu Sans is not installed (fonts-dejavu-core)");
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let (corrupt, fifo) =
        (home.path().join(".fonts/DejaVuSans.ttf"), home.path().join(".local/share/fonts/DejaVuSans.ttf"));
    for dir in [&corrupt, &fifo].map(|path| path.parent().unwrap()) {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(&corrupt, with_no_units_per_em(&font)).unwrap();
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());

    let session = XSession::start(1280, 720);
    let (bar_dir, config) = config_file(CPU_AND_CLOCK);
    let log_path = bar_dir.path().join("obi.log");
    let log = Stdio::from(std::fs::File::create(&log_path).unwrap());
    let (mut bar, _) = session.start_bar_with_env(&config, log, &[("HOME", home.path().as_os_str())]);
    let drew = wait_for(Duration::from_secs(20), || inked(&bar_strip(&session), 880, 1280));
    let log = std::fs::read_to_string(&log_path).unwrap_or_default();
    assert!(drew, "the clock drew: {log}");
    assert!(bar.0.try_wait().unwrap().is_none(), "the bar runs on: {log}");
}

/// The CPU time the process `pid` has had, from `/proc/PID/stat`.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat.rsplit_once(") ").unwrap().1.split_whitespace().collect();
    // utime and stime, the 14th and 15th fields, in clock ticks (100 a second).
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

/// Whether a process named `name` runs as a child or grandchild of `pid`.
fn runs_under(pid: u32, name: &str) -> bool {
    let parent_and_name = |entry: std::fs::DirEntry| {
        let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
        let (head, rest) = stat.rsplit_once(") ")?;
        let own: u32 = entry.file_name().to_str()?.parse().ok()?;
        Some((own, rest.split_whitespace().nth(1)?.parse::<u32>().ok()?, head.split_once(" (")?.1.to_owned()))
    };
    let processes: Vec<(u32, u32, String)> =
        std::fs::read_dir("/proc").unwrap().flatten().filter_map(parent_and_name).collect();
    let parent = |of: u32| processes.iter().find(|(own, _, _)| *own == of).map(|(_, parent, _)| *parent);
    processes
        .iter()
        .any(|(own, ppid, comm)| comm == name && (*ppid == pid || parent(*own).and_then(parent) == Some(pid)))
}

/// A Custom command kept running that prints without end (`yes`): for
/// 20 s the bar's memory stays within 24 MB of where it was and it spends
/// under a tenth of a core, and `obi msg quit` ends it within 2 s (it grew
/// by 400 MB a second, queueing a wake for every line, and took 19 s to
/// quit).
#[test]
fn a_command_printing_without_end_costs_the_bar_little_and_quit_is_at_once() {
    if !have_tools("endless printer test", TOOLS) {
        return;
    }
    let session = XSession::start(1280, 720);
    let (dir, config) = config_file(
        r#"{ "height": 40, "right_widgets": [], "left_widgets": [ { "Custom": { "enable": true, "exec": "yes" } } ] }"#,
    );
    let runtime = dir.path().join("runtime");
    let log = dir.path().join("obi.log");
    let mut bar = session.start_bar_drawn(&config, &log, &[("XDG_RUNTIME_DIR", runtime.as_os_str())]);
    let pid = bar.0.id();
    assert!(wait_for(Duration::from_secs(20), || runs_under(pid, "yes")), "the bar started yes");
    let resident = || {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        let line = status.lines().find(|line| line.starts_with("VmRSS:")).unwrap().to_owned();
        line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() << 10
    };
    let (memory_before, cpu_before) = (resident(), cpu_time(pid));
    // The attack's length: what the bar spends in it is what is measured.
    let attack = Duration::from_secs(20);
    std::thread::sleep(attack);
    let (grown, cpu) = (resident().saturating_sub(memory_before), cpu_time(pid) - cpu_before);
    eprintln!("endless printer test: the bar grew by {grown} bytes and spent {cpu:?} of CPU in {attack:?}");
    // The tail of the bar's start lands in the window too (its widget's
    // memory, the GL frames after the first, the text's first shaping):
    // 5 to 17 MB in runs of a debug build, against the 8 GB the endless
    // lines grew it by in these 20 s.
    assert!(grown < 24 << 20, "the bar's memory grew by {grown} bytes");
    assert!(cpu < attack / 10, "the bar spent {cpu:?} of CPU in {attack:?}");

    let asked = Instant::now();
    let output = within(
        Duration::from_secs(10),
        obi().env("XDG_RUNTIME_DIR", &runtime).args(["msg", "--pid", &pid.to_string(), "quit"]),
    );
    assert!(output.status.success(), "{output:?}");
    assert!(wait_for(Duration::from_secs(10), || bar.0.try_wait().unwrap().is_some()), "the bar ended");
    assert!(asked.elapsed() < Duration::from_secs(2), "quitting took {:?}", asked.elapsed());
}

/// A config that runs a command leaving a mark at `mark`.
fn marking_config(mark: &Path) -> String {
    format!(
        r#"{{ "height": 32, "right_widgets": [],
             "left_widgets": [ {{ "Custom": {{ "enable": true, "exec": "touch '{}'; echo planted", "interval": "once" }} }} ] }}"#,
        mark.display()
    )
}

/// Configs someone else can write run nothing: another user's file that
/// komorebi's `bar_configurations` names is refused by `obi check` and
/// left out by the bar, which runs the user's own; the user's config left
/// 0666 and rewritten by another user while the bar runs is refused at the
/// reload, saying how to mend it, and the last good config goes on. (Each
/// ran the other user's command as the bar's user.)
#[test]
fn a_config_someone_else_can_write_is_refused_and_runs_nothing() {
    if !can_act_as_another_user("foreign config test") {
        return;
    }
    let session = XSession::start(1280, 720);
    let dir = tempfile::tempdir().unwrap();
    // A place both users may write, as /tmp is, and marks the bar's user could leave.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
    let (planted_mark, rewritten_mark) = (dir.path().join("planted-ran"), dir.path().join("rewritten-ran"));
    let planted = dir.path().join("theirs.bar.json");
    as_other_user(&format!("cat > '{}' <<'END'\n{}\nEND", planted.display(), marking_config(&planted_mark)));
    let own = dir.path().join("mine.bar.json");
    std::fs::write(&own, CPU_AND_CLOCK).unwrap();
    let komorebi = dir.path().join("komorebi.json");
    let listed = serde_json::json!({ "bar_configurations": [own, planted] });
    std::fs::write(&komorebi, listed.to_string()).unwrap();

    let checked = within(Duration::from_secs(10), obi().arg("check").arg("--komorebi-config").arg(&komorebi));
    let said = String::from_utf8_lossy(&checked.stdout).into_owned() + &String::from_utf8_lossy(&checked.stderr);
    assert!(!checked.status.success(), "{said}");
    let foreign = format!("{} belongs to another user (uid {OTHER_USER}); a config runs commands", planted.display());
    assert!(said.contains(&foreign) && said.contains("`chown`"), "obi check said: {said}");

    let log_path = dir.path().join("obi.log");
    let bar = obi()
        .arg("--komorebi-config")
        .arg(&komorebi)
        .env("DISPLAY", &session.display)
        .stderr(Stdio::from(std::fs::File::create(&log_path).unwrap()))
        .spawn()
        .unwrap();
    let mut bar = Reaped(bar);
    let log = || std::fs::read_to_string(&log_path).unwrap_or_default();
    let clock = || bar_strip(&session);
    assert!(wait_for(Duration::from_secs(20), || inked(&clock(), 880, 1280)), "the user's own bar drew: {}", log());
    assert!(log().contains(&foreign), "the bar said why it left one out: {}", log());

    // The user's own config, left open to others, rewritten by another user.
    std::fs::set_permissions(&own, std::fs::Permissions::from_mode(0o666)).unwrap();
    as_other_user(&format!("cat > '{}' <<'END'\n{}\nEND", own.display(), marking_config(&rewritten_mark)));
    let refused = format!("{} may be written by others (mode 666); a config runs commands", own.display());
    assert!(wait_for(Duration::from_secs(10), || log().contains(&refused)), "the reload was refused: {}", log());
    assert!(log().contains("`chmod go-w`"), "saying how to mend it: {}", log());
    assert!(bar.0.try_wait().unwrap().is_none(), "the bar runs on: {}", log());
    assert!(inked(&clock(), 0, 400), "with its last good config");
    assert!(!planted_mark.exists() && !rewritten_mark.exists(), "another user's command ran: {}", log());
}
