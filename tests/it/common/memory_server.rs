//! A small memory system for the tests, on 127.0.0.1: it answers each request with what a
//! handler says and records what it received. Written on `std::net` rather than a server crate
//! so that it can also misbehave in ways a server crate will not (a body cut short, a dropped
//! connection, a slow answer).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A request as received.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    pub content_type: Option<String>,
    pub body: String,
}

/// What to answer.
#[derive(Debug, Clone)]
pub enum Reply {
    /// Status and JSON (or any) body.
    Body(u16, String),
    /// Wait, then answer.
    Slow(Duration, u16, String),
    /// Announce `declared` bytes, send `body`, close.
    Truncated(usize, String),
    /// Close without answering.
    Hangup,
}

pub fn json(value: serde_json::Value) -> Reply {
    Reply::Body(200, value.to_string())
}

type Handler = dyn Fn(&Received, usize) -> Reply + Send + Sync;

/// A running server; stops when dropped.
pub struct MemoryServer {
    pub url: String,
    pub log: Arc<Mutex<Vec<Received>>>,
    stop: Arc<AtomicBool>,
    addr: std::net::SocketAddr,
}

impl MemoryServer {
    /// Start; `handler(request, n)` answers, `n` counting earlier requests to the same path.
    pub fn start(
        handler: impl Fn(&Received, usize) -> Reply + Send + Sync + 'static,
    ) -> MemoryServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let log: Arc<Mutex<Vec<Received>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let (log2, stop2) = (log.clone(), stop.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let (log, handler) = (log2.clone(), handler.clone());
                std::thread::spawn(move || serve(stream, &log, handler.as_ref()));
            }
        });
        MemoryServer {
            url: format!("http://{addr}"),
            log,
            stop,
            addr,
        }
    }

    /// Requests received so far.
    pub fn received(&self) -> Vec<Received> {
        self.log.lock().unwrap().clone()
    }

    /// Requests to `path`.
    pub fn to(&self, path: &str) -> Vec<Received> {
        self.received()
            .into_iter()
            .filter(|r| r.path == path)
            .collect()
    }
}

impl Drop for MemoryServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
    }
}

fn serve(stream: TcpStream, log: &Mutex<Vec<Received>>, handler: &Handler) {
    let _ = stream.set_nodelay(true);
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let (method, path) = (
            parts.next().unwrap_or("").to_string(),
            parts.next().unwrap_or("").to_string(),
        );
        let (mut length, mut content_type) = (0usize, None);
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').unwrap_or((header, ""));
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap_or(0),
                "content-type" => content_type = Some(value.trim().to_string()),
                _ => {}
            }
        }
        let mut body = vec![0u8; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let received = Received {
            method,
            path,
            content_type,
            body: String::from_utf8_lossy(&body).into_owned(),
        };
        let n = {
            let mut log = log.lock().unwrap();
            let n = log.iter().filter(|r| r.path == received.path).count();
            log.push(received.clone());
            n
        };
        let (status, text, declared) = match handler(&received, n) {
            Reply::Body(s, t) => (s, t, None),
            Reply::Slow(wait, s, t) => {
                std::thread::sleep(wait);
                (s, t, None)
            }
            Reply::Truncated(d, t) => (200, t, Some(d)),
            Reply::Hangup => return,
        };
        let head = format!(
            "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            declared.unwrap_or(text.len())
        );
        if out.write_all(format!("{head}{text}").as_bytes()).is_err() || declared.is_some() {
            return;
        }
    }
}
