//! What each fuzz target does with one input, shared by the targets (`fuzz_targets/`) and by
//! the regression test that replays every saved input (`tests/judge/fuzz_regressions.rs`).
//! Each function panics only when the code under test breaks a promise.

use std::time::{Duration, Instant};

use chess_puzzles::judge::compare::Tolerance;
use chess_puzzles::output::OutputFormat;
use chess_puzzles::{nqueens, queens, showdown, sultan, tour};

/// The showdown options of the targets: a small step budget and time limit.
fn showdown_options(format: OutputFormat) -> showdown::Options {
    showdown::Options {
        format,
        time_limit: Duration::from_millis(50),
        steps: Some(20),
        ..Default::default()
    }
}

/// Every solver's reader on arbitrary bytes: an answer or a located error, never a panic, in
/// bounded time. The first byte picks the solver and the output format.
pub fn solve(data: &[u8]) {
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    let format = match pick / 8 % 4 {
        0 => OutputFormat::Judge,
        1 => OutputFormat::Board,
        2 => OutputFormat::Json,
        _ => OutputFormat::Svg,
    };
    let mut out = Vec::new();
    match pick % 5 {
        0 => {
            let options = queens::Options {
                format,
                ..Default::default()
            };
            let _ = queens::run(input, &mut out, &options);
        }
        1 => {
            let _ = sultan::run(input, &mut out, &sultan::Options { format });
        }
        2 => {
            let _ = tour::run(input, &mut out, &tour::Options { format });
        }
        3 => {
            let _ = showdown::run(input, &mut out, &showdown_options(format));
        }
        _ => {
            let deadline = Instant::now() + Duration::from_millis(50);
            let control = nqueens::Control::with_deadline(deadline);
            let options = nqueens::BestOptions { format };
            let _ = nqueens::run_best_watched(input, &mut out, &options, &control);
        }
    }
}

/// Every validator on arbitrary bytes: a verdict, never a panic. An input a validator calls
/// valid is one its solver answers (the statements' limits are within the solvers').
pub fn validate(data: &[u8]) {
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    let mut out = Vec::new();
    let answered = match pick % 4 {
        0 => queens::validate::validate(input)
            .ok()
            .map(|_| queens::run(input, &mut out, &queens::Options::default()).is_ok()),
        1 => sultan::validate::validate(input)
            .ok()
            .map(|_| sultan::run(input, &mut out, &sultan::Options::default()).is_ok()),
        2 => tour::validate::validate(input)
            .ok()
            .map(|_| tour::run(input, &mut out, &tour::Options::default()).is_ok()),
        _ => showdown::validate::validate(input).ok().map(|_| {
            showdown::run(input, &mut out, &showdown_options(OutputFormat::Judge)).is_ok()
        }),
    };
    assert_ne!(answered, Some(false), "a valid input is answered");
}

/// Every checker judging arbitrary output for a fixed input (the statement's sample): a
/// verdict, never a panic; an output accepted under `exact` is the right answer byte for byte.
pub fn check(data: &[u8]) {
    let Some((&pick, output)) = data.split_first() else {
        return;
    };
    let tolerance = match pick / 4 % 3 {
        0 => Tolerance::Exact,
        1 => Tolerance::Lines,
        _ => Tolerance::Tokens,
    };
    let (right, verdict) = match pick % 4 {
        0 => {
            let s = queens::SAMPLE;
            let style = queens::Style::Statement;
            (
                s.output,
                queens::check(s.input.as_bytes(), output, style, tolerance),
            )
        }
        1 => {
            let s = sultan::SAMPLE;
            (
                s.output,
                sultan::check(s.input.as_bytes(), output, tolerance),
            )
        }
        2 => {
            let s = tour::SAMPLE;
            (s.output, tour::check(s.input.as_bytes(), output, tolerance))
        }
        _ => {
            let s = showdown::SAMPLE;
            let report = showdown::judge::check(s.input.as_bytes(), output, |_, _| {});
            assert!(report.is_ok(), "the sample input is readable");
            return;
        }
    };
    let accepted = verdict.expect("the sample input is readable").is_ok();
    if accepted && tolerance == Tolerance::Exact {
        assert_eq!(output, right.as_bytes(), "only the right answer is exact");
    }
}

/// The endpoints the `serve` target sends requests to: the method they take, and their path.
/// Every route of the server is here (the regression test checks it against
/// `src/serve/routes.rs`); a new one goes at the end, so that the seeds keep their endpoint.
#[cfg(feature = "serve")]
pub const ENDPOINTS: [(&str, &str); 18] = [
    ("POST", "/api/queens"),
    ("POST", "/api/sultan"),
    ("POST", "/api/tour"),
    ("POST", "/api/tour/explain"),
    ("POST", "/api/showdown"),
    ("POST", "/api/showdown/checks"),
    ("POST", "/api/nqueens/best"),
    ("GET", "/api/nqueens/count"),
    ("GET", "/api/nqueens/count/events"),
    ("GET", "/api/nqueens/list"),
    ("GET", "/"),
    ("GET", "/api/no-such-endpoint"),
    ("POST", "/api/showdown/trace"),
    ("GET", "/api/nqueens/trace"),
    ("POST", "/api/queens/trace"),
    ("POST", "/api/sultan/trace"),
    ("POST", "/api/tour/trace"),
    ("POST", "/api/tour/walk"),
];

/// The server's request handling (the guards, the query parameters, the bodies, every
/// endpoint) on arbitrary requests, answered in process ([`serve::InProcess`]): an answer
/// with one of the statuses docs/web.md lists, never a 500 or a panic, in bounded time (every
/// solve is capped at 100 ms); every refusal of the API a JSON `{"error": ...}`; and a
/// judge input posted to `queens`, `sultan` or `tour` with no query answered exactly as the
/// library's `run` answers it (the same bytes, or a 400 at the same line and column).
///
/// The first byte picks the endpoint, the second how the request is made (the other method,
/// the Host header right, missing or another site's, an `Origin` of another site, the query
/// sent raw or percent-encoded, a `Content-Length` stated or overstated); then the query
/// string's bytes, a 0xFF byte, and the body.
#[cfg(feature = "serve")]
pub fn serve(data: &[u8]) {
    use std::sync::OnceLock;

    use chess_puzzles::serve::{InProcess, Limits};

    static SERVER: OnceLock<Option<InProcess>> = OnceLock::new();
    let Some(server) = SERVER
        .get_or_init(|| {
            InProcess::new(Limits {
                max_body: 1 << 16,
                max_time: Duration::from_millis(100),
                solvers: 2,
                queue: 4,
                queue_wait: Duration::from_secs(1),
                body_timeout: Duration::from_secs(1),
                ..Limits::default()
            })
            .ok()
        })
        .as_ref()
    else {
        return;
    };
    let [pick, how, rest @ ..] = data else {
        return;
    };
    let (query, body) = match rest.iter().position(|&b| b == 0xFF) {
        Some(at) => (&rest[..at], rest[at + 1..].to_vec()),
        None => (rest, Vec::new()),
    };
    let (method, path) = ENDPOINTS[usize::from(*pick) % ENDPOINTS.len()];
    let other_method = how & 1 != 0;
    let method = match (method, other_method) {
        (m, false) => m,
        ("GET", true) => "POST",
        (_, true) => "GET",
    };
    let mut target = path.as_bytes().to_vec();
    if !query.is_empty() {
        target.push(b'?');
        if how & 16 != 0 {
            target.extend_from_slice(query);
        } else {
            for &b in query {
                if b.is_ascii_alphanumeric() || b"&=-._~,".contains(&b) {
                    target.push(b);
                } else {
                    target.extend_from_slice(format!("%{b:02X}").as_bytes());
                }
            }
        }
    }
    let host = server.host().to_string();
    let length = body.len().to_string();
    let mut headers: Vec<(&[u8], &[u8])> = Vec::new();
    match how >> 1 & 3 {
        2 => {}
        3 => headers.push((b"host", b"evil.example")),
        _ => headers.push((b"host", host.as_bytes())),
    }
    if how & 8 != 0 {
        headers.push((b"origin", b"http://evil.example"));
    }
    match how >> 5 & 3 {
        1 => headers.push((b"content-length", length.as_bytes())),
        2 => headers.push((b"content-length", b"1099511627776")),
        _ => {}
    }
    let Some(answer) = server.request(method.as_bytes(), &target, &headers, body.clone()) else {
        // Not an HTTP request at all (a raw query with bytes a URI cannot hold).
        return;
    };
    let status = answer.status;
    assert_ne!(
        status,
        500,
        "{method} {}: a 500",
        String::from_utf8_lossy(&target)
    );
    assert!(
        [200, 400, 403, 404, 405, 408, 413, 421, 503, 504].contains(&status),
        "{method} {}: status {status}",
        String::from_utf8_lossy(&target)
    );
    if status != 200 && status != 405 && path.starts_with("/api") {
        assert_eq!(
            answer.header("content-type"),
            Some(&b"application/json"[..])
        );
        let error: serde_json::Value =
            serde_json::from_slice(&answer.body).expect("a refusal is JSON");
        assert!(error["error"].is_string(), "{error}");
    }
    // A plain judge input, asked plainly: the command line's answer.
    let plain = query.is_empty() && !other_method && how & 0b0110_1110 == 0;
    let endpoint = usize::from(*pick) % ENDPOINTS.len();
    if plain && endpoint < 3 && status != 504 && !answer.cut {
        let mut out = Vec::new();
        let ran = match endpoint {
            0 => {
                let options = queens::Options {
                    format: OutputFormat::Json,
                    ..Default::default()
                };
                queens::run(&body[..], &mut out, &options)
            }
            1 => {
                let options = sultan::Options {
                    format: OutputFormat::Json,
                };
                sultan::run(&body[..], &mut out, &options)
            }
            _ => {
                let options = tour::Options {
                    format: OutputFormat::Json,
                };
                tour::run(&body[..], &mut out, &options)
            }
        };
        match ran {
            Ok(()) => {
                assert_eq!(status, 200, "{}", String::from_utf8_lossy(&answer.body));
                assert_eq!(answer.body, out, "the API's bytes are the command line's");
            }
            Err(chess_puzzles::error::RunError::Input(
                chess_puzzles::error::InputError::Parse(e),
            )) => {
                assert_eq!(status, 400);
                let error: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
                assert_eq!(error["line"], e.position.line);
                assert_eq!(error["column"], e.position.column);
            }
            Err(_) => {}
        }
    }
}

/// `nqueens merge` on arbitrary shard records, split into up to four files at each 0xFF
/// byte: a total, a list of problems or an input error, never a panic. When the first byte
/// is odd, every line that parses as a record has its `check` recomputed first, so that the
/// fuzzer reaches the checks of the fields' meaning (a corrupted check stops a record before
/// them). A total it prints is checked apart from `merge`: every line a record with a valid
/// check, of one count, the shards 0..K once each, the counts summing to the total without
/// overflow and matching the residues.
pub fn merge(data: &[u8]) {
    use nqueens::shard::{self, MergeError, Record};

    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let files: Vec<Vec<u8>> = text
        .split(|&b| b == 0xFF)
        .take(4)
        .map(|file| {
            if pick & 1 == 0 {
                return file.to_vec();
            }
            let mut signed = Vec::new();
            for line in file.split_inclusive(|&b| b == b'\n') {
                match serde_json::from_slice::<Record>(line) {
                    Ok(mut record) => {
                        record.check = record.expected_check();
                        signed.extend_from_slice(record.to_json_line().as_bytes());
                    }
                    Err(_) => signed.extend_from_slice(line),
                }
            }
            signed
        })
        .collect();
    let inputs = files
        .iter()
        .enumerate()
        .map(|(i, file)| (format!("file{i}"), &file[..]));
    match shard::merge(inputs) {
        Err(MergeError::Syntax {
            name, line, column, ..
        }) => {
            let i: usize = name["file".len()..].parse().expect("one of the files");
            let lines = files[i].split(|&b| b == b'\n').count();
            assert!(line >= 1 && line <= lines, "{name}:{line}: no such line");
            assert!(column >= 1, "{name}:{line}:{column}");
        }
        Err(error) => panic!("reading from memory cannot fail: {error}"),
        Ok(Err(problems)) => {
            assert!(!problems.is_empty(), "a refusal names its problems");
            assert!(problems.len() <= 20, "{} problems listed", problems.len());
        }
        Ok(Ok(merged)) => {
            let records: Vec<Record> = files
                .iter()
                .flat_map(|file| file.split(|&b| b == b'\n'))
                .map(String::from_utf8_lossy)
                .filter(|line| !line.trim().is_empty())
                .map(|line| serde_json::from_str(line.trim_end()).expect("every line a record"))
                .collect();
            let head = records.first().expect("a total of at least one record");
            let modulus = (1u128 << 61) - 1;
            let mut shards = vec![false; records.len()];
            let mut total = 0u128;
            let mut residue = 0u128;
            for record in &records {
                assert_eq!(record.check, record.expected_check());
                assert_eq!(
                    (record.n, record.shards, record.side, &record.version),
                    (head.n, head.shards, head.side, &head.version)
                );
                assert!(record.given.is_empty());
                let i = usize::try_from(record.shard).expect("a shard index");
                assert!(
                    i < shards.len() && !shards[i],
                    "shard {i} twice or out of range"
                );
                shards[i] = true;
                total = total.checked_add(record.count).expect("no overflow");
                assert_eq!(record.count % modulus, u128::from(record.residue));
                residue = (residue + u128::from(record.residue)) % modulus;
                assert!(record.cpu_seconds.is_finite() && record.cpu_seconds >= 0.0);
                assert!(record.side <= record.n / 2 && (1..=64).contains(&record.n));
            }
            assert_eq!(head.shards, records.len() as u64, "every shard once");
            assert_eq!((merged.n, merged.shards), (head.n, head.shards));
            assert_eq!(merged.count, total);
            assert_eq!(merged.count % modulus, residue);
            assert!(merged.cpu_seconds.is_finite() && merged.cpu_seconds >= 0.0);
        }
    }
}
