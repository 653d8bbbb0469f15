//! A real headless Chromium driven through chromedriver over the W3C WebDriver protocol, for
//! the HTML page's tests.
//!
//! A small client over ureq rather than fantoccini or thirtyfour: both are async and would
//! bring tokio and hyper into the dev-dependencies (minutes of compile on CI's 2 cores) for
//! the eight plain HTTP calls these tests make (new session, navigate, execute script, window
//! size, screenshot, a Chrome DevTools command, delete); ureq is already a dependency.
//!
//! Chromium runs with the flags that keep it off the network here (no QUIC, no first-run,
//! background networking, component updates or sync) and a fresh profile.

use super::free_port;
use super::needs::{needs, program, Need};
use serde_json::{json, Value};

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A browser session, or `None` (after one "skipped" line) where chromium or chromedriver is
/// missing: `TENURE_EVAL_CHROMIUM` / `TENURE_EVAL_CHROMEDRIVER`, else on the PATH. Under
/// `TENURE_EVAL_REQUIRE_ALL=1` (scripts/test.sh, which installs them) a missing one fails the
/// test instead ([`super::needs`]).
pub fn browser_or_skip() -> Option<Browser> {
    if !needs(&[Need::Chromium]) {
        return None;
    }
    let chromium = program("TENURE_EVAL_CHROMIUM", "chromium")?;
    let driver = program("TENURE_EVAL_CHROMEDRIVER", "chromedriver")?;
    Some(Browser::start(&chromium, &driver))
}

/// One browser session; chromedriver and Chromium stop when it drops.
pub struct Browser {
    driver: Child,
    base: String,
    agent: ureq::Agent,
    _profile: tempfile::TempDir,
}

impl Browser {
    fn start(chromium: &Path, chromedriver: &Path) -> Browser {
        let port = free_port();
        let profile = tempfile::tempdir().unwrap();
        // Chromium's own scratch folders (org.chromium.Chromium.scoped_dir.*) go in TMPDIR and
        // outlive a killed browser: put them in the profile, which is removed with it.
        let driver = Command::new(chromedriver)
            .args([format!("--port={port}"), "--allowed-ips=127.0.0.1".into()])
            .env("TMPDIR", profile.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(60)))
            .http_status_as_error(false)
            .build()
            .into();
        let mut browser = Browser {
            driver,
            base: format!("http://127.0.0.1:{port}"),
            agent,
            _profile: profile,
        };
        let started = Instant::now();
        while browser
            .agent
            .get(format!("{}/status", browser.base))
            .call()
            .is_err()
        {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([format!(
            "--user-data-dir={}",
            browser._profile.path().display()
        )])
        .collect::<Vec<_>>();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
        }}});
        let session = browser.call("POST", "/session", Some(caps));
        let id = session["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        browser.base = format!("{}/session/{id}", browser.base);
        browser
    }

    /// One WebDriver call; returns its `value`, panicking on a WebDriver error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let sent = match (method, body) {
            ("GET", _) => self.agent.get(&url).call(),
            ("DELETE", _) => self.agent.delete(&url).call(),
            (_, body) => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json")
                .send(body.unwrap_or(json!({})).to_string().as_bytes()),
        };
        let mut response = sent.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let text = response.body_mut().read_to_string().unwrap();
        let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if let Some(err) = v["value"]["error"].as_str() {
            panic!("{method} {path}: {err}: {}", v["value"]["message"]);
        }
        v["value"].clone()
    }

    /// Navigate to `url` and wait for the load.
    pub fn goto(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    /// Run `script` (a function body; `arguments` are `args`) and return its value.
    pub fn js(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Run `script` until it returns something truthy (the page renders on events), or
    /// panic after 10 s.
    pub fn wait(&self, script: &str) -> Value {
        let started = Instant::now();
        loop {
            let v = self.js(script, json!([]));
            if !(v.is_null() || v == json!(false) || v == json!(0) || v == json!("")) {
                return v;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "timed out waiting for {script}"
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// The window's size.
    pub fn size(&self, width: u32, height: u32) {
        self.call(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        );
    }

    /// A Chrome DevTools Protocol command (emulated media, network conditions).
    pub fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.call(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": cmd, "params": params})),
        )
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Vec<u8> {
        use base64::Engine;
        let b64 = self.call("GET", "/screenshot", None);
        base64::engine::general_purpose::STANDARD
            .decode(b64.as_str().unwrap())
            .unwrap()
    }

    /// A file URL for `path`, with `fragment` (no `#`) when not empty.
    pub fn file_url(path: &Path, fragment: &str) -> String {
        let path = path.canonicalize().unwrap();
        let mut url = format!("file://{}", path.display());
        if !fragment.is_empty() {
            url.push('#');
            url.push_str(fragment);
        }
        url
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.agent.delete(&self.base).call();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
