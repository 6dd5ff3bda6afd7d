//! Helpers of the server tests: the real binary started as `chess-puzzles serve` on an
//! ephemeral loopback port, and an HTTP client.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::common::command;

/// A `chess-puzzles serve` process, stopped with Ctrl-C (SIGINT) by [`Server::stop`] or killed
/// when dropped.
pub struct Server {
    child: Option<Child>,
    /// The server's address, e.g. `http://127.0.0.1:41234` (no final slash).
    pub base: String,
}

impl Server {
    /// Starts the binary on a free loopback port with `args` added, and waits for its URL.
    pub fn start(args: &[&str]) -> Server {
        Server::start_with_env(args, &[])
    }

    /// [`Server::start`] with these variables added to its environment.
    pub fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = command()
            .args(["serve", "--port", "0"])
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the server prints its URL");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("a URL in {line:?}"));
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        Server {
            child: Some(child),
            base: url.trim_end_matches('/').to_string(),
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// The server's peak resident memory so far, in KiB (VmHWM).
    pub fn peak_memory_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .expect("the server's /proc status");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM")
    }

    /// Sends Ctrl-C (SIGINT) and waits at most `within` for the process to end.
    pub fn stop(mut self, within: Duration) -> ExitStatus {
        let mut child = self.child.take().expect("running");
        let sent = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let started = Instant::now();
        loop {
            if let Some(status) = child.try_wait().expect("waiting works") {
                return status;
            }
            if started.elapsed() > within {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the server did not stop within {within:?} of Ctrl-C");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `base` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// An answer: status, content type and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub content_type: String,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("UTF-8 body")
    }

    /// The JSON error body of a refusal.
    pub fn error(&self) -> serde_json::Value {
        assert_eq!(self.content_type, "application/json", "{}", self.text());
        serde_json::from_slice(&self.body).expect("a JSON error body")
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

fn answer(
    result: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
) -> Result<Answer, ureq::Error> {
    let mut response = result?;
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let body = response
        .body_mut()
        .with_config()
        .limit(1 << 30)
        .read_to_vec()?;
    Ok(Answer {
        status,
        content_type,
        body,
    })
}

/// POSTs `body` to `url`; `Err` for a transport failure.
pub fn try_post(url: &str, body: &[u8], headers: &[(&str, &str)]) -> Result<Answer, ureq::Error> {
    let mut request = agent().post(url);
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    answer(request.send(body))
}

/// POSTs `body` to `url`.
pub fn post(url: &str, body: &[u8]) -> Answer {
    try_post(url, body, &[]).unwrap_or_else(|e| panic!("POST {url}: {e}"))
}

/// GETs `url` with extra headers.
pub fn get_with(url: &str, headers: &[(&str, &str)]) -> Answer {
    let mut request = agent().get(url);
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    answer(request.call()).unwrap_or_else(|e| panic!("GET {url}: {e}"))
}

/// GETs `url`; `Err` for a transport failure (an answer cut off included).
pub fn try_get(url: &str) -> Result<Answer, ureq::Error> {
    answer(agent().get(url).call())
}

/// GETs `url`.
pub fn get(url: &str) -> Answer {
    get_with(url, &[])
}

/// The status of a POST to `path` that declares a body of `length` bytes but sends none (the
/// server can refuse it from the header alone; sending the body first would race with the
/// server closing the connection). `None` if no status line came back.
pub fn status_of_declared_body(base: &str, path: &str, length: u64) -> Option<u16> {
    use std::io::Write;
    let host = base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(host).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain\r\n\
         Content-Length: {length}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    text.split_whitespace().nth(1)?.parse().ok()
}
