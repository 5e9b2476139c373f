//! Files and folders that someone else may control: reading them without
//! waiting on a FIFO or swallowing a device ([`read_regular`], and
//! [`open_regular`] for a file to be mapped), reading code and configs
//! (which run commands) only from files nobody else may have written
//! ([`read_code`], [`read_config`]), and the folders where Obi keeps
//! compiled code and its control socket, which must be the user's own
//! ([`OwnDir`]); and the path a `file://` address names
//! ([`path_of_file_url`]).

mod bounded;
mod file_url;
mod own_dir;
mod ownership;

pub use bounded::{Unreadable, open_regular, read_code, read_config, read_regular};
pub use file_url::path_of_file_url;
pub use own_dir::OwnDir;
pub use ownership::Untrusted;
