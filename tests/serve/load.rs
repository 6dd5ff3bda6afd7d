//! A load test of `chess-puzzles serve` (the real binary on an ephemeral loopback port): a few
//! hundred concurrent requests at once, valid, malformed, oversized, slow to solve and slow to
//! send. The server stays up, every valid answer has the command line's bytes (a request told
//! 503 "busy" tries again, as a script would), every refusal is the expected one, memory stays
//! bounded, and everything ends by itself within a minute.

use std::io::Read;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::run;
use crate::server::{Answer, Server, post, status_of_declared_body, try_post};

/// What one request is and what it must get.
#[derive(Clone)]
enum Request {
    /// A valid input: 200 with exactly these bytes.
    Valid {
        path: String,
        body: Vec<u8>,
        expected: Vec<u8>,
    },
    /// A malformed input: 400 with this error body.
    Malformed {
        path: String,
        body: Vec<u8>,
        expected: serde_json::Value,
    },
    /// A body over the limit: 413 (or the connection closed while it was still sending).
    Oversized { path: String, body: Vec<u8> },
    /// A solve that runs into its time limit: 504, or 200.
    Slow { path: String, body: Vec<u8> },
    /// A valid input sent in small pieces with pauses: 200 with these bytes.
    SlowUpload {
        path: String,
        body: Vec<u8>,
        expected: Vec<u8>,
    },
}

/// A body that arrives in pieces of 256 bytes, 50 ms apart.
struct Trickle {
    data: Vec<u8>,
    at: usize,
}

impl Read for Trickle {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at >= self.data.len() {
            return Ok(0);
        }
        thread::sleep(Duration::from_millis(50));
        let n = buf.len().min(256).min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn cli(args: &[&str], input: &[u8]) -> Vec<u8> {
    let r = run(args, input);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

/// The 400 body the API must give for an input the command refuses.
fn cli_error(args: &[&str], input: &[u8]) -> serde_json::Value {
    let r = run(args, input);
    assert_eq!(r.code, 2, "{args:?} refuses it");
    let rest = r.stderr.trim_end().strip_prefix("error: <stdin>:").unwrap();
    let mut parts = rest.splitn(3, ':');
    let line: u64 = parts.next().unwrap().parse().unwrap();
    let column: u64 = parts.next().unwrap().parse().unwrap();
    let error = parts.next().unwrap().trim_start();
    serde_json::json!({"error": error, "line": line, "column": column})
}

fn requests() -> Vec<Request> {
    let generate = |args: &[&str]| cli(args, b"");
    let mut valid = Vec::new();
    for seed in ["1", "2"] {
        let q = generate(&["queens", "gen", "--seed", seed, "--cases", "50"]);
        valid.push((
            "/api/queens".to_string(),
            cli(&["queens", "--format", "json"], &q),
            q,
        ));
        let s = generate(&["sultan", "gen", "--seed", seed, "--boards", "20"]);
        valid.push((
            "/api/sultan".to_string(),
            cli(&["sultan", "--format", "json"], &s),
            s,
        ));
        let t = generate(&["tour", "gen", "--seed", seed, "--scenarios", "5"]);
        valid.push(("/api/tour?format=judge".to_string(), cli(&["tour"], &t), t));
    }
    valid.push((
        "/api/nqueens/count?n=10&fix=1,2".to_string(),
        cli(
            &["nqueens", "count", "10", "--fix", "1,2", "--format", "json"],
            b"",
        ),
        Vec::new(),
    ));
    valid.push((
        "/api/nqueens/list?n=8&limit=10".to_string(),
        cli(
            &["nqueens", "list", "8", "--limit", "10", "--format", "json"],
            b"",
        ),
        Vec::new(),
    ));
    let best =
        b"1\n6\n1 2 3 4 5 6\n6 5 4 3 2 1\n1 1 1 1 1 1\n9 9 9 9 9 9\n2 4 6 8 10 12\n3 1 4 1 5 9\n"
            .to_vec();
    valid.push((
        "/api/nqueens/best".to_string(),
        cli(&["nqueens", "best", "--format", "json"], &best),
        best,
    ));
    let showdown = std::fs::read("tests/data/showdown/sample.in").unwrap();
    valid.push((
        "/api/showdown?steps=2000&seed=3".to_string(),
        cli(
            &[
                "showdown", "--format", "json", "--steps", "2000", "--seed", "3",
            ],
            &showdown,
        ),
        showdown,
    ));

    let malformed: Vec<(String, Vec<u8>, serde_json::Value)> = [
        ("queens", b"2\n1 1\n9 9\n".to_vec()),
        ("queens", b"1\n1 x\n".to_vec()),
        ("sultan", b"1\n1 2 3\n".to_vec()),
        ("tour", b"1\n........\n".to_vec()),
        ("showdown", b"1\n3\n#__\n_#_\n__#\n1 1 1 1 1 1 1\n".to_vec()),
        ("nqueens/best", b"1\n4\n1 2 3 4\n5 6 x 8\n".to_vec()),
    ]
    .into_iter()
    .map(|(p, body)| {
        let args: Vec<&str> = match p {
            "nqueens/best" => vec!["nqueens", "best"],
            other => vec![other],
        };
        let expected = cli_error(&args, &body);
        (format!("/api/{p}"), body, expected)
    })
    .collect();

    let mut all = Vec::new();
    for i in 0..300 {
        let r = match i % 20 {
            0..=9 => {
                let (path, expected, body) = valid[i % valid.len()].clone();
                Request::Valid {
                    path,
                    body,
                    expected,
                }
            }
            10..=14 => {
                let (path, body, expected) = malformed[i % malformed.len()].clone();
                Request::Malformed {
                    path,
                    body,
                    expected,
                }
            }
            15 | 16 => Request::Oversized {
                path: "/api/queens".to_string(),
                body: vec![b'1'; 2 << 20],
            },
            17 => Request::Slow {
                path: if i % 40 == 17 {
                    "/api/nqueens/count?n=18&time_limit=0.3".to_string()
                } else {
                    "/api/showdown?time_limit=0.3".to_string()
                },
                body: std::fs::read("tests/data/showdown/sample.in").unwrap(),
            },
            _ => {
                let (path, expected, body) = valid[i % 3].clone();
                Request::SlowUpload {
                    path,
                    body,
                    expected,
                }
            }
        };
        all.push(r);
    }
    all
}

/// Sends `request`, trying again after a 503 (at most 100 times, 100 ms apart).
fn send(base: &str, request: &Request) -> Result<Answer, String> {
    for _ in 0..100 {
        let answer = match request {
            Request::Valid { path, body, .. }
            | Request::Malformed { path, body, .. }
            | Request::Oversized { path, body }
            | Request::Slow { path, body } => try_post(&format!("{base}{path}"), body, &[]),
            Request::SlowUpload { path, body, .. } => {
                let agent: ureq::Agent = ureq::Agent::config_builder()
                    .http_status_as_error(false)
                    .timeout_global(Some(Duration::from_secs(60)))
                    .build()
                    .into();
                let mut trickle = Trickle {
                    data: body.clone(),
                    at: 0,
                };
                agent
                    .post(&format!("{base}{path}"))
                    .send(ureq::SendBody::from_reader(&mut trickle))
                    .and_then(|mut r| {
                        let status = r.status().as_u16();
                        let content_type = r
                            .headers()
                            .get("content-type")
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or_default()
                            .to_string();
                        let body = r.body_mut().read_to_vec()?;
                        Ok(Answer {
                            status,
                            content_type,
                            body,
                        })
                    })
            }
        };
        match answer {
            Ok(a) if a.status == 503 => thread::sleep(Duration::from_millis(100)),
            Ok(a) => return Ok(a),
            Err(e) => return Err(e.to_string()),
        }
    }
    Err("503 a hundred times".to_string())
}

#[test]
fn a_few_hundred_mixed_requests_at_once() {
    let requests = requests();
    let server = Server::start(&["--max-time", "3"]);
    let base = server.base.clone();
    let started = Instant::now();
    let barrier = Arc::new(Barrier::new(requests.len()));
    let handles: Vec<_> = requests
        .into_iter()
        .map(|request| {
            let base = base.clone();
            let barrier = barrier.clone();
            thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || {
                    barrier.wait();
                    let answer = send(&base, &request);
                    (request, answer)
                })
                .unwrap()
        })
        .collect();
    let mut counts = [0usize; 6];
    for handle in handles {
        let (request, answer) = handle.join().expect("a client thread");
        match (&request, answer) {
            (Request::Valid { expected, path, .. }, Ok(a))
            | (Request::SlowUpload { expected, path, .. }, Ok(a)) => {
                assert_eq!(a.status, 200, "{path}: {}", a.text());
                assert_eq!(&a.body, expected, "{path}");
                counts[0] += 1;
            }
            (Request::Malformed { expected, path, .. }, Ok(a)) => {
                assert_eq!(a.status, 400, "{path}: {}", a.text());
                assert_eq!(&a.error(), expected, "{path}");
                counts[1] += 1;
            }
            (Request::Oversized { .. }, Ok(a)) => {
                assert_eq!(a.status, 413, "{}", a.text());
                counts[2] += 1;
            }
            // The server answered 413 and closed before the client had sent everything.
            (Request::Oversized { .. }, Err(_)) => counts[3] += 1,
            (Request::Slow { path, .. }, Ok(a)) => {
                assert!(
                    a.status == 504 || a.status == 200,
                    "{path}: {} {}",
                    a.status,
                    a.text()
                );
                if a.status == 200 {
                    let json: serde_json::Value = serde_json::from_slice(&a.body).unwrap();
                    assert_eq!(json["cost"], 3, "{path}");
                }
                counts[4] += 1;
            }
            (request, Err(e)) => {
                let path = match request {
                    Request::Valid { path, .. }
                    | Request::Malformed { path, .. }
                    | Request::Slow { path, .. }
                    | Request::SlowUpload { path, .. }
                    | Request::Oversized { path, .. } => path,
                };
                panic!("{path}: {e}");
            }
        }
    }
    let elapsed = started.elapsed();
    // Still up and right.
    let answer = post(&format!("{base}/api/queens?format=judge"), b"1\n1 1\n");
    assert_eq!(
        answer.text(),
        cli(&["queens"], b"1\n1 1\n")
            .iter()
            .map(|&b| b as char)
            .collect::<String>()
    );
    let peak = server.peak_memory_kib();
    eprintln!(
        "load: {} valid answers right, {} malformed refused, {} oversized refused (+{} cut off), \
         {} slow answered; {:.1} s; server peak memory {} MiB",
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        counts[4],
        elapsed.as_secs_f64(),
        peak / 1024
    );
    // Quiet again, a body declared just over the limit is refused with its status.
    assert_eq!(
        status_of_declared_body(&base, "/api/queens", (1 << 20) + 1),
        Some(413)
    );
    assert!(peak < 256 * 1024, "peak memory {peak} KiB");
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
    let status = server.stop(Duration::from_secs(10));
    assert!(status.success(), "{status:?}");
}
