//! End-to-end tests of the web board in a real headless Chromium, driven through WebDriver
//! (chromedriver): for every view, a board set up by clicking and typing, solved, and the
//! answer read from the page and checked against the command line (or, for showdown, by the
//! judge). Each view's screenshot is saved (PNG) in `SCREENSHOTS_DIR` (default
//! `target/screenshots`).
//!
//! Needs Chromium and chromedriver: `.ci/serve.sh` installs them, starts chromedriver and runs
//! `cargo test --release --test serve browser:: -- --ignored` with `WEBDRIVER_URL` set. Without
//! `WEBDRIVER_URL` the test starts `chromedriver` itself when it is on the PATH. When neither
//! is there the test is skipped, except under `CI=true`, where that is a failure.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction};
use fantoccini::elements::Element;
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

use crate::common::run;
use crate::server::Server;

type Failure = Box<dyn std::error::Error>;

/// A chromedriver this test started, stopped when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The WebDriver to use, and the chromedriver started for it if any.
fn webdriver() -> Option<(String, Option<Driver>)> {
    if let Ok(url) = std::env::var("WEBDRIVER_URL") {
        return Some((url, None));
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .ok()?
        .local_addr()
        .ok()?
        .port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let driver = Driver(child);
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if started.elapsed() > Duration::from_secs(20) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Some((url, Some(driver)))
}

fn screenshots_dir() -> PathBuf {
    let dir = std::env::var_os("SCREENSHOTS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots"));
    std::fs::create_dir_all(&dir).expect("the screenshot folder");
    dir
}

#[test]
#[ignore = "drives Chromium through chromedriver: run by .ci/serve.sh (or with --ignored)"]
fn every_view_works_in_a_real_browser() {
    let Some((webdriver, _driver)) = webdriver() else {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("CI=true and no WebDriver: set WEBDRIVER_URL or install chromedriver");
        }
        eprintln!("skipped: no WEBDRIVER_URL and no chromedriver on the PATH");
        return;
    };
    let server = Server::start(&[]);
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let result: Result<(), Failure> = runtime.block_on(async {
        let mut capabilities = serde_json::Map::new();
        let mut chrome = json!({"args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1100,1000",
            format!("--user-data-dir={}", profile.path().display()),
        ]});
        if std::path::Path::new("/usr/bin/chromium").exists() {
            chrome["binary"] = json!("/usr/bin/chromium");
        }
        capabilities.insert("goog:chromeOptions".to_string(), chrome);
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&webdriver)
            .await?;
        let flows = async {
            queens(&client, &server).await?;
            sultan(&client, &server).await?;
            tour(&client, &server).await?;
            showdown(&client, &server).await?;
            nqueens(&client, &server).await?;
            Ok::<(), Failure>(())
        };
        let result = flows.await;
        client.close().await?;
        result
    });
    result.unwrap();
    server.stop(Duration::from_secs(10));
}

/// Waits up to 20 s until `script` (a function body) returns a non-null, non-false value.
async fn wait_for(client: &Client, script: &str) -> Result<serde_json::Value, Failure> {
    let started = Instant::now();
    loop {
        let value = client.execute(script, vec![]).await?;
        if !(value.is_null() || value == json!(false) || value == json!("")) {
            return Ok(value);
        }
        if started.elapsed() > Duration::from_secs(20) {
            return Err(format!("timed out waiting for: {script}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The exact text of the element with this id (`textContent`, or `value` for text fields).
async fn text_of(client: &Client, id: &str) -> Result<String, Failure> {
    let script = format!(
        "const e = document.getElementById('{id}'); return e.value !== undefined ? e.value : e.textContent;"
    );
    Ok(client
        .execute(&script, vec![])
        .await?
        .as_str()
        .unwrap_or_default()
        .to_string())
}

async fn square(client: &Client, view: &str, name: &str) -> Result<Element, Failure> {
    Ok(client
        .find(Locator::Css(&format!(
            "#{view}-board [data-square=\"{name}\"]"
        )))
        .await?)
}

async fn click_id(client: &Client, id: &str) -> Result<(), Failure> {
    client.find(Locator::Id(id)).await?.click().await?;
    Ok(())
}

/// Replaces the value of a text field by typing.
async fn type_into(client: &Client, id: &str, text: &str) -> Result<(), Failure> {
    let field = client.find(Locator::Id(id)).await?;
    // Select what is there (Control-A, then release the modifier) and type over it, as a
    // person would: `clear` would fire a change event with an empty value first.
    let select_all = format!("{}a{}", Key::Control, Key::Null);
    field.send_keys(&select_all).await?;
    field.send_keys(text).await?;
    // Tab away so that the field's change event fires.
    field.send_keys(&Key::Tab.to_string()).await?;
    Ok(())
}

async fn screenshot(client: &Client, view: &str) -> Result<(), Failure> {
    let png = client.screenshot().await?;
    std::fs::write(screenshots_dir().join(format!("{view}.png")), png)?;
    Ok(())
}

async fn open(client: &Client, server: &Server, view: &str) -> Result<(), Failure> {
    client.goto(&server.url(&format!("/#{view}"))).await?;
    wait_for(
        client,
        &format!("return document.body.dataset.ready === '{view}';"),
    )
    .await?;
    Ok(())
}

fn cli(args: &[&str], input: &str) -> String {
    let r = run(args, input.as_bytes());
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r.stdout_text()
}

async fn queens(client: &Client, server: &Server) -> Result<(), Failure> {
    open(client, server, "queens").await?;
    square(client, "queens", "row 3, column 5")
        .await?
        .click()
        .await?;
    wait_for(
        client,
        "return document.getElementById('queens-list').textContent;",
    )
    .await?;
    let list = text_of(client, "queens-list").await?;
    assert_eq!(
        list,
        cli(&["queens"], "1\n3 5\n"),
        "the judge's list beside the board"
    );
    assert_eq!(text_of(client, "queens-output").await?, list);
    // The board shows the first placement: eight queens, one given, none attacking.
    let first: Vec<u32> = list
        .lines()
        .nth(2)
        .unwrap()
        .split_whitespace()
        .skip(1)
        .map(|v| v.parse().unwrap())
        .collect();
    let shown = client
        .execute(
            "return [...document.querySelectorAll('#queens-board [data-piece]')].map(s => [Number(s.dataset.r) + 1, Number(s.dataset.c) + 1]);",
            vec![],
        )
        .await?;
    let mut shown: Vec<(u32, u32)> = serde_json::from_value::<Vec<(u32, u32)>>(shown)?;
    shown.sort_by_key(|&(_, c)| c);
    assert_eq!(shown.iter().map(|&(r, _)| r).collect::<Vec<_>>(), first);
    assert!(shown.contains(&(3, 5)));
    // The keyboard: from the focused square, one step right and Enter gives row 3, column 6.
    let keys = KeyActions::new("keys".to_string())
        .then(KeyAction::Down {
            value: Key::Right.into(),
        })
        .then(KeyAction::Up {
            value: Key::Right.into(),
        })
        .then(KeyAction::Down {
            value: Key::Enter.into(),
        })
        .then(KeyAction::Up {
            value: Key::Enter.into(),
        });
    client.perform_actions(keys).await?;
    wait_for(
        client,
        "return document.getElementById('queens-input').value === '1\\n3 6\\n';",
    )
    .await?;
    wait_for(
        client,
        "return document.getElementById('queens-count').textContent.includes('row 3, column 6');",
    )
    .await?;
    assert_eq!(
        text_of(client, "queens-list").await?,
        cli(&["queens"], "1\n3 6\n")
    );
    // Next steps to placement 2.
    click_id(client, "queens-next").await?;
    assert!(
        text_of(client, "queens-count")
            .await?
            .starts_with("placement 2 of ")
    );
    screenshot(client, "queens").await
}

async fn sultan(client: &Client, server: &Server) -> Result<(), Failure> {
    open(client, server, "sultan").await?;
    click_id(client, "sultan-sample").await?;
    type_into(client, "sultan-w-1-1", "99").await?;
    type_into(client, "sultan-w-8-8", "500").await?;
    click_id(client, "sultan-solve").await?;
    wait_for(
        client,
        "return document.getElementById('sultan-score').textContent !== '\u{2014}';",
    )
    .await?;
    let mut weights: Vec<u32> = (1..=64).collect();
    weights[0] = 99;
    weights[63] = 500;
    let rows: Vec<String> = weights
        .chunks(8)
        .map(|r| r.iter().map(u32::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    let input = format!("1\n{}\n", rows.join("\n"));
    assert_eq!(text_of(client, "sultan-input").await?, input);
    let expected = cli(&["sultan"], &input);
    assert_eq!(text_of(client, "sultan-score").await?, expected.trim());
    assert_eq!(text_of(client, "sultan-output").await?, expected);
    let queens = client
        .execute(
            "return document.querySelectorAll('#sultan-board td.queen').length;",
            vec![],
        )
        .await?;
    assert_eq!(queens, json!(8));
    screenshot(client, "sultan").await
}

async fn tour(client: &Client, server: &Server) -> Result<(), Failure> {
    open(client, server, "tour").await?;
    click_id(client, "tour-clear").await?;
    let place = |piece: &'static str, squares: &'static [&'static str]| async move {
        client
            .find(Locator::Css(&format!(
                "input[name=tour-piece][value=\"{piece}\"]"
            )))
            .await?
            .click()
            .await?;
        for sq in squares {
            square(client, "tour", sq).await?.click().await?;
        }
        Ok::<(), Failure>(())
    };
    place("N", &["c6", "f3", "g7", "b2"]).await?;
    place("P", &["d4", "e4", "d5", "c3"]).await?;
    place("Q", &["a1"]).await?;
    place("B", &["h5"]).await?;
    click_id(client, "tour-solve").await?;
    wait_for(
        client,
        "return document.getElementById('tour-result').textContent !== '\u{2014}';",
    )
    .await?;
    let input = text_of(client, "tour-input").await?;
    assert!(input.starts_with("1\n"), "{input}");
    assert_eq!(input.matches('N').count(), 4);
    let expected = cli(&["tour"], &input);
    assert_eq!(text_of(client, "tour-output").await?, expected);
    let path = expected.lines().nth(1).unwrap();
    assert_eq!(text_of(client, "tour-result").await?, path);
    // The stops are numbered on the board: one mark per stop.
    let stops = client
        .execute(
            "return document.querySelectorAll('#tour-board [data-stop]').length;",
            vec![],
        )
        .await?;
    assert!(stops.as_u64().unwrap() >= 2, "{stops}");
    click_id(client, "tour-play").await?;
    wait_for(
        client,
        "return document.querySelector('#tour-board .walker') !== null;",
    )
    .await?;
    tokio::time::sleep(Duration::from_millis(900)).await;
    screenshot(client, "tour").await?;
    // An impossible board: the bishop in a corner behind pawns.
    click_id(client, "tour-clear").await?;
    place("Q", &["e4"]).await?;
    place("B", &["a8"]).await?;
    place("P", &["a7", "b7", "b8"]).await?;
    place("N", &["h1", "h8"]).await?;
    click_id(client, "tour-solve").await?;
    wait_for(
        client,
        "return document.getElementById('tour-result').textContent === 'impossible';",
    )
    .await?;
    let detail = text_of(client, "tour-detail").await?;
    assert!(detail.contains("bishop on a8"), "{detail}");
    assert!(cli(&["tour"], &text_of(client, "tour-input").await?).contains("impossible"));
    Ok(())
}

async fn showdown(client: &Client, server: &Server) -> Result<(), Failure> {
    open(client, server, "showdown").await?;
    type_into(client, "showdown-side", "6").await?;
    wait_for(
        client,
        "return document.querySelectorAll('#showdown-board .sq').length === 36;",
    )
    .await?;
    // The sample's kings that fit stay; add some more by clicking.
    for name in [
        "row 6, column 6",
        "row 6, column 1",
        "row 1, column 6",
        "row 5, column 5",
    ] {
        square(client, "showdown", name).await?.click().await?;
    }
    type_into(client, "showdown-price-7", "3").await?;
    type_into(client, "showdown-time", "1").await?;
    click_id(client, "showdown-solve").await?;
    wait_for(
        client,
        "return document.getElementById('showdown-cost').textContent !== '\u{2014}';",
    )
    .await?;
    wait_for(
        client,
        "return document.getElementById('showdown-checks').textContent;",
    )
    .await?;
    let input = text_of(client, "showdown-input").await?;
    assert!(input.starts_with("1\n6\n"), "{input}");
    let output = text_of(client, "showdown-output").await?;
    let cost: u64 = text_of(client, "showdown-cost").await?.parse()?;
    assert_eq!(
        output.split_whitespace().nth(1).unwrap().parse::<u64>()?,
        cost
    );
    // The judge accepts the arrangement read from the page, at that cost.
    let tmp = tempfile::tempdir()?;
    let dir = tmp.path();
    std::fs::write(dir.join("t.in"), &input)?;
    std::fs::write(dir.join("t.out"), &output)?;
    let judged = run(
        &[
            "showdown",
            "check",
            dir.join("t.in").to_str().unwrap(),
            dir.join("t.out").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(judged.code, 0, "{}", judged.stdout_text());
    assert!(
        judged
            .stdout_text()
            .contains(&format!("test 1: {:.6}", cost as f64 / 36.0))
    );
    let lower: u64 = text_of(client, "showdown-bound").await?.parse()?;
    assert!(lower <= cost);
    // Hovering a king names its checker.
    let king = square(client, "showdown", "row 6, column 6").await?;
    let hover = MouseActions::new("mouse".to_string()).then(PointerAction::MoveToElement {
        element: king,
        duration: None,
        x: 0.0,
        y: 0.0,
    });
    client.perform_actions(hover).await?;
    let checks = text_of(client, "showdown-checks").await?;
    assert!(
        checks.starts_with("The king on row 6, column 6 is in check from the "),
        "{checks}"
    );
    let checkers = client
        .execute(
            "return document.querySelectorAll('#showdown-board .checker').length;",
            vec![],
        )
        .await?;
    assert!(checkers.as_u64().unwrap() >= 1);
    screenshot(client, "showdown").await
}

async fn nqueens(client: &Client, server: &Server) -> Result<(), Failure> {
    open(client, server, "nqueens").await?;
    type_into(client, "nqueens-side", "10").await?;
    wait_for(
        client,
        "return document.querySelectorAll('#nqueens-board .sq').length === 100;",
    )
    .await?;
    square(client, "nqueens", "row 1, column 2")
        .await?
        .click()
        .await?;
    square(client, "nqueens", "row 5, column 1")
        .await?
        .click()
        .await?;
    click_id(client, "nqueens-count").await?;
    wait_for(
        client,
        "return /^\\d+$/.test(document.getElementById('nqueens-result').textContent);",
    )
    .await?;
    let expected = cli(
        &["nqueens", "count", "10", "--fix", "1,2", "--fix", "5,1"],
        "",
    );
    assert_eq!(text_of(client, "nqueens-result").await?, expected.trim());
    assert_eq!(text_of(client, "nqueens-output").await?, expected);
    click_id(client, "nqueens-list").await?;
    wait_for(
        client,
        "return document.getElementById('nqueens-step').textContent.startsWith('placement 1 of');",
    )
    .await?;
    let listed = cli(
        &[
            "nqueens", "list", "10", "--fix", "1,2", "--fix", "5,1", "--limit", "20",
        ],
        "",
    );
    assert_eq!(text_of(client, "nqueens-output").await?, listed);
    screenshot(client, "nqueens").await?;
    // A long count shows its progress and stops on Cancel.
    click_id(client, "nqueens-clear").await?;
    type_into(client, "nqueens-side", "20").await?;
    click_id(client, "nqueens-count").await?;
    wait_for(
        client,
        "return document.getElementById('nqueens-detail').textContent.includes(' parts after ');",
    )
    .await?;
    click_id(client, "nqueens-cancel").await?;
    wait_for(
        client,
        "return document.getElementById('nqueens-result').textContent === 'cancelled';",
    )
    .await?;
    // The best weighted placement of random weights.
    type_into(client, "nqueens-side", "8").await?;
    click_id(client, "nqueens-best").await?;
    wait_for(
        client,
        "return /^\\d+$/.test(document.getElementById('nqueens-result').textContent);",
    )
    .await?;
    let input = text_of(client, "nqueens-input").await?;
    let best = cli(&["nqueens", "best"], &input);
    assert_eq!(text_of(client, "nqueens-result").await?, best.trim());
    Ok(())
}
