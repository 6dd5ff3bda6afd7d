//! The connection limits of `chess-puzzles serve`, through the real binary and raw sockets:
//! a request header that never ends and an idle kept-alive connection are dropped after
//! `--header-timeout`; a client that half-closes its connection after its request gets the
//! answer; beyond `--max-connections` connections wait unaccepted, taking no file descriptor
//! of the server, and are served as soon as a slot frees.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use crate::common::{BIN, run};
use crate::server::{Server, get};

/// The server's `host:port`.
fn host(server: &Server) -> String {
    server.base.trim_start_matches("http://").to_string()
}

/// Reads until the server closes the connection (or `at_most` passes: then `None`);
/// returns what came and how long it took.
fn until_closed(stream: &mut TcpStream, at_most: Duration) -> Option<(Vec<u8>, Duration)> {
    let began = Instant::now();
    let mut data = Vec::new();
    let mut buffer = [0u8; 65536];
    loop {
        let left = at_most.checked_sub(began.elapsed())?;
        stream
            .set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .unwrap();
        match stream.read(&mut buffer) {
            Ok(0) => return Some((data, began.elapsed())),
            Ok(n) => data.extend_from_slice(&buffer[..n]),
            // A reset is a close too.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return Some((data, began.elapsed()));
            }
            Err(_) => return None,
        }
    }
}

fn status_line(answer: &[u8]) -> String {
    String::from_utf8_lossy(answer)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// How many file descriptors the process has open.
fn open_files(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .unwrap()
        .count()
}

/// A client that sends half a header, or nothing at all, is disconnected once the header
/// time limit has passed (it once kept its connection for as long as it liked).
#[test]
fn a_request_header_that_never_ends_is_dropped() {
    let server = Server::start(&["--header-timeout", "1"]);
    let host = host(&server);
    for start in [
        format!("GET / HTTP/1.1\r\nHost: {host}\r\nAccept: "),
        String::new(),
    ] {
        let mut stream = TcpStream::connect(&host).unwrap();
        stream.write_all(start.as_bytes()).unwrap();
        let (answer, took) = until_closed(&mut stream, Duration::from_secs(10))
            .unwrap_or_else(|| panic!("{start:?}: still open after 10 s"));
        assert!(
            took >= Duration::from_millis(900) && took < Duration::from_secs(4),
            "{start:?}: closed after {took:?}"
        );
        // Nothing is answered to a request that never came whole.
        assert!(
            answer.is_empty() || status_line(&answer).contains("408"),
            "{start:?}: {}",
            String::from_utf8_lossy(&answer)
        );
    }
    // The server itself answers on as before.
    assert_eq!(get(&server.url("/api/nqueens/count?n=6")).status, 200);
    assert!(server.stop(Duration::from_secs(15)).success());
}

/// A kept-alive connection with no next request is closed after the same limit, once its
/// answer is written.
#[test]
fn an_idle_kept_alive_connection_is_closed() {
    let server = Server::start(&["--header-timeout", "1"]);
    let host = host(&server);
    let mut stream = TcpStream::connect(&host).unwrap();
    let request = format!("GET /api/nqueens/count?n=8 HTTP/1.1\r\nHost: {host}\r\n\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let (answer, took) = until_closed(&mut stream, Duration::from_secs(10))
        .expect("the idle connection is closed within 10 s");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains(r#"{"n":8,"given":[],"count":92}"#), "{text}");
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_secs(4),
        "closed after {took:?}"
    );
    assert!(server.stop(Duration::from_secs(15)).success());
}

/// A client that shuts down its writing side once its request is sent (`shutdown(SHUT_WR)`,
/// as `nc -N` does) gets its whole answer, for a GET and for a POST with a body (it once got
/// nothing).
#[test]
fn a_client_that_half_closes_gets_its_answer() {
    let server = Server::start(&[]);
    let host = host(&server);
    let body = "1\n1 1\n";
    let queens = run(&["queens", "--format", "json"], body.as_bytes());
    let expected = queens.stdout_text();
    for (request, wanted) in [
        (
            format!("GET /api/nqueens/count?n=8 HTTP/1.1\r\nHost: {host}\r\n\r\n"),
            r#"{"n":8,"given":[],"count":92}"#.to_string(),
        ),
        (
            format!(
                "POST /api/queens HTTP/1.1\r\nHost: {host}\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            ),
            expected.trim_end().to_string(),
        ),
    ] {
        let mut stream = TcpStream::connect(&host).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        stream.shutdown(Shutdown::Write).unwrap();
        let (answer, _) = until_closed(&mut stream, Duration::from_secs(10))
            .expect("the answer comes, then the connection closes");
        let text = String::from_utf8_lossy(&answer);
        assert!(text.starts_with("HTTP/1.1 200"), "{request:?}: {text}");
        assert!(text.contains(&wanted), "{request:?}: {text}");
    }
    assert!(server.stop(Duration::from_secs(15)).success());
}

/// With `--max-connections 4`, four connections that send nothing hold every slot: a fifth
/// client's request waits, and a hundred more connections take no file descriptor of the
/// server (they wait in the listening socket's queue, not accepted). When one of the four
/// closes, the fifth is answered at once.
#[test]
fn connections_beyond_the_cap_wait_without_taking_file_descriptors() {
    let server = Server::start(&["--max-connections", "4", "--header-timeout", "60"]);
    let host = host(&server);
    let before = open_files(server.pid());
    let mut idle: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(&host).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut fifth = TcpStream::connect(&host).unwrap();
    let request =
        format!("GET /api/nqueens/count?n=8 HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    fifth.write_all(request.as_bytes()).unwrap();
    fifth
        .set_read_timeout(Some(Duration::from_millis(800)))
        .unwrap();
    let mut first = [0u8; 1];
    assert!(
        fifth.read(&mut first).is_err(),
        "the fifth connection was served while four held every slot"
    );
    let more: Vec<TcpStream> = (0..100)
        .map(|_| TcpStream::connect_timeout(&host.parse().unwrap(), Duration::from_secs(5)))
        .collect::<Result<_, _>>()
        .expect("the system queues the connections the server does not accept");
    let during = open_files(server.pid());
    assert!(
        during <= before + 4,
        "{during} files open with 105 clients, {before} before"
    );
    drop(idle.remove(0));
    let (answer, took) = until_closed(&mut fifth, Duration::from_secs(10))
        .expect("the fifth is answered once a slot frees");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(text.contains(r#""count":92"#), "{text}");
    assert!(
        took < Duration::from_secs(3),
        "answered {took:?} after a slot freed"
    );
    drop(more);
    drop(idle);
    assert!(server.stop(Duration::from_secs(15)).success());
}

/// A number of connections the open-file limit cannot hold is refused at the start (under
/// `ulimit -n 256`), and so are a header time limit of 0 and a cap of 0 (exit 2, a message).
#[test]
fn impossible_connection_limits_are_usage_errors() {
    for args in [
        "--max-connections 1000",
        "--header-timeout 0",
        "--header-timeout -1",
        "--max-connections 0",
    ] {
        let out = std::process::Command::new("sh")
            .args([
                "-c",
                &format!("ulimit -n 256 && exec \"$0\" serve --port 0 {args}"),
            ])
            .arg(BIN)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // Under that limit, the default cap is lowered to what it allows, and the server runs.
    let mut server = std::process::Command::new("sh")
        .args(["-c", "ulimit -n 256 && exec \"$0\" serve --port 0"])
        .arg(BIN)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let stdout = server.stdout.take().unwrap();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).unwrap();
    let _ = server.kill();
    let _ = server.wait();
    assert!(line.contains("http://127.0.0.1:"), "{line}");
}

/// A count's set-up (the band's configurations counted, a configuration's sides built: seconds
/// at the frontier sizes) stops at the request's time limit like the count itself: 504 on
/// time (it once ran its set-up to the end, 2 s past a 0.1 s limit at n = 27).
#[test]
fn a_count_at_the_frontier_answers_on_time() {
    let server = Server::start(&["--max-time", "0.1"]);
    for n in [20, 24, 27] {
        let began = Instant::now();
        let answer = get(&server.url(&format!("/api/nqueens/count?n={n}")));
        let took = began.elapsed();
        assert_eq!(answer.status, 504, "n = {n}: {}", answer.text());
        assert!(took < Duration::from_secs(1), "n = {n}: {took:?}");
    }
}
