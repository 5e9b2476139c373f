//! A release feed for the Update widget on a local port, announcing a
//! version above any Obi's to every request.

use std::io::{Read, Write};
use std::net::TcpListener;

/// The feed's URL.
pub fn newer_release_feed() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/releases", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let body = r#"{ "tag_name": "v999.0.0", "html_url": "https://example.org/obi/v999.0.0" }"#;
        for mut stream in listener.incoming().flatten() {
            let _ = stream.read(&mut [0u8; 4096]);
            let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len());
            let _ = stream.write_all(head.as_bytes()).and_then(|_| stream.write_all(body.as_bytes()));
        }
    });
    url
}
