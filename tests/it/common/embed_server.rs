//! A running `scripts/embed_server.py` (real MiniLM embeddings behind Ollama's and OpenAI's
//! APIs on 127.0.0.1), for the service tests and the service throughput bench.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/embed_server.py")
}

/// A running `embed_server.py`, killed when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
}

impl Server {
    /// Start the server on `model` (a model folder) with `extra` flags.
    pub fn start(model: &Path, python: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(python)
            .arg(script())
            .arg(model)
            .args(extra)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line.trim().strip_prefix("listening ").unwrap().to_string();
        Server {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }

    /// Embedding requests answered so far.
    pub fn requests(&self) -> u64 {
        let body = ureq::get(format!("{}/stats", self.url))
            .call()
            .unwrap()
            .body_mut()
            .read_to_string()
            .unwrap();
        serde_json::from_str::<Value>(&body).unwrap()["requests"]
            .as_u64()
            .unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
