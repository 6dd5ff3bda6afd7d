//! The answer function against the library's own functions (which the command line runs):
//! the same bytes, and every refusal a status and one line of JSON.

// Options built with `..Default::default()`, as the endpoints build them.
#![allow(clippy::needless_update)]

use std::time::Duration;

use super::*;
use crate::{queens, showdown, sultan, tour};

fn ask(path: &str, query: Option<&str>, body: &[u8]) -> Reply {
    answer(path, query, body, &Limits::default())
}

fn error_of(reply: &Reply) -> serde_json::Value {
    assert_eq!(reply.content_type, JSON);
    assert_eq!(reply.body.last(), Some(&b'\n'));
    serde_json::from_slice(&reply.body).unwrap()
}

#[test]
fn the_judge_puzzles_answer_as_their_run_functions() {
    let input = queens::SAMPLE.input.as_bytes();
    let mut expected = Vec::new();
    let options = queens::Options {
        format: OutputFormat::Json,
        ..queens::Options::default()
    };
    queens::run(input, &mut expected, &options).unwrap();
    let reply = ask("/api/queens", None, input);
    assert_eq!((reply.status, reply.content_type), (200, JSON_LINES));
    assert_eq!(reply.body, expected);

    let mut expected = Vec::new();
    let options = queens::Options {
        format: OutputFormat::Judge,
        style: queens::Style::Uva,
        ..queens::Options::default()
    };
    queens::run(input, &mut expected, &options).unwrap();
    let reply = ask("/api/queens", Some("format=judge&uva"), input);
    assert_eq!((reply.status, reply.content_type), (200, TEXT));
    assert_eq!(reply.body, expected);

    let input = sultan::SAMPLE.input.as_bytes();
    let mut expected = Vec::new();
    sultan::run(input, &mut expected, &sultan::Options::default()).unwrap();
    let reply = ask("/sultan", Some("format=judge"), input);
    assert_eq!(reply.body, expected);

    let input = tour::SAMPLE.input.as_bytes();
    let mut expected = Vec::new();
    let options = tour::Options {
        format: OutputFormat::Board,
        ..tour::Options::default()
    };
    tour::run(input, &mut expected, &options).unwrap();
    let reply = ask("/api/tour", Some("format=board"), input);
    assert_eq!(reply.body, expected);

    let reply = ask("/api/tour", Some("format=svg"), input);
    assert_eq!((reply.status, reply.content_type), (200, SVG));
    assert!(reply.body.starts_with(b"<svg") || reply.body.starts_with(b"<?xml"));
}

#[test]
fn a_showdown_with_steps_is_the_command_lines() {
    let input = showdown::SAMPLE.input.as_bytes();
    let options = showdown::Options {
        format: OutputFormat::Judge,
        steps: Some(200),
        seed: 1,
        time_limit: Duration::from_secs(10),
        ..showdown::Options::default()
    };
    let mut expected = Vec::new();
    showdown::run(input, &mut expected, &options).unwrap();
    let reply = ask(
        "/api/showdown",
        Some("format=judge&steps=200&seed=1"),
        input,
    );
    assert_eq!(reply.status, 200);
    assert_eq!(String::from_utf8(reply.body), String::from_utf8(expected));

    let reply = ask("/api/showdown/trace", Some("steps=50&seed=1"), input);
    assert_eq!((reply.status, reply.content_type), (200, JSON_LINES));
    assert!(!reply.body.is_empty());
    let reply = ask("/api/showdown/trace", Some("greedy"), input);
    assert_eq!(reply.status, 400);
}

#[test]
fn the_nqueens_endpoints_take_their_board_from_the_query() {
    let reply = ask("/api/nqueens/count", Some("n=6&fix=1,2"), b"");
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, b"{\"n\":6,\"given\":[[1,2]],\"count\":1}\n");
    let reply = ask("/api/nqueens/count", Some("n=8&format=judge"), b"");
    assert_eq!((reply.status, reply.body.as_slice()), (200, &b"92\n"[..]));

    let reply = ask("/api/nqueens/list", Some("n=4&format=judge"), b"");
    assert_eq!(reply.status, 200);
    assert_eq!(String::from_utf8(reply.body).unwrap().lines().count(), 2);

    let reply = ask("/api/nqueens/trace", Some("n=4&steps=10"), b"");
    assert_eq!(reply.status, 200);
    assert!(reply.body.ends_with(b"\n"));

    let reply = ask(
        "/api/nqueens/best",
        None,
        b"1\n4\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 16\n",
    );
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
}

#[test]
fn the_page_s_own_endpoints_answer_json_lines() {
    let input = tour::SAMPLE.input;
    let reply = ask("/api/tour/explain", None, input.as_bytes());
    assert_eq!(reply.status, 200);
    assert!(reply.body.starts_with(b"{\"case\":1,"));

    let body = serde_json::json!({"input": input, "moves": ["zz"]}).to_string();
    let reply = ask("/api/tour/walk", None, body.as_bytes());
    assert_eq!(reply.status, 400);
    assert_eq!(
        error_of(&reply)["error"],
        "moves[0]: expected a square a1..h8, found 'zz'"
    );
    let body = serde_json::json!({"input": input, "moves": []}).to_string();
    let reply = ask("/api/tour/walk", None, body.as_bytes());
    assert_eq!(reply.status, 200);
    assert!(
        reply
            .body
            .starts_with(b"{\"case\":1,\"stops\":[{\"square\":")
    );

    let body = serde_json::json!({"input": showdown::SAMPLE.input, "answers": [[[1, 1, 1]]]});
    let reply = ask("/api/showdown/checks", None, body.to_string().as_bytes());
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    assert!(reply.body.starts_with(b"{\"case\":1,"));

    for path in ["/api/queens/trace", "/api/sultan/trace", "/api/tour/trace"] {
        let input = match path {
            "/api/queens/trace" => queens::SAMPLE.input,
            "/api/sultan/trace" => sultan::SAMPLE.input,
            _ => tour::SAMPLE.input,
        };
        let reply = ask(path, None, input.as_bytes());
        assert_eq!(
            (reply.status, reply.content_type),
            (200, JSON_LINES),
            "{path}"
        );
    }
}

#[test]
fn refusals_are_a_status_and_one_line_of_json() {
    let reply = ask("/api/queens", None, b"1\n\n9 9\n");
    assert_eq!(reply.status, 400);
    let error = error_of(&reply);
    assert_eq!(error["line"], 3);
    assert!(error["column"].is_u64());

    let reply = ask("/api/nowhere", None, b"");
    assert_eq!(reply.status, 404);
    assert_eq!(
        error_of(&reply)["error"],
        "no such endpoint (docs/web.md lists them)"
    );

    for (path, query) in [
        ("/api/queens", "colour=red"),
        ("/api/queens", "format=pdf"),
        ("/api/nqueens/count", "n=8&n=9"),
        ("/api/nqueens/count", "fix=1,1"),
        ("/api/nqueens/count", "n=0"),
        ("/api/nqueens/count", "n=8&time_limit=-1"),
        ("/api/nqueens/count", "n=8&time_limit=NaN"),
        ("/api/nqueens/trace", "n=8&steps=99999999999"),
        ("/api/showdown", "steps=x"),
        ("/api/showdown/trace", "trace_steps=100000000"),
    ] {
        let reply = ask(path, Some(query), b"");
        assert_eq!(reply.status, 400, "{path}?{query}");
        error_of(&reply);
    }

    for (path, body) in [
        ("/api/tour/walk", &b"not json"[..]),
        ("/api/showdown/checks", b"{\"input\": \"1\\n2\\n\"}"),
        ("/api/showdown/checks", b"{\"input\": 3, \"answers\": []}"),
        ("/api/sultan", b"\xff\xfe"),
        ("/api/nqueens/best", b"-1\n"),
    ] {
        let reply = ask(path, None, body);
        assert_eq!(reply.status, 400, "{path} {body:?}");
        error_of(&reply);
    }
}

#[test]
fn a_count_past_its_time_limit_is_a_504() {
    let reply = ask("/api/nqueens/count", Some("n=20&time_limit=0.01"), b"");
    assert_eq!(reply.status, 504);
    assert!(
        error_of(&reply)["error"]
            .as_str()
            .unwrap()
            .starts_with("time limit reached after")
    );
}

#[test]
fn every_endpoint_has_one_route() {
    for endpoint in Endpoint::ALL {
        assert_eq!(Endpoint::from_path(endpoint.route()), Some(endpoint));
        let path = format!("/api{}", endpoint.route());
        assert_eq!(Endpoint::from_path(&path), Some(endpoint));
    }
    assert_eq!(Endpoint::from_path("/api/nqueens/count/events"), None);
    assert_eq!(Endpoint::from_path(""), None);
}

/// A showdown answered with a [`Watch`] gives the same bytes as without, and the watch ends at
/// every step of the budget (a 25x25 board that the search works on for all its steps); a
/// stopped watch ends a count at once.
#[test]
fn a_watched_solve_answers_the_same_and_tells_its_steps() {
    let rows: Vec<String> = (0..25)
        .map(|r| {
            (0..25)
                .map(|c| if (r + c) % 2 == 0 { '#' } else { '_' })
                .collect()
        })
        .collect();
    let input = format!("1\n25\n{}\n1 1 1 1 1 1 2 1\n", rows.join("\n"));
    let query = Some("steps=3000&seed=4&format=judge");
    let plain = ask("/api/showdown", query, input.as_bytes());
    assert_eq!(plain.status, 200);
    let ready = Endpoint::Showdown
        .prepare(query, &Limits::default())
        .and_then(|call| call.with_body(input.into_bytes()))
        .unwrap();
    let watch = Arc::new(Watch::default());
    let mut out = Vec::new();
    ready.write_watched(&mut out, &watch).unwrap();
    assert_eq!(out, plain.body);
    let searches = rayon::current_num_threads().clamp(1, 2) as u64;
    assert_eq!(watch.progress(), (3000 * searches, 3000 * searches));

    let watch = Arc::new(Watch::default());
    watch.stop();
    let ready = Endpoint::NqueensCount
        .prepare(Some("n=18"), &Limits::default())
        .and_then(|call| call.with_body(Vec::new()))
        .unwrap();
    let started = Instant::now();
    let refused = ready.write_watched(&mut Vec::new(), &watch).unwrap_err();
    assert_eq!(refused.status, error::GATEWAY_TIMEOUT);
    assert!(started.elapsed() < Duration::from_secs(1));
}
