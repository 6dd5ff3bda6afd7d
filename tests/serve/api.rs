//! The JSON API of `chess-puzzles serve` against the command line, through the real binary:
//! for every puzzle, on the samples and on generated inputs, the API's answer has exactly the
//! bytes the command writes, and a bad input is refused with the command's message, line and
//! column. Then the limits and guards, and Ctrl-C.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::common::{command, run, temp_file};
use crate::server::{Server, get, get_with, post, try_post};

/// Runs the command on `input` and asks the API the same; asserts the same bytes, or for an
/// input the command refuses (exit 2), a 400 with its message, line and column. Returns
/// whether the input was accepted.
fn same_as_cli(server: &Server, endpoint: &str, cli: &[&str], input: &[u8]) -> bool {
    let expected = run(cli, input);
    let answer = post(&server.url(&format!("/api/{endpoint}")), input);
    let shown = String::from_utf8_lossy(input);
    match expected.code {
        0 => {
            assert_eq!(
                answer.status,
                200,
                "{endpoint} on {shown:?}: {}",
                answer.text()
            );
            assert_eq!(
                answer.text(),
                expected.stdout_text(),
                "{endpoint} against {cli:?} on {shown:?}"
            );
            true
        }
        2 => {
            assert_eq!(
                answer.status,
                400,
                "{endpoint} on {shown:?}: {}",
                answer.text()
            );
            let error = answer.error();
            let message = format!(
                "error: <stdin>:{}:{}: {}",
                error["line"],
                error["column"],
                error["error"].as_str().expect("a message")
            );
            assert_eq!(
                message,
                expected.stderr.trim_end(),
                "{endpoint} on {shown:?}"
            );
            false
        }
        code => panic!("{cli:?} exited {code}: {}", expected.stderr),
    }
}

/// `chess-puzzles <args>`'s standard output (a generated input).
fn generate(args: &[&str]) -> Vec<u8> {
    let r = run(args, b"");
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout
}

/// The input with one byte replaced, removed or doubled at a random place.
fn mutate(input: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut bad = input.to_vec();
    let i = rng.random_range(0..bad.len());
    match rng.random_range(0..4) {
        0 => bad[i] = b'x',
        1 => {
            bad.remove(i);
        }
        2 => bad.insert(i, bad[i]),
        _ => bad.truncate(i),
    }
    bad
}

#[test]
fn every_puzzle_answers_as_the_command_line_does() {
    let server = Server::start(&[]);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let samples = [
        ("queens", "tests/data/queens/sample.in"),
        ("sultan", "tests/data/sultan/sample.in"),
        ("tour", "tests/data/tour/sample.in"),
    ];
    for (puzzle, path) in samples {
        let input = std::fs::read(path).expect("the sample");
        for format in ["json", "judge", "board"] {
            let endpoint = format!("{puzzle}?format={format}");
            assert!(same_as_cli(
                &server,
                &endpoint,
                &[puzzle, "--format", format],
                &input
            ));
        }
    }
    let uva = std::fs::read("tests/data/queens/sample.in").unwrap();
    assert!(same_as_cli(
        &server,
        "queens?format=judge&uva=true",
        &["queens", "--uva"],
        &uva
    ));

    // Generated inputs of every family, and each with a random mistake.
    let families: &[(&str, &[&str])] = &[
        ("queens", &["random", "all", "fewest", "most"]),
        ("sultan", &["random", "ties", "distinct", "extreme"]),
        ("tour", &["random", "impossible", "start-alone", "crowded"]),
    ];
    let (mut accepted, mut refused) = (0, 0);
    for (puzzle, kinds) in families {
        for kind in *kinds {
            for seed in 1..=3 {
                let seed = seed.to_string();
                let input = generate(&[puzzle, "gen", "--seed", &seed, "--kind", kind]);
                assert!(same_as_cli(
                    &server,
                    puzzle,
                    &[puzzle, "--format", "json"],
                    &input
                ));
                let endpoint = format!("{puzzle}?format=judge");
                assert!(same_as_cli(&server, &endpoint, &[puzzle], &input));
                for _ in 0..4 {
                    let bad = mutate(&input, &mut rng);
                    if same_as_cli(&server, puzzle, &[puzzle, "--format", "json"], &bad) {
                        accepted += 1;
                    } else {
                        refused += 1;
                    }
                }
            }
        }
    }
    // The mistakes were real often enough to test the refusals.
    assert!(refused >= 30, "{refused} refused, {accepted} accepted");
    server.stop(Duration::from_secs(10));
}

#[test]
fn showdown_answers_as_the_command_line_does_with_a_step_count() {
    let server = Server::start(&[]);
    let sample = std::fs::read("tests/data/showdown/sample.in").unwrap();
    let mut inputs = vec![sample];
    for seed in 1..=4 {
        let seed = seed.to_string();
        inputs.push(generate(&[
            "showdown", "gen", "--seed", &seed, "--tests", "3", "--size", "2-12",
        ]));
    }
    inputs.push(generate(&[
        "showdown",
        "gen",
        "--kind",
        "expensive-small",
        "--tests",
        "4",
    ]));
    for (i, input) in inputs.iter().enumerate() {
        let seed = (i * 7).to_string();
        for format in ["json", "judge", "board"] {
            let endpoint = format!("showdown?format={format}&steps=3000&seed={seed}");
            let cli = [
                "showdown", "--format", format, "--steps", "3000", "--seed", &seed,
            ];
            assert!(same_as_cli(&server, &endpoint, &cli, input));
        }
        assert!(same_as_cli(
            &server,
            "showdown?greedy=true",
            &["showdown", "--greedy", "--format", "json"],
            input
        ));
    }
    // With a time budget the answer depends on the clock: the judge must accept it.
    let input = &inputs[1];
    let answer = post(
        &server.url("/api/showdown?format=judge&time_limit=0.5"),
        input,
    );
    assert_eq!(answer.status, 200, "{}", answer.text());
    let (in_path, out_path) = (temp_file("t.in", input), temp_file("t.out", &answer.body));
    let judged = run(
        &[
            "showdown",
            "check",
            in_path.to_str().unwrap(),
            out_path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(judged.code, 0, "{}{}", judged.stdout_text(), judged.stderr);
    // Bad boards: the same located refusals.
    for bad in [
        "1\n3\n#__\n_#_\n__#\n1 1 1 1 1 1 1\n",
        "1\n3\n###\n###\n###\n1 1 1 1 1 1 1 1\n",
        "1\n1\n#\n1 1 1 1 1 1 1 1\n",
        "2\n3\n#__\n___\n__#\n5 5 1 5 5 5 5 5\n",
    ] {
        assert!(!same_as_cli(
            &server,
            "showdown?steps=100",
            &["showdown", "--format", "json", "--steps", "100"],
            bad.as_bytes()
        ));
    }
    server.stop(Duration::from_secs(10));
}

#[test]
fn showdown_checks_name_every_kings_checkers() {
    let server = Server::start(&[]);
    let input = std::fs::read_to_string("tests/data/showdown/sample.in").unwrap();
    // The statement's board with a rook on (1,1) and horses on (3,3) and (4,1).
    let body = serde_json::json!({"input": input, "answers": [[[2, 1, 1], [6, 3, 3], [6, 4, 1]]]});
    let answer = post(
        &server.url("/api/showdown/checks"),
        body.to_string().as_bytes(),
    );
    assert_eq!(answer.status, 200, "{}", answer.text());
    let judged: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
    assert_eq!(judged["valid"], true);
    assert_eq!(judged["cost"], 3);
    let kings = judged["kings"].as_array().unwrap();
    assert_eq!(kings.len(), 10);
    for king in kings {
        assert!(!king["checked_by"].as_array().unwrap().is_empty(), "{king}");
    }
    // The rook on (1,1) checks the king on (1,4) along the first row (nothing between).
    let k14 = kings
        .iter()
        .find(|k| k["row"] == 1 && k["col"] == 4)
        .unwrap();
    assert_eq!(k14["checked_by"], serde_json::json!([0]));
    // Without the second horse a king stays unchecked: the judge says which.
    let body = serde_json::json!({"input": input, "answers": [[[2, 1, 1], [6, 3, 3]]]});
    let answer = post(
        &server.url("/api/showdown/checks"),
        body.to_string().as_bytes(),
    );
    let judged: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
    assert_eq!(judged["valid"], false);
    assert!(
        judged["error"].as_str().unwrap().contains("not in check"),
        "{judged}"
    );
    let bad = post(&server.url("/api/showdown/checks"), b"{\"input\": 3}");
    assert_eq!(bad.status, 400);
    // The work of naming checkers is bounded: 16,000 pieces on a 256x256 board are too many.
    let side = 256;
    let board = format!(
        "1\n{side}\n{}1 1 1 1 1 1 1 1\n",
        format!("{}\n", "_".repeat(side)).repeat(side)
    );
    let pieces: Vec<[u64; 3]> = (0..16_000u64)
        .map(|i| [1, 1 + i % 256, 1 + i / 256])
        .collect();
    let body = serde_json::json!({"input": board, "answers": [pieces]});
    let bad = post(
        &server.url("/api/showdown/checks"),
        body.to_string().as_bytes(),
    );
    assert_eq!(bad.status, 400, "{}", bad.text());
    assert!(
        bad.error()["error"]
            .as_str()
            .unwrap()
            .contains("pieces times board sides")
    );
    server.stop(Duration::from_secs(10));
}

/// The squares of a judge path (`h8h2e5`), as names.
fn path_squares(path: &str) -> Vec<String> {
    (0..path.len() / 2)
        .map(|i| path[2 * i..2 * i + 2].to_string())
        .collect()
}

/// `/api/tour/walk`: on generated boards, the command line's tour walked move by move is
/// complete, with the shortest tour the command line's; a walk cut short is not complete and
/// names the knights still to visit; a move off a queen line is refused with its number; bad
/// bodies and too many moves are refused.
#[test]
fn tour_walk_checks_each_move_and_compares_with_the_command_line() {
    let server = Server::start(&[]);
    let walk = |input: &str, moves: &[String]| {
        let body = serde_json::json!({ "input": input, "moves": moves });
        let answer = post(&server.url("/api/tour/walk"), body.to_string().as_bytes());
        assert_eq!(answer.status, 200, "{}", answer.text());
        serde_json::from_slice::<serde_json::Value>(&answer.body).unwrap()
    };
    let mut tours = 0;
    for seed in 1..=12u64 {
        let seed = seed.to_string();
        let input =
            String::from_utf8(generate(&["tour", "gen", "--seed", &seed, "--cases", "1"])).unwrap();
        let answer = run(&["tour"], input.as_bytes()).stdout_text();
        let path = answer.lines().nth(1).unwrap();
        let walked = walk(&input, &[]);
        if path == "impossible" {
            assert_eq!(walked["shortest"], serde_json::Value::Null, "{input}");
            continue;
        }
        tours += 1;
        let squares = path_squares(path);
        let walked = walk(&input, &squares[1..]);
        assert_eq!(walked["complete"], true, "{input}: {walked}");
        assert_eq!(walked["illegal"], serde_json::Value::Null);
        assert_eq!(walked["shortest"]["path"], serde_json::json!(squares));
        assert_eq!(walked["shortest"]["moves"], squares.len() - 1);
        let stops: Vec<&str> = walked["stops"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["square"].as_str().unwrap())
            .collect();
        assert_eq!(stops, squares);
        // Every knight of the board visited once, at the first stop next to it.
        let knights = input
            .lines()
            .skip(1)
            .take(8)
            .flat_map(|l| l.bytes())
            .filter(|&b| b == b'N')
            .count();
        assert_eq!(walked["visited"].as_array().unwrap().len(), knights);
        if squares.len() > 2 {
            let short = walk(&input, &squares[1..squares.len() - 1]);
            assert_eq!(short["complete"], false, "{input}");
        }
    }
    assert!(tours >= 6, "{tours} boards with a tour");
    // The statement's first board: h2 to c8 is no queen move, so move 2 is refused; h8 to b2
    // crosses the pawn on f6.
    let sample = std::fs::read_to_string("tests/data/tour/sample.in").unwrap();
    let refused = walk(&sample, &path_squares("h2c8"));
    assert_eq!(refused["illegal"]["index"], 2);
    assert_eq!(refused["illegal"]["why"], "h2 to c8 is not a queen move");
    assert_eq!(refused["stops"].as_array().unwrap().len(), 2);
    assert_eq!(refused["unvisited"], serde_json::json!(["e6", "c5"]));
    let crossing = walk(&sample, &path_squares("b2"));
    assert_eq!(
        crossing["illegal"]["why"],
        "h8 to b2 crosses or lands on the piece on f6"
    );
    // Bad bodies: not JSON, a square that is none, too many moves.
    for body in [
        "{\"input\": 3}".to_string(),
        serde_json::json!({"input": sample, "moves": ["z9"]}).to_string(),
        serde_json::json!({"input": sample, "moves": vec!["h2"; 257]}).to_string(),
        serde_json::json!({"input": "1\n", "moves": []}).to_string(),
    ] {
        let bad = post(&server.url("/api/tour/walk"), body.as_bytes());
        assert_eq!(bad.status, 400, "{body}: {}", bad.text());
        assert!(bad.error()["error"].is_string());
    }
    server.stop(Duration::from_secs(10));
}

#[test]
fn nqueens_answers_as_the_command_line_does() {
    let server = Server::start(&[]);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..12 {
        let n = rng.random_range(1..=11u64);
        let mut fixes = Vec::new();
        for _ in 0..rng.random_range(0..=2) {
            fixes.push(format!(
                "{},{}",
                rng.random_range(1..=n),
                rng.random_range(1..=n)
            ));
        }
        let query: String = fixes.iter().map(|f| format!("&fix={f}")).collect();
        let mut cli: Vec<String> = vec!["nqueens".into(), "count".into(), n.to_string()];
        for f in &fixes {
            cli.extend(["--fix".to_string(), f.clone()]);
        }
        for format in ["json", "judge"] {
            let expected = run(
                &[
                    cli.iter().map(String::as_str).collect::<Vec<_>>(),
                    vec!["--format", format],
                ]
                .concat(),
                b"",
            );
            let answer =
                get(&server.url(&format!("/api/nqueens/count?n={n}{query}&format={format}")));
            if expected.code == 0 {
                assert_eq!(answer.status, 200, "{}", answer.text());
                assert_eq!(answer.text(), expected.stdout_text());
            } else {
                // Given queens that attack or repeat: the same message.
                assert_eq!(answer.status, 400);
                assert_eq!(
                    format!("error: {}", answer.error()["error"].as_str().unwrap()),
                    expected.stderr.trim_end()
                );
            }
            cli[1] = "list".into();
            let listed = run(
                &[
                    cli.iter().map(String::as_str).collect::<Vec<_>>(),
                    vec!["--format", format, "--limit", "30"],
                ]
                .concat(),
                b"",
            );
            let answer = post(
                &server.url(&format!(
                    "/api/nqueens/list?n={n}{query}&format={format}&limit=30"
                )),
                b"",
            );
            if listed.code == 0 {
                assert_eq!(answer.status, 200, "{}", answer.text());
                assert_eq!(answer.text(), listed.stdout_text());
            } else {
                assert_eq!(answer.status, 400);
            }
            cli[1] = "count".into();
        }
    }
    // Best weighted placements of random boards, and a malformed one.
    for round in 0..4 {
        let boards = rng.random_range(1..=3);
        let mut input = format!("{boards}\n");
        for _ in 0..boards {
            let n = [1usize, 4, 5, 6, 8, 9][rng.random_range(0..6)];
            input.push_str(&format!("{n}\n"));
            for _ in 0..n {
                let row: Vec<String> = (0..n)
                    .map(|_| rng.random_range(0..1000u32).to_string())
                    .collect();
                input.push_str(&row.join(" "));
                input.push('\n');
            }
        }
        for format in ["json", "judge"] {
            let endpoint = format!("nqueens/best?format={format}");
            assert!(same_as_cli(
                &server,
                &endpoint,
                &["nqueens", "best", "--format", format],
                input.as_bytes()
            ));
        }
        let bad = mutate(input.as_bytes(), &mut rng);
        same_as_cli(
            &server,
            "nqueens/best",
            &["nqueens", "best", "--format", "json"],
            &bad,
        );
        let _ = round;
    }
    server.stop(Duration::from_secs(10));
}

#[test]
fn count_events_report_progress_then_the_count() {
    let server = Server::start(&[]);
    let answer = get(&server.url("/api/nqueens/count/events?n=14&fix=1,2"));
    assert_eq!(answer.status, 200);
    assert_eq!(answer.content_type, "text/event-stream");
    let text = answer.text();
    assert!(
        text.starts_with("event: progress\ndata: {\"done\":"),
        "{text}"
    );
    let result = text
        .split("\n\n")
        .find_map(|e| e.strip_prefix("event: result\ndata: "))
        .unwrap_or_else(|| panic!("a result event in {text}"));
    let expected = run(
        &["nqueens", "count", "14", "--fix", "1,2", "--format", "json"],
        b"",
    );
    assert_eq!(format!("{result}\n"), expected.stdout_text());
    server.stop(Duration::from_secs(10));
}

#[test]
fn a_cancelled_count_frees_its_solver() {
    // One solver: while the abandoned count went on, nothing else could be solved.
    let server = Server::start(&["--solvers", "1", "--max-time", "60"]);
    let address = server.base.trim_start_matches("http://").to_string();
    let mut stream = TcpStream::connect(&address).unwrap();
    write!(
        stream,
        "GET /api/nqueens/count/events?n=21 HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut first = [0u8; 256];
    let read = stream.read(&mut first).unwrap();
    assert!(String::from_utf8_lossy(&first[..read]).starts_with("HTTP/1.1 200"));
    drop(stream);
    // The server notices at its next progress report (a quarter of a second) and stops.
    let started = Instant::now();
    let answer = get(&server.url("/api/nqueens/count?n=8"));
    assert_eq!(answer.status, 200, "{}", answer.text());
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    server.stop(Duration::from_secs(10));
}

#[test]
fn limits_and_guards() {
    let server = Server::start(&["--max-body", "1000", "--max-time", "2"]);
    let queens = server.url("/api/queens");
    // A body over the limit: 413, whether declared or not.
    let big = format!("300\n{}", "1 1\n".repeat(300));
    let answer = post(&queens, big.as_bytes());
    assert_eq!(answer.status, 413, "{}", answer.text());
    assert!(
        answer.error()["error"]
            .as_str()
            .unwrap()
            .contains("1000 bytes")
    );
    // Query parameters are checked.
    for (path, what) in [
        ("/api/queens?colour=red", "unknown query parameter 'colour'"),
        (
            "/api/queens?format=xml",
            "format: expected json, judge, board or svg",
        ),
        (
            "/api/showdown?time_limit=3",
            "time_limit: expected a number of seconds from 0 to 2",
        ),
        ("/api/showdown?time_limit=-1", "time_limit"),
        (
            "/api/nqueens/count?n=65",
            "expected a board side 1..64, found 65",
        ),
        ("/api/nqueens/count", "n: expected a board side"),
        ("/api/nqueens/count?n=8&fix=1", "fix: expected ROW,COL"),
    ] {
        let answer = post(&server.url(path), b"1\n1 1\n");
        assert_eq!(answer.status, 400, "{path}: {}", answer.text());
        let error = answer.error()["error"].as_str().unwrap().to_string();
        assert!(error.contains(what), "{path}: {error}");
    }
    // Too many showdown steps for the input.
    let largest = generate(&["showdown", "gen", "--kind", "largest"]);
    let answer = post(
        &server.url("/api/showdown?steps=1000000"),
        &largest[..largest.len().min(900)],
    );
    assert_eq!(answer.status, 400, "{}", answer.text());
    // A count past the time limit: 504 and the command line's words.
    let answer = get(&server.url("/api/nqueens/count?n=20&time_limit=0.3"));
    assert_eq!(answer.status, 504, "{}", answer.text());
    assert!(
        answer.error()["error"]
            .as_str()
            .unwrap()
            .starts_with("time limit reached after")
    );
    // A listing that cannot finish in time.
    let answer = get(&server.url("/api/nqueens/list?n=48&fix=2,1&time_limit=0.3&limit=1"));
    assert!(
        answer.status == 504 || answer.status == 200,
        "{}",
        answer.text()
    );
    // Other sites and other names.
    let answer = try_post(&queens, b"1\n1 1\n", &[("Origin", "http://evil.example")]).unwrap();
    assert_eq!(answer.status, 403);
    let answer = try_post(&queens, b"1\n1 1\n", &[("Sec-Fetch-Site", "cross-site")]).unwrap();
    assert_eq!(answer.status, 403);
    let answer = try_post(&queens, b"1\n1 1\n", &[("Origin", &server.base)]).unwrap();
    assert_eq!(answer.status, 200);
    let answer = get_with(&server.url("/"), &[("Host", "rebound.example:80")]);
    assert_eq!(answer.status, 421);
    // The page and its headers; nothing outside the table of files.
    let page = get(&server.url("/"));
    assert_eq!(page.status, 200);
    assert!(
        page.text()
            .contains("<script type=\"module\" src=\"js/main.js\">")
    );
    for path in [
        "/js/../../Cargo.toml",
        "/Cargo.toml",
        "/js/nothing.js",
        "/api/nothing",
    ] {
        assert_eq!(get(&server.url(path)).status, 404, "{path}");
    }
    assert_eq!(get(&server.url("/api/queens")).status, 405);
    server.stop(Duration::from_secs(10));
}

#[test]
fn every_answer_carries_the_security_headers() {
    let server = Server::start(&[]);
    for path in [
        "/",
        "/js/main.js",
        "/style.css",
        "/api/nqueens/count?n=6",
        "/nowhere",
    ] {
        let response = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .new_agent()
            .get(&server.url(path))
            .call()
            .unwrap();
        let h = response.headers();
        let csp = h.get("content-security-policy").unwrap().to_str().unwrap();
        assert!(
            csp.contains("default-src 'none'") && csp.contains("script-src 'self'"),
            "{csp}"
        );
        assert!(!csp.contains("unsafe"), "{csp}");
        assert_eq!(h.get("x-content-type-options").unwrap(), "nosniff");
        assert_eq!(h.get("x-frame-options").unwrap(), "DENY");
        assert!(h.get("access-control-allow-origin").is_none());
    }
    server.stop(Duration::from_secs(10));
}

#[test]
fn ctrl_c_stops_the_server_cleanly_and_it_listens_on_loopback_only() {
    let server = Server::start(&[]);
    assert!(server.base.starts_with("http://127.0.0.1:"));
    assert_eq!(get(&server.url("/")).status, 200);
    let base = server.base.clone();
    let status = server.stop(Duration::from_secs(10));
    assert!(status.success(), "{status:?}");
    assert!(try_post(&format!("{base}/api/queens"), b"1\n1 1\n", &[]).is_err());
}

#[test]
fn the_next_free_port_is_taken_when_the_first_is_busy() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    if port > 65000 {
        return; // No room for "the next ones" above it; another run will test this.
    }
    let mut child = command()
        .args(["serve", "--port", &port.to_string()])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let printed: u16 = line
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("a port in {line:?}"));
    assert!(
        printed > port && printed < port + 100,
        "{printed} after {port}"
    );
}
