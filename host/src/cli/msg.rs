//! `obi msg COMMAND`: control the running bars.

/// `obi msg COMMAND`: each bar's reply; any error fails the command.
pub fn send(request: obi::control::Request, pid: Option<u32>) -> anyhow::Result<()> {
    // Windows lets the process of the user's last input (the hotkey that
    // ran this) hand the foreground on: the bar takes it with the keyboard.
    #[cfg(windows)]
    if request.command == obi::control::Command::Focus {
        // SAFETY: a plain call; a refusal changes nothing.
        unsafe {
            use windows::Win32::UI::WindowsAndMessaging::{ASFW_ANY, AllowSetForegroundWindow};
            let _ = AllowSetForegroundWindow(ASFW_ANY);
        }
    }
    let replies = obi::control::send(request, pid)?;
    let mut failed = false;
    for (pid, reply) in replies {
        println!("{pid}: {reply}");
        failed |= reply.starts_with("error");
    }
    if failed { Err(anyhow::anyhow!("a bar did not take the command")) } else { Ok(()) }
}
