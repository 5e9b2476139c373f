//! The tiling window manager the bar serves: komorebi over its socket
//! protocol, i3 and sway over their IPC.

pub mod komorebi;
