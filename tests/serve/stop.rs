//! The optimisers' answers with progress (`POST <route>/events`), and Stop: the same bytes as
//! the plain route after progress that moves, and a client that goes away frees its solver at
//! once instead of at its time limit.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::common::run;
use crate::server::{Server, get, post};

/// The events of a server-sent answer: (name, data), the data lines joined by newlines.
fn parse_events(text: &str) -> Vec<(String, String)> {
    text.split("\n\n")
        .filter(|block| !block.is_empty())
        .map(|block| {
            let mut name = String::from("message");
            let mut data: Vec<&str> = Vec::new();
            for line in block.split('\n') {
                if let Some(n) = line.strip_prefix("event: ") {
                    name = n.to_string();
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data.push(d);
                }
            }
            (name, data.join("\n"))
        })
        .collect()
}

fn generate(args: &[&str]) -> Vec<u8> {
    let r = run(args, b"");
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

/// `/api/showdown/trace/events` and `/api/showdown/events` answer the plain route's bytes
/// after progress in steps that grows to its total; `/api/nqueens/best/events` too; a bad
/// request is an `error` event with its status.
#[test]
fn events_answer_the_same_bytes_after_their_progress() {
    let server = Server::start(&[]);
    let input = generate(&["showdown", "gen", "--kind", "largest"]);
    let input = &input[..];
    for (route, query) in [
        ("/api/showdown/trace", "steps=4000&seed=3&trace_steps=500"),
        ("/api/showdown", "steps=4000&seed=3"),
    ] {
        let plain = post(&server.url(&format!("{route}?{query}")), input);
        assert_eq!(plain.status, 200, "{}", plain.text());
        let answer = post(&server.url(&format!("{route}/events?{query}")), input);
        assert_eq!(answer.status, 200);
        assert_eq!(answer.content_type, "text/event-stream");
        let events = parse_events(&answer.text());
        let (last, progress) = events.split_last().unwrap();
        assert_eq!(last.0, "result", "{last:?}");
        assert_eq!(last.1, plain.text(), "{route}: the events' answer");
        let mut before = 0;
        for (name, data) in progress {
            assert_eq!(name, "progress");
            let p: serde_json::Value = serde_json::from_str(data).unwrap();
            let (done, total) = (p["done"].as_u64().unwrap(), p["total"].as_u64().unwrap());
            assert!(done >= before && done <= total, "{data}");
            // 15 tests, each with one or two searches of 4,000 steps.
            assert!(
                total == 0 || total == 15 * 4000 || total == 15 * 8000,
                "{data}"
            );
            before = done;
        }
    }
    // The showdown's answer with a step count is the command line's.
    let file = crate::common::temp_file("largest.txt", input);
    let cli = run(
        &[
            "showdown",
            "--format",
            "json",
            "--steps",
            "4000",
            "--seed",
            "3",
            file.to_str().unwrap(),
        ],
        b"",
    );
    let answer = post(
        &server.url("/api/showdown/events?steps=4000&seed=3&format=json"),
        input,
    );
    let events = parse_events(&answer.text());
    assert_eq!(events.last().unwrap().1, cli.stdout_text());
    // nqueens best, in both formats.
    let weights = b"1\n4\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 16\n";
    for query in ["", "?format=judge"] {
        let plain = post(&server.url(&format!("/api/nqueens/best{query}")), weights);
        assert_eq!(plain.status, 200, "{}", plain.text());
        let answer = post(
            &server.url(&format!("/api/nqueens/best/events{query}")),
            weights,
        );
        let events = parse_events(&answer.text());
        assert_eq!(
            events.last().unwrap(),
            &("result".to_string(), plain.text())
        );
    }
    // Its progress is told in boards proven: four boards of 26x26 take about a second.
    let mut state = 5u64;
    let mut weights = String::from("4\n");
    for _ in 0..4 {
        weights.push_str("26\n");
        for _ in 0..26 {
            let row: Vec<String> = (0..26)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((state >> 33) % 99 + 1).to_string()
                })
                .collect();
            weights.push_str(&row.join(" "));
            weights.push('\n');
        }
    }
    let answer = post(
        &server.url("/api/nqueens/best/events?format=judge&time_limit=10"),
        weights.as_bytes(),
    );
    let events = parse_events(&answer.text());
    let (last, progress) = events.split_last().unwrap();
    assert_eq!(last.0, "result", "{last:?}");
    let cli = run(&["nqueens", "best"], weights.as_bytes());
    assert_eq!(last.1, cli.stdout_text());
    let mut before = 0;
    for (name, data) in progress {
        assert_eq!(name, "progress");
        let p: serde_json::Value = serde_json::from_str(data).unwrap();
        let (done, total) = (p["done"].as_u64().unwrap(), p["total"].as_u64().unwrap());
        assert!(done >= before && done <= total && total <= 4, "{data}");
        before = done;
    }
    assert!(
        progress
            .iter()
            .any(|(_, data)| data.contains(r#""total":4"#)),
        "no board counted in {progress:?}"
    );
    // A refusal: its status and message in an `error` event.
    let answer = post(&server.url("/api/showdown/events?steps=10000000"), input);
    let events = parse_events(&answer.text());
    let (name, data) = events.last().unwrap();
    assert_eq!(name, "error");
    let e: serde_json::Value = serde_json::from_str(data).unwrap();
    assert_eq!(e["status"], 400);
    assert!(
        e["error"].as_str().unwrap().starts_with("steps: "),
        "{data}"
    );
    assert!(server.stop(Duration::from_secs(15)).success());
}

/// The request line and headers of a POST of `body` to `path` on `host`.
fn post_request(host: &str, path: &str, body: &[u8]) -> Vec<u8> {
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    request
}

/// With one solver, a showdown of 20 s whose client goes away (the page's Stop, a tab closed)
/// after its first progress event stops: the next request has the solver within a few seconds,
/// long before the first one's time limit (the solve once went on to its limit, holding the
/// solver, and the next request waited or was refused with a 503).
#[test]
fn a_client_gone_frees_its_solver_at_once() {
    let server = Server::start(&["--solvers", "1", "--max-time", "30"]);
    let host = server.base.trim_start_matches("http://").to_string();
    let input = generate(&["showdown", "gen", "--kind", "largest"]);
    for path in [
        "/api/showdown/events?time_limit=20",
        "/api/showdown/trace/events?time_limit=20",
    ] {
        let mut stream = TcpStream::connect(&host).unwrap();
        stream
            .write_all(&post_request(&host, path, &input))
            .unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut seen = Vec::new();
        let mut buffer = [0u8; 4096];
        while !String::from_utf8_lossy(&seen).contains("event: progress") {
            let n = stream.read(&mut buffer).expect("the first progress event");
            assert!(n > 0, "{}", String::from_utf8_lossy(&seen));
            seen.extend_from_slice(&buffer[..n]);
        }
        assert!(String::from_utf8_lossy(&seen).starts_with("HTTP/1.1 200"));
        // The solve is under way, holding the only solver: the client goes.
        drop(stream);
        let asked = Instant::now();
        let answer = get(&server.url("/api/nqueens/count?n=8"));
        let waited = asked.elapsed();
        assert_eq!(answer.status, 200, "{path}: {}", answer.text());
        assert!(
            waited < Duration::from_secs(4),
            "{path}: the next request waited {waited:?} for the solver"
        );
    }
    assert!(server.stop(Duration::from_secs(15)).success());
}
