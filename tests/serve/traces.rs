//! The API's traces and drawings against the command line, through the real binary: the
//! `trace` endpoints answer with the bytes of `--trace`, `format=svg` with those of `--format
//! svg`, a bad input with the command's located message, and the limits with the limit's
//! answer. The tour's explanation numbers its lines `case`, as every answer does.

use crate::common::run;
use crate::server::{Server, get, post, try_get};

fn cli(args: &[&str], input: &[u8]) -> String {
    let r = run(args, input);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout_text()
}

#[test]
fn traces_are_the_command_lines() {
    let server = Server::start(&[]);
    for (query, args) in [
        ("n=8&limit=1", vec!["nqueens", "list", "8", "--limit", "1"]),
        ("n=6&fix=2,1", vec!["nqueens", "list", "6", "--fix", "2,1"]),
        (
            "n=9&fix=1,1&fix=3,2&steps=700",
            vec![
                "nqueens",
                "list",
                "9",
                "--fix",
                "1,1",
                "--fix",
                "3,2",
                "--trace-steps",
                "700",
            ],
        ),
        ("n=3", vec!["nqueens", "list", "3"]),
    ] {
        let answer = get(&server.url(&format!("/api/nqueens/trace?{query}")));
        assert_eq!(answer.status, 200, "{query}: {}", answer.text());
        assert_eq!(answer.content_type, "application/x-ndjson");
        let mut args = args;
        args.push("--trace");
        assert_eq!(answer.text(), cli(&args, b""), "{query}");
    }
    let queens = b"3\n1 1\n5 4\n8 2\n";
    let sultan = std::fs::read("tests/data/sultan/sample.in").unwrap();
    let tour = std::fs::read("tests/data/tour/sample.in").unwrap();
    for (endpoint, args, input) in [
        ("queens/trace", vec!["queens", "--trace"], &queens[..]),
        (
            "queens/trace?steps=900",
            vec!["queens", "--trace", "--trace-steps", "900"],
            &queens[..],
        ),
        ("sultan/trace", vec!["sultan", "--trace"], &sultan[..]),
        ("tour/trace", vec!["tour", "--trace"], &tour[..]),
    ] {
        let answer = post(&server.url(&format!("/api/{endpoint}")), input);
        assert_eq!(answer.status, 200, "{endpoint}: {}", answer.text());
        assert_eq!(answer.text(), cli(&args, input), "{endpoint}");
    }
    // A bad input: the command's message, line and column.
    let answer = post(&server.url("/api/queens/trace"), b"2\n1 1\n9 1\n");
    assert_eq!(answer.status, 400);
    let error = answer.error();
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(3), Some(1))
    );
    let r = run(&["queens", "--trace"], b"2\n1 1\n9 1\n");
    assert!(r.stderr.contains(error["error"].as_str().unwrap()));
}

#[test]
fn traces_are_bounded_by_the_servers_limits() {
    let server = Server::start(&[]);
    let too_many = get(&server.url("/api/nqueens/trace?n=8&steps=1000001"));
    assert_eq!(too_many.status, 400);
    assert!(
        too_many.error()["error"]
            .as_str()
            .unwrap()
            .contains("at most 1000000")
    );
    let too_many = post(&server.url("/api/sultan/trace?steps=2000000"), b"");
    assert_eq!(too_many.status, 400);
    // The default limit: 100,000 steps, said by the last line.
    let long = get(&server.url("/api/nqueens/trace?n=40"));
    assert_eq!(long.status, 200);
    let text = long.text();
    assert_eq!(text.lines().count(), 100_002);
    assert!(
        text.lines()
            .last()
            .unwrap()
            .contains(r#""stopped_by":"steps""#)
    );
    // The time limit, as for a count: a 504 when it comes before the first chunk of the
    // answer is sent (256 KiB), else the transfer broken off (the trace writes about 250 MB/s
    // natively, so on a fast start the first chunk can go out within the millisecond); never
    // an answer that looks whole.
    match try_get(&server.url("/api/nqueens/trace?n=40&steps=1000000&time_limit=0.001")) {
        Ok(slow) => {
            assert_eq!(slow.status, 504, "{}", slow.text());
            assert!(
                slow.error()["error"]
                    .as_str()
                    .unwrap()
                    .starts_with("time limit reached")
            );
        }
        Err(e) => assert!(matches!(e, ureq::Error::Io(_)), "{e}"),
    }
}

#[test]
fn drawings_are_the_command_lines() {
    let server = Server::start(&[]);
    let queens = b"2\n1 1\n5 4\n";
    let sultan = std::fs::read("tests/data/sultan/sample.in").unwrap();
    let tour = std::fs::read("tests/data/tour/sample.in").unwrap();
    let showdown = std::fs::read("tests/data/showdown/sample.in").unwrap();
    let best = b"1\n4\n1 2 3 4\n5 6 7 8\n9 1 2 3\n4 5 6 7\n";
    for (endpoint, args, input) in [
        ("queens", vec!["queens"], &queens[..]),
        ("sultan", vec!["sultan"], &sultan[..]),
        ("tour", vec!["tour"], &tour[..]),
        (
            "showdown?steps=300&seed=2",
            vec!["showdown", "--steps", "300", "--seed", "2"],
            &showdown[..],
        ),
        ("nqueens/best", vec!["nqueens", "best"], &best[..]),
    ] {
        let sep = if endpoint.contains('?') { '&' } else { '?' };
        let answer = post(
            &server.url(&format!("/api/{endpoint}{sep}format=svg")),
            input,
        );
        assert_eq!(answer.status, 200, "{endpoint}: {}", answer.text());
        assert_eq!(answer.content_type, "image/svg+xml");
        let mut args = args;
        args.extend(["--format", "svg"]);
        assert_eq!(answer.text(), cli(&args, input), "{endpoint}");
    }
    for (query, args) in [
        (
            "list?n=6&limit=3",
            vec!["nqueens", "list", "6", "--limit", "3"],
        ),
        (
            "count?n=8&fix=1,1",
            vec!["nqueens", "count", "8", "--fix", "1,1"],
        ),
    ] {
        let answer = get(&server.url(&format!("/api/nqueens/{query}&format=svg")));
        assert_eq!(answer.status, 200);
        let mut args = args;
        args.extend(["--format", "svg"]);
        assert_eq!(answer.text(), cli(&args, b""), "{query}");
    }
    let unknown = post(&server.url("/api/queens?format=png"), queens);
    assert_eq!(unknown.status, 400);
    assert!(
        unknown.error()["error"]
            .as_str()
            .unwrap()
            .contains("json, judge, board or svg")
    );
}

#[test]
fn showdown_traces_and_tour_explanations() {
    let server = Server::start(&[]);
    let input = run(
        &[
            "showdown", "gen", "--seed", "4", "--cases", "1", "--size", "10",
        ],
        b"",
    );
    let input = input.stdout;
    let answer = post(&server.url("/api/showdown/trace?steps=2000&seed=1"), &input);
    assert_eq!(answer.status, 200, "{}", answer.text());
    let lines: Vec<serde_json::Value> = answer
        .text()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let plain = post(&server.url("/api/showdown?steps=2000&seed=1"), &input).text();
    let plain: serde_json::Value = serde_json::from_str(plain.trim()).unwrap();
    let last = lines.last().unwrap();
    assert_eq!(last["event"], "answer");
    assert_eq!(last["pieces"], plain["pieces"]);
    // The trace is the command line's, byte for byte.
    assert_eq!(
        answer.text(),
        cli(
            &["showdown", "--trace", "--steps", "2000", "--seed", "1"],
            &input
        )
    );
    assert_eq!(lines[1]["event"], "bound");
    let end = &lines[lines.len() - 2];
    assert_eq!(end["event"], "end");
    assert_eq!(end["cost"], plain["cost"]);
    for bad in [
        "format=json",
        "greedy",
        "trace_steps=100001",
        "trace_steps=x",
    ] {
        let refused = post(&server.url(&format!("/api/showdown/trace?{bad}")), &input);
        assert_eq!(refused.status, 400, "{bad}");
    }
    let cut = post(
        &server.url("/api/showdown/trace?steps=2000&seed=1&trace_steps=3"),
        &input,
    );
    let cut: Vec<serde_json::Value> = cut
        .text()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let end = &cut[cut.len() - 2];
    assert_eq!(
        (end["steps"].as_u64(), &end["complete"]),
        (Some(4), &serde_json::json!(false))
    );
    assert_eq!(cut[cut.len() - 3]["why"], "limit");

    let tour = std::fs::read("tests/data/tour/sample.in").unwrap();
    let explained = post(&server.url("/api/tour/explain"), &tour).text();
    assert_eq!(
        explained,
        "{\"case\":1,\"unreachable\":null}\n{\"case\":2,\"unreachable\":{\"piece\":\"bishop\",\"square\":\"a8\"}}\n"
    );
}
