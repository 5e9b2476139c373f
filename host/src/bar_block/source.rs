//! The tiler's side of the block: asked for once, then followed as it
//! changes, over the IPC socket sway and i3 share.

use super::{BarBlock, BlockEvent};
use crate::tiler::i3::ipc;
use anyhow::Context;
use serde::Deserialize;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::time::Duration;

const GET_BAR_CONFIG: u32 = 6;
const EVENT_BARCONFIG_UPDATE: u32 = ipc::EVENT | 4;
/// sway's own: the bar's modifier was pressed or released.
const EVENT_BAR_STATE_UPDATE: u32 = ipc::EVENT | 20;

/// An answer not read whole in this time has failed.
const TIMEOUT: Duration = Duration::from_secs(2);

/// The tiler's socket and the id of the block Obi stands in for.
#[derive(Debug, Clone)]
pub struct BlockSource {
    socket: PathBuf,
    id: String,
}

impl BlockSource {
    /// Block `id` of the tiler at `socket`, else at `$SWAYSOCK` or
    /// `$I3SOCK`, else where i3 says on the X server.
    pub fn new(id: &str, socket: Option<PathBuf>) -> anyhow::Result<BlockSource> {
        use crate::tiler::i3::{Flavour, socket_path};
        let socket = socket
            .or_else(|| socket_path(Flavour::Sway))
            .or_else(|| socket_path(Flavour::I3))
            .context("no sway or i3 to ask for the bar's block: give its IPC socket with --socket")?;
        Ok(BlockSource { socket, id: id.to_owned() })
    }

    fn connect(&self) -> anyhow::Result<UnixStream> {
        let stream = UnixStream::connect(&self.socket)
            .with_context(|| format!("cannot reach the tiler at {}", self.socket.display()))?;
        stream.set_read_timeout(Some(TIMEOUT))?;
        stream.set_write_timeout(Some(TIMEOUT))?;
        Ok(stream)
    }

    /// The block, as the tiler has it now.
    pub fn fetch(&self) -> anyhow::Result<BarBlock> {
        let mut stream = self.connect()?;
        let reply = ipc::request(&mut stream, GET_BAR_CONFIG, self.id.as_bytes())
            .with_context(|| format!("asking {} for bar {:?}", self.socket.display(), self.id))?;
        read_block(&self.id, &reply)
    }

    /// Hands each change of the block to `changed`, on a thread of its
    /// own, until the tiler goes away.
    pub fn follow(self, changed: impl Fn(BlockEvent) + Send + 'static) -> anyhow::Result<()> {
        let mut stream = self.connect()?;
        // i3 knows no `bar_state_update`, and refuses a list that names it.
        for events in [r#"["barconfig_update"]"#, r#"["bar_state_update"]"#] {
            ipc::request(&mut stream, ipc::SUBSCRIBE, events.as_bytes()).context("subscribing to the bar's events")?;
        }
        stream.set_read_timeout(None)?;
        std::thread::Builder::new().name("obi-bar-block".into()).spawn(move || {
            loop {
                let (kind, payload) = match ipc::read_frame(&mut stream) {
                    Ok(frame) => frame,
                    Err(error) => return tracing::info!("the tiler's bar block is not followed any more: {error}"),
                };
                if let Some(event) = self.event(kind, &payload) {
                    changed(event);
                }
            }
        })?;
        Ok(())
    }

    /// What an event says of this block, if anything.
    fn event(&self, kind: u32, payload: &[u8]) -> Option<BlockEvent> {
        match kind {
            EVENT_BARCONFIG_UPDATE => match read_block(&self.id, payload) {
                Ok(block) => Some(BlockEvent::Changed(Box::new(block))),
                // Another bar's block.
                Err(_) if !payload_names(payload, &self.id) => None,
                Err(error) => {
                    tracing::warn!("{error:#}; the bar keeps its block as it was");
                    None
                }
            },
            EVENT_BAR_STATE_UPDATE => {
                #[derive(Deserialize)]
                struct State {
                    id: String,
                    visible_by_modifier: bool,
                }
                let state: State = serde_json::from_slice(payload).ok()?;
                (state.id == self.id).then_some(BlockEvent::ModifierHeld(state.visible_by_modifier))
            }
            _ => None,
        }
    }
}

/// Block `id` in `reply`: the tiler's answer, or its event.
pub(super) fn read_block(id: &str, reply: &[u8]) -> anyhow::Result<BarBlock> {
    let block: BarBlock = serde_json::from_slice(reply).with_context(|| {
        let said = obi_markup::cut(String::from_utf8_lossy(reply).into_owned(), 200);
        format!("the tiler has no bar {id:?} (it said {said})")
    })?;
    anyhow::ensure!(block.id == id, "the tiler answered for bar {:?}, not {id:?}", block.id);
    Ok(block)
}

/// Whether `payload` is block `id`'s.
fn payload_names(payload: &[u8], id: &str) -> bool {
    serde_json::from_slice::<serde_json::Value>(payload).is_ok_and(|block| block["id"] == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_bars_block_and_a_refusal_are_told_apart() {
        let other = super::super::tests::SWAYS.replace("bar-0", "bar-1");
        let source = BlockSource { socket: PathBuf::new(), id: "bar-0".into() };
        assert_eq!(source.event(EVENT_BARCONFIG_UPDATE, other.as_bytes()), None);
        assert!(matches!(
            source.event(EVENT_BARCONFIG_UPDATE, super::super::tests::SWAYS.as_bytes()),
            Some(BlockEvent::Changed(_))
        ));
        let state = br#"{ "id": "bar-0", "visible_by_modifier": true }"#;
        assert_eq!(source.event(EVENT_BAR_STATE_UPDATE, state), Some(BlockEvent::ModifierHeld(true)));
        let refused = read_block("bar-9", br#"{ "success": false, "error": "No bar with the given id" }"#).unwrap_err();
        assert!(format!("{refused:#}").contains("the tiler has no bar \"bar-9\""), "{refused:#}");
    }
}
