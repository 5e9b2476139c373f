//! `obi msg COMMAND`: control the running bars.

/// `obi msg COMMAND`: each bar's reply; any error fails the command.
pub fn send(request: obi::control::Request, pid: Option<u32>) -> anyhow::Result<()> {
    let replies = obi::control::send(request, pid)?;
    let mut failed = false;
    for (pid, reply) in replies {
        println!("{pid}: {reply}");
        failed |= reply.starts_with("error");
    }
    if failed { Err(anyhow::anyhow!("a bar did not take the command")) } else { Ok(()) }
}
