//! Where the learner is in a search, and the learner's own moves, in the browser:
//!
//! - the step slider and the step box move the backtracking to step k, and the board is the
//!   command line's trace replayed to k; the stack beside the board (one frame per column
//!   filled, the rows still to try) is read back and compared with the stack this test builds
//!   from the same trace; the chart's counts per depth are the trace's own (8 Queens, N-Queens
//!   with a capped trace, the Sultan's search);
//! - try it yourself on the tour: moves by click and keyboard, an illegal one refused, the
//!   knights visited and the learner's tour against `tour` on the command line; on 8 Queens,
//!   the count of placements against `nqueens count 8 --fix ...`;
//! - on a 390x844 phone, the board and the step's sentence on one screen at scroll 0.

use std::collections::{BTreeMap, BTreeSet};

use fantoccini::Client;
use fantoccini::key::Key;
use serde_json::{Value, json};

use super::{
    Failure, Page, accessible, at_step, board_queens, cli, cli_lines, click_id, open, press,
    replay, screenshot, square, text_of, type_into, wait_for,
};

/// The statement's first board, as the tour's links write it.
pub(super) const SAMPLE_TOUR: &str =
    ".......Q/...P.P../...PNP../..NP.P../......../......../..B...../........";

/// Every check of this file, in order.
pub(super) async fn all(page: &Page<'_>) -> Result<(), Failure> {
    queens_slider_stack_and_chart(page).await?;
    nqueens_capped_chart(page).await?;
    sultan_stack_and_chart(page).await?;
    queens_try_it(page).await?;
    tour_try_it(page).await?;
    phone_layout(page).await?;
    Ok(())
}

/// One frame of the search's stack: the column, the queen's row (`None` for the column being
/// tried) and the first row still to try there.
type Frame = (i64, Option<i64>, i64);

/// The stack after step `k` of a trace (its lines from `start`), built here from the trace:
/// the columns without a given queen, from the left, each with its queen (the rows below her
/// still to try), up to the first column without one, whose tried rows are those of step k
/// when step k tried a square of it or took its queen away. Bottom first.
fn stack_at(lines: &[Value], k: u64) -> Vec<Frame> {
    let n = lines[0]["n"].as_i64().unwrap();
    let given: BTreeSet<(i64, i64)> = lines[0]["given"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v[0].as_i64().unwrap(), v[1].as_i64().unwrap()))
        .collect();
    let given_cols: BTreeSet<i64> = given.iter().map(|&(_, c)| c).collect();
    let queens: BTreeMap<i64, i64> = replay(lines, k)
        .difference(&given)
        .map(|&(r, c)| (c, r))
        .collect();
    let mut frames = Vec::new();
    for c in (1..=n).filter(|c| !given_cols.contains(c)) {
        if let Some(&r) = queens.get(&c) {
            frames.push((c, Some(r), r + 1));
            continue;
        }
        let step = lines.iter().find(|l| l["step"] == k);
        let tried = step
            .filter(|s| s["event"] == "attacked" || s["event"] == "remove")
            .filter(|s| s["square"][1] == c)
            .map_or(0, |s| s["square"][0].as_i64().unwrap());
        frames.push((c, None, tried + 1));
        break;
    }
    frames
}

/// The stack shown beside the board of `view`, bottom first.
async fn stack_shown(client: &Client, view: &str) -> Result<Vec<Frame>, Failure> {
    let shown = client
        .execute(
            &format!(
                "return [...document.querySelectorAll('#{view}-stack li[data-col]')].reverse().map((li) => [Number(li.dataset.col), li.dataset.row === '' ? null : Number(li.dataset.row), Number(li.dataset.from)]);"
            ),
            vec![],
        )
        .await?;
    Ok(serde_json::from_value(shown)?)
}

/// The queens placed and the squares found attacked at each depth (queens the search has
/// placed, given queens apart) over a whole trace, counted here.
fn depth_counts(lines: &[Value]) -> BTreeMap<u64, (u64, u64)> {
    let mut counts = BTreeMap::new();
    let mut depth = 0u64;
    for line in lines.iter().filter(|l| l["step"].is_u64()) {
        match line["event"].as_str() {
            Some("place") => {
                depth += 1;
                counts.entry(depth).or_insert((0, 0)).0 += 1;
            }
            Some("attacked") => counts.entry(depth + 1).or_insert((0, 0)).1 += 1,
            Some("remove") => depth -= 1,
            _ => {}
        }
    }
    counts
}

/// The chart's counts per depth, read from its bars (depths with no count left out).
async fn chart_shown(client: &Client, view: &str) -> Result<BTreeMap<u64, (u64, u64)>, Failure> {
    let bars: Vec<(u64, u64, u64)> = serde_json::from_value(
        client
            .execute(
                &format!(
                    "return [...document.querySelectorAll('#{view}-depths g.depth')].map((g) => [Number(g.dataset.depth), Number(g.dataset.placed), Number(g.dataset.attacked)]);"
                ),
                vec![],
            )
            .await?,
    )?;
    Ok(bars
        .into_iter()
        .filter(|&(_, p, a)| p + a > 0)
        .map(|(d, p, a)| (d, (p, a)))
        .collect())
}

/// The step the player of `view` shows, from its slider and its box (which must agree).
async fn slider_and_box(client: &Client, view: &str) -> Result<(u64, u64), Failure> {
    let slider: u64 = text_of(client, &format!("{view}-slider")).await?.parse()?;
    let boxed: u64 = text_of(client, &format!("{view}-goto")).await?.parse()?;
    Ok((slider, boxed))
}

/// Checks the board and the stack of `view` at step k against the trace.
async fn board_and_stack(
    client: &Client,
    view: &str,
    board: &str,
    trace: &[Value],
    k: u64,
) -> Result<(), Failure> {
    at_step(client, view, k).await?;
    assert_eq!(
        board_queens(client, board).await?,
        replay(trace, k),
        "{view}: the board at step {k}"
    );
    assert_eq!(
        stack_shown(client, view).await?,
        stack_at(trace, k),
        "{view}: the stack at step {k}"
    );
    assert_eq!(
        slider_and_box(client, view).await?,
        (k, k),
        "{view}: step {k}"
    );
    Ok(())
}

/// 8 Queens: the slider by keyboard (Home, End, arrows), the step box, the stack at a
/// conflict, a backtrack and a solution, and the chart of the whole search.
async fn queens_slider_stack_and_chart(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    let trace = cli_lines(&["queens", "--trace"], "1\n3 6\n");
    let trace: Vec<Value> = trace.into_iter().filter(|l| l["case"] == 1).collect();
    let last = trace.iter().filter(|l| l["step"].is_u64()).count() as u64;
    open(page, "queens?q=3,6&step=0").await?;
    board_and_stack(client, "queens", "queens-board", &trace, 0).await?;
    // The slider, from the keyboard (real key presses on the focused slider): End, Home, then
    // three steps right and one left.
    client
        .execute("document.getElementById('queens-slider').focus();", vec![])
        .await?;
    press(client, &[Key::End]).await?;
    board_and_stack(client, "queens", "queens-board", &trace, last).await?;
    press(client, &[Key::Home]).await?;
    board_and_stack(client, "queens", "queens-board", &trace, 0).await?;
    press(client, &[Key::Right, Key::Right, Key::Right, Key::Left]).await?;
    board_and_stack(client, "queens", "queens-board", &trace, 2).await?;
    let label = client
        .execute(
            "const s = document.getElementById('queens-slider'); return [s.labels[0].textContent, s.getAttribute('aria-valuetext')];",
            vec![],
        )
        .await?;
    assert_eq!(label, json!(["Step", format!("step 2 of {last}")]));
    // The step box: a conflict, a backtrack, a solution and the step after it, each typed.
    let first = |event: &str, after: u64| {
        trace
            .iter()
            .find(|l| l["event"] == event && l["step"].as_u64().is_some_and(|s| s > after))
            .and_then(|l| l["step"].as_u64())
            .unwrap()
    };
    let solution = first("solution", 0);
    for k in [
        first("attacked", 100),
        first("remove", 200),
        solution,
        solution + 1,
        872,
    ] {
        type_into(client, "queens-goto", &k.to_string()).await?;
        board_and_stack(client, "queens", "queens-board", &trace, k).await?;
    }
    // Previous and next solution from the buttons.
    click_id(client, "queens-prev-solution").await?;
    board_and_stack(client, "queens", "queens-board", &trace, 871).await?;
    click_id(client, "queens-prev-solution").await?;
    let before: u64 = trace
        .iter()
        .filter(|l| l["event"] == "solution" && l["step"].as_u64().is_some_and(|s| s < 871))
        .filter_map(|l| l["step"].as_u64())
        .max()
        .unwrap_or(0);
    board_and_stack(client, "queens", "queens-board", &trace, before).await?;
    click_id(client, "queens-solution").await?;
    board_and_stack(client, "queens", "queens-board", &trace, 871).await?;
    // The chart: every depth's counts the whole trace's.
    assert_eq!(
        chart_shown(client, "queens").await?,
        depth_counts(&trace),
        "queens: the chart"
    );
    let complete = client
        .execute(
            "return document.getElementById('queens-depths-caption').dataset.complete;",
            vec![],
        )
        .await?;
    assert_eq!(complete, json!("true"));
    // Up to the step shown: the dark bars count the steps so far.
    let now: Vec<(u64, f64)> = serde_json::from_value(
        client
            .execute(
                "return [...document.querySelectorAll('#queens-depths g.depth')].map((g) => [Number(g.dataset.depth), Number(g.querySelector('.placed-now').getAttribute('height'))]);",
                vec![],
            )
            .await?,
    )?;
    let so_far = depth_counts(
        &trace
            .iter()
            .filter(|l| l["step"].as_u64().is_none_or(|s| s <= 871))
            .cloned()
            .collect::<Vec<_>>(),
    );
    let all = depth_counts(&trace);
    for (d, height) in now {
        let full: f64 = client
            .execute(
                &format!("return Number(document.querySelector('#queens-depths g.depth[data-depth=\"{d}\"] .placed-all').getAttribute('height'));"),
                vec![],
            )
            .await?
            .as_f64()
            .unwrap();
        let (want, whole) = (
            so_far.get(&d).map_or(0, |c| c.0) as f64,
            all.get(&d).map_or(0, |c| c.0) as f64,
        );
        if whole > 0.0 {
            assert!(
                (height / full - want / whole).abs() < 1e-6,
                "depth {d}: {height} of {full} against {want} of {whole}"
            );
        }
    }
    screenshot(client, "queens-stack").await?;
    accessible(page, "queens, the stack and the chart").await?;
    Ok(())
}

/// N-Queens: a 10x10 search, whose trace the server caps at 100,000 steps: the chart counts
/// those steps and says that it stops there.
async fn nqueens_capped_chart(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    let trace = cli_lines(&["nqueens", "list", "10", "--trace"], "");
    let end = trace.last().unwrap();
    assert_eq!(end["complete"], json!(false), "{end}");
    assert_eq!(end["stopped_by"], json!("steps"));
    open(page, "nqueens?n=10&step=500").await?;
    board_and_stack(client, "nqueens", "nqueens-board", &trace, 500).await?;
    assert_eq!(
        chart_shown(client, "nqueens").await?,
        depth_counts(&trace),
        "nqueens: the chart"
    );
    let caption = text_of(client, "nqueens-depths-caption").await?;
    assert!(
        caption.contains(
            "only the first 100000 steps of the search: the trace is capped at 100000 steps"
        ),
        "{caption}"
    );
    // Given queens: their columns are not on the stack.
    let trace = cli_lines(
        &[
            "nqueens", "list", "7", "--fix", "2,3", "--fix", "5,1", "--trace",
        ],
        "",
    );
    open(page, "nqueens?n=7&fix=2,3;5,1&step=9").await?;
    board_and_stack(client, "nqueens", "nqueens-board", &trace, 9).await?;
    type_into(client, "nqueens-goto", "31").await?;
    board_and_stack(client, "nqueens", "nqueens-board", &trace, 31).await?;
    assert_eq!(chart_shown(client, "nqueens").await?, depth_counts(&trace));
    Ok(())
}

/// The Sultan's search steps the same way: its stack and chart from `sultan --trace`.
async fn sultan_stack_and_chart(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "sultan?step=300").await?;
    at_step(client, "sultan", 300).await?;
    let input = text_of(client, "sultan-input").await?;
    let trace: Vec<Value> = cli_lines(&["sultan", "--trace"], &input)
        .into_iter()
        .filter(|l| l["case"] == 1)
        .collect();
    board_and_stack(client, "sultan", "sultan-search", &trace, 300).await?;
    client
        .execute("document.getElementById('sultan-slider').focus();", vec![])
        .await?;
    press(client, &[Key::Right]).await?;
    board_and_stack(client, "sultan", "sultan-search", &trace, 301).await?;
    assert_eq!(chart_shown(client, "sultan").await?, depth_counts(&trace));
    accessible(page, "sultan, the stack and the chart").await?;
    Ok(())
}

/// 8 Queens, try it yourself: queens placed by keyboard, the count of the placements that
/// extend them the command line's, and two queens that attack each other named.
async fn queens_try_it(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "queens?q=1,1").await?;
    click_id(client, "queens-try-mode").await?;
    wait_for(
        client,
        "return document.getElementById('queens-try').textContent.startsWith('No queen placed yet');",
    )
    .await?;
    client
        .execute(
            "document.querySelector('#queens-board [data-square=\"row 1, column 1\"]').focus();",
            vec![],
        )
        .await?;
    // (2, 1), then (4, 2): down one and Enter, down two, right one and Enter.
    press(
        client,
        &[
            Key::Down,
            Key::Enter,
            Key::Down,
            Key::Down,
            Key::Right,
            Key::Enter,
        ],
    )
    .await?;
    let counted = cli(
        &["nqueens", "count", "8", "--fix", "2,1", "--fix", "4,2"],
        "",
    );
    let counted = counted.trim();
    let says = format!(
        "2 queens placed, 6 to go: {counted} placement{} of 8 queens extend",
        if counted == "1" { "" } else { "s" }
    );
    wait_for(
        client,
        &format!("return document.getElementById('queens-try').textContent.startsWith({says:?});"),
    )
    .await?;
    assert_eq!(
        board_queens(client, "queens-board").await?,
        BTreeSet::from([(2, 1), (4, 2)])
    );
    // A third on (4, 5), on the row of (4, 2): named, no placement.
    press(client, &[Key::Right, Key::Right, Key::Right, Key::Enter]).await?;
    wait_for(
        client,
        "return document.getElementById('queens-try').textContent.includes('the queens on row 4, column 2 and row 4, column 5 attack each other');",
    )
    .await?;
    accessible(page, "queens, try it yourself").await?;
    click_id(client, "queens-try-mode").await?;
    Ok(())
}

/// The squares a queen's move from `from` to `to` passes and lands on, or `None` when it is
/// not along a rank, a file or a diagonal. Squares are (file 0..8, rank 1..8).
fn line_squares(from: (i32, i32), to: (i32, i32)) -> Option<Vec<(i32, i32)>> {
    let (df, dr) = (to.0 - from.0, to.1 - from.1);
    if (df, dr) == (0, 0) || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return None;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let mut at = from;
    let mut out = Vec::new();
    while at != to {
        at = (at.0 + sf, at.1 + sr);
        out.push(at);
    }
    Some(out)
}

/// A square's name as (file 0..8, rank 1..8).
fn coords(name: &str) -> (i32, i32) {
    let b = name.as_bytes();
    (i32::from(b[0] - b'a'), i32::from(b[1] - b'0'))
}

/// The tour's try-it: an illegal move refused (it crosses a pawn), a longer tour than the
/// shortest made by click and keyboard, a move taken back, the knights visited and the
/// comparison with the command line's shortest tour; all checked here on the board's rows.
async fn tour_try_it(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, &format!("tour?b={SAMPLE_TOUR}")).await?;
    wait_for(
        client,
        "return document.getElementById('tour-result').textContent === 'h8h2e5d4b2';",
    )
    .await?;
    let input = text_of(client, "tour-input").await?;
    let rows: Vec<&str> = input.lines().skip(1).take(8).collect();
    let piece = |(f, r): (i32, i32)| rows[(8 - r) as usize].as_bytes()[f as usize];
    let shortest = cli(&["tour"], &input);
    let shortest = shortest.lines().nth(1).unwrap();
    click_id(client, "tour-try-mode").await?;
    wait_for(
        client,
        "return document.getElementById('tour-try').textContent.startsWith('Your tour: the queen stands on h8.');",
    )
    .await?;
    // h8 to b2 crosses the pawn on f6: refused, the queen stays.
    let crossed = line_squares(coords("h8"), coords("b2")).unwrap();
    let blocker = crossed.iter().find(|&&sq| piece(sq) != b'.').unwrap();
    assert_eq!(*blocker, coords("f6"));
    square(client, "tour-board", "b2").await?.click().await?;
    wait_for(
        client,
        "return document.getElementById('tour-try').textContent.startsWith('Refused: h8 to b2 crosses or lands on the piece on f6. The queen stays on h8');",
    )
    .await?;
    // h8-h1 (a click), h1-h2 (Up, Enter), h2-e5 (a click), e5-d4 (Left, Down, Enter), taken
    // back and made again, d4-b2 (a click).
    square(client, "tour-board", "h1").await?.click().await?;
    wait_for(
        client,
        "return document.getElementById('tour-try').dataset.moves === '1';",
    )
    .await?;
    press(client, &[Key::Up, Key::Enter]).await?;
    wait_for(
        client,
        "return document.getElementById('tour-try').dataset.moves === '2';",
    )
    .await?;
    square(client, "tour-board", "e5").await?.click().await?;
    wait_for(
        client,
        "return document.getElementById('tour-try').dataset.moves === '3';",
    )
    .await?;
    let said = text_of(client, "tour-try").await?;
    assert!(
        said.starts_with("Move 3: the queen goes to e5. She visits the knight on e6.")
            && said.contains("still to visit: c5"),
        "{said}"
    );
    press(client, &[Key::Left, Key::Down, Key::Enter]).await?;
    wait_for(
        client,
        "return document.getElementById('tour-try').dataset.moves === '4';",
    )
    .await?;
    click_id(client, "tour-try-undo").await?;
    wait_for(
        client,
        "return document.getElementById('tour-try').dataset.moves === '3';",
    )
    .await?;
    square(client, "tour-board", "d4").await?.click().await?;
    wait_for(
        client,
        "return document.getElementById('tour-try').dataset.moves === '4';",
    )
    .await?;
    square(client, "tour-board", "b2").await?.click().await?;
    wait_for(
        client,
        "return document.getElementById('tour-try').dataset.complete === 'true';",
    )
    .await?;
    // The learner's tour, checked here: legal moves, every knight visited, next to the bishop.
    let mine = ["h8", "h1", "h2", "e5", "d4", "b2"];
    for pair in mine.windows(2) {
        let passed = line_squares(coords(pair[0]), coords(pair[1])).unwrap();
        assert!(
            passed
                .iter()
                .all(|&sq| piece(sq) == b'.' || piece(sq) == b'Q')
        );
    }
    let near =
        |a: (i32, i32), b: (i32, i32)| a != b && (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1;
    let all: Vec<(i32, i32)> = (1..=8).flat_map(|r| (0..8).map(move |f| (f, r))).collect();
    let knights: Vec<(i32, i32)> = all
        .iter()
        .copied()
        .filter(|&sq| piece(sq) == b'N')
        .collect();
    let bishop = all.iter().copied().find(|&sq| piece(sq) == b'B').unwrap();
    assert!(
        knights
            .iter()
            .all(|&k| mine.iter().any(|m| near(coords(m), k)))
    );
    assert!(near(coords("b2"), bishop));
    // The knights in the order the page says they were visited: each at its first stop.
    let name = |(f, r): (i32, i32)| format!("{}{}", (b'a' + f as u8) as char, r);
    let mut order: Vec<String> = Vec::new();
    for m in mine {
        for &k in &knights {
            if near(coords(m), k) && !order.contains(&name(k)) {
                order.push(name(k));
            }
        }
    }
    let visited = client
        .execute(
            "return document.getElementById('tour-try').dataset.visited;",
            vec![],
        )
        .await?;
    assert_eq!(visited, json!(order.join(", ")));
    let said = text_of(client, "tour-try").await?;
    let moves = shortest.len() / 2 - 1;
    let spaced: Vec<&str> = (0..shortest.len() / 2)
        .map(|i| &shortest[2 * i..2 * i + 2])
        .collect();
    assert!(
        said.contains(&format!(
            "Your tour is complete: 5 moves. The library\u{2019}s shortest tour has {moves} moves ({}): yours is {} move{} longer than the shortest.",
            spaced.join(" "),
            5 - moves,
            if 5 - moves == 1 { "" } else { "s" }
        )),
        "{said}"
    );
    // The stops are numbered on the board: one disc per square stood on.
    let stops = client
        .execute(
            "return document.querySelectorAll('#tour-board [data-stop]').length;",
            vec![],
        )
        .await?;
    assert_eq!(stops, json!(mine.len()));
    screenshot(client, "tour-try").await?;
    accessible(page, "tour, try it yourself").await?;
    // The shortest tour, made by the learner: the judge's own answer.
    click_id(client, "tour-try-restart").await?;
    wait_for(
        client,
        "return document.getElementById('tour-try').dataset.moves === '0';",
    )
    .await?;
    for sq in spaced.iter().skip(1) {
        square(client, "tour-board", sq).await?.click().await?;
    }
    wait_for(
        client,
        "return document.getElementById('tour-try').dataset.complete === 'true';",
    )
    .await?;
    let said = text_of(client, "tour-try").await?;
    assert!(
        said.contains("yours is the same path as the judge\u{2019}s answer"),
        "{said}"
    );
    Ok(())
}

/// Loads `hash` in a fresh page (not a change of the address in the page already open), and
/// waits until the view has opened its position.
pub(super) async fn open_fresh(page: &Page<'_>, hash: &str) -> Result<(), Failure> {
    let view = hash.split('?').next().unwrap_or(hash);
    page.client.goto("about:blank").await?;
    page.client
        .goto(&page.server.url(&format!("/#{hash}")))
        .await?;
    wait_for(
        page.client,
        &format!("return document.body && document.body.dataset.ready === '{view}';"),
    )
    .await?;
    Ok(())
}

/// On a phone whose page is 390x844 CSS pixels, each stepped view opened by its link (in a
/// fresh page) stays at scroll 0 with its board and the step's sentence inside the screen;
/// the tour's try-it too.
async fn phone_layout(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    // The window's size counts the browser's own bars: the page itself gets 390x844.
    client.set_window_size(390, 844).await?;
    let bars = client
        .execute("return window.outerHeight - window.innerHeight;", vec![])
        .await?
        .as_u64()
        .unwrap_or(0) as u32;
    client.set_window_size(390, 844 + bars).await?;
    let viewport = client
        .execute("return [window.innerWidth, window.innerHeight];", vec![])
        .await?;
    assert_eq!(viewport, json!([390, 844]), "the phone's viewport");
    let tour_search = format!("tour?b={SAMPLE_TOUR}&step=4");
    let result = async {
        for (hash, view, board, sentence) in [
            ("queens?q=3,6&step=867", "queens", "queens-board", "queens-status"),
            ("nqueens?n=8&step=23", "nqueens", "nqueens-board", "nqueens-status"),
            ("sultan?step=300", "sultan", "sultan-search", "sultan-status"),
            (tour_search.as_str(), "tour", "tour-board", "tour-status"),
        ] {
            open_fresh(page, hash).await?;
            wait_for(
                client,
                &format!("return document.getElementById('{view}-counter').textContent.startsWith('Step ');"),
            )
            .await?;
            on_one_screen(client, hash, board, sentence).await?;
            if view == "tour" {
                screenshot(client, "tour-search-phone").await?;
            }
        }
        // The tour's try-it on the phone: the board and what the learner's move did.
        open_fresh(page, &format!("tour?b={SAMPLE_TOUR}")).await?;
        click_id(client, "tour-try-mode").await?;
        wait_for(client, "return document.getElementById('tour-try').dataset.moves === '0';").await?;
        client.execute("window.scrollTo(0, 0);", vec![]).await?;
        for sq in ["h2", "e5"] {
            client
                .execute(
                    &format!("document.querySelector('#tour-board [data-square=\"{sq}\"]').dispatchEvent(new MouseEvent('click', {{ bubbles: true }}));"),
                    vec![],
                )
                .await?;
        }
        wait_for(client, "return document.getElementById('tour-try').dataset.moves === '2';").await?;
        client.execute("window.scrollTo(0, 0);", vec![]).await?;
        on_one_screen(client, "tour, try it yourself", "tour-board", "tour-try").await?;
        screenshot(client, "tour-try-phone").await?;
        Ok::<(), Failure>(())
    }
    .await;
    client.set_window_size(1280, 800).await?;
    result
}

/// The board and the sentence both inside the screen, the page at scroll 0.
pub(super) async fn on_one_screen(
    client: &Client,
    what: &str,
    board: &str,
    sentence: &str,
) -> Result<(), Failure> {
    let report = client
        .execute(
            &format!(
                "const H = window.innerHeight, W = document.documentElement.clientWidth;
                 const b = document.querySelector('#{board} svg').getBoundingClientRect();
                 const s = document.getElementById('{sentence}').getBoundingClientRect();
                 return {{ scrollY: window.scrollY, inside: b.top >= 0 && b.bottom <= H && s.top >= 0 && s.bottom <= H && s.height > 0 && b.right <= W,
                           board: [Math.round(b.top), Math.round(b.bottom)], sentence: [Math.round(s.top), Math.round(s.bottom)], H }};"
            ),
            vec![],
        )
        .await?;
    assert_eq!(report["scrollY"], json!(0), "{what}: {report}");
    assert_eq!(report["inside"], json!(true), "{what}: {report}");
    Ok(())
}
