//! A teacher's walk through the board, at 1280x800, 1024x768 (a projector) and 390x844 (a
//! phone): every sentence on the board says what the board shows. Each check stands at the
//! place where the page once said something false:
//!
//! 1. the showdown's judge verdict ("Every king is in check") only under the final answer,
//!    not at an earlier step nor beside the learner's own pieces; its step's sentence under
//!    the board, on a phone's screen with it;
//! 2. with chess coordinates on, the sentences, the stack and the "Showing..." line name
//!    squares as the board labels them;
//! 3. the tour's stop numbers never under an arrowhead, each inside its tag and its square,
//!    on the page and in the worksheet the page saves (`tour --format svg`);
//! 4. on a projector (1024x768) and at 1280x800 the board, its sentence and the step controls
//!    on one screen, the board's column no wider than the board;
//! 5. an error from a view's buttons said under those buttons; a link the view cannot open
//!    replaced in the address by what the view shows;
//! 6. "Next/Previous placement" during a search leave the search, at the placement after (or
//!    the last of) those it has found;
//! 7. each view printed as a worksheet: the board across most of the page, the answer and
//!    the step's sentence; no button, no instructions, no heading over nothing;
//! 12. the small words: one square, a search that is over, the board before the search with
//!     its given queen, the tour's goal layer; and what a class asks for: what the judge's
//!     "1 5 8 6 3 7 2 4" means, why two queens attack each other, a solved try-it shown as
//!     solved, the learner's own queens kept in the link, plain words; a square's outline
//!     (the cursor, a mark) inside the board;
//! 8. a player's button that disables itself hands the focus on: the keys keep working;
//! 9. while a search plays, the side column stays put and the sentence keeps its height;
//! 10. a step link keeps the address while it opens (a reload at once opens the same step);
//! 11. the showdown's pieces panel rings the king that stops a slide when it is in check (as
//!     the command line's judge says).

use fantoccini::Client;
use serde_json::{Value, json};

use super::steps::{SAMPLE_TOUR, on_one_screen, open_fresh};
use super::{
    Failure, Page, at_step, board_queens, cli, cli_lines, click_id, emulate_media, first_solution,
    open, press_char, printed_pages, saves_svg, screenshot, text_of, type_into, wait_for,
};

/// Every check of this file, in the order a teacher meets them.
pub(super) async fn walk(page: &Page<'_>) -> Result<(), Failure> {
    showdown_verdict(page).await?;
    chess_coordinates(page).await?;
    tour_stop_numbers(page).await?;
    worksheet_stop_tags(page).await?;
    projector_layout(page).await?;
    errors_at_the_buttons(page).await?;
    placements_leave_the_search(page).await?;
    printed_as_worksheets(page).await?;
    small_words(page).await?;
    outlines_inside_the_board(page).await?;
    what_a_class_asks(page).await?;
    keys_keep_working(page).await?;
    steady_while_playing(page).await?;
    link_kept_while_opening(page).await?;
    pieces_panel_kings(page).await?;
    try_it_in_the_link(page).await?;
    Ok(())
}

/// Sets the page's own viewport to `width` x `height` CSS pixels: the window's size counts
/// the browser's own bars, measured and added (again, until the page has its size).
async fn viewport(client: &Client, width: i64, height: i64) -> Result<(), Failure> {
    let (mut w, mut h) = (width, height);
    let mut shown = json!(null);
    for _ in 0..5 {
        client.set_window_size(w as u32, h as u32).await?;
        shown = client
            .execute("return [window.innerWidth, window.innerHeight];", vec![])
            .await?;
        let (iw, ih) = (
            shown[0].as_i64().unwrap_or(0),
            shown[1].as_i64().unwrap_or(0),
        );
        if (iw, ih) == (width, height) {
            return Ok(());
        }
        (w, h) = (w + width - iw, h + height - ih);
    }
    Err(format!("the viewport is {shown}, not {width}x{height}").into())
}

/// Whether `text` names a square, row or column by number ("row 8", "column 6").
fn names_rows_or_columns(text: &str) -> bool {
    ["row ", "rows ", "column "].iter().any(|word| {
        text.match_indices(word).any(|(at, _)| {
            text[at + word.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
    })
}

/// The square (1-based row, column) of a trace's step k, if it has one.
fn step_square(lines: &[Value], k: u64) -> Option<(u64, u64)> {
    let line = lines.iter().find(|l| l["step"] == k)?;
    Some((line["square"][0].as_u64()?, line["square"][1].as_u64()?))
}

/// A square of an 8x8 board (1-based row from the top, column from the left) in chess words.
fn chess_name((r, c): (u64, u64)) -> String {
    format!("{}{}", char::from(b'a' + c as u8 - 1), 9 - r)
}

/// Fault 1: The judge's verdict only under the final answer; the step's sentence under the board.
async fn showdown_verdict(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    let verdict = "Every king is in check (verified by the judge).";
    open(page, "showdown?step=2").await?;
    at_step(client, "showdown", 2).await?;
    let unchecked = client
        .execute(
            "return document.querySelectorAll('#showdown-board .sq.bad').length;",
            vec![],
        )
        .await?;
    assert!(
        unchecked.as_u64().unwrap_or(0) > 0,
        "step 2 shows unchecked kings"
    );
    let checks = text_of(client, "showdown-checks").await?;
    assert!(!checks.contains("Every king"), "step 2: {checks}");
    // The step's sentence stands under the board.
    let under = client
        .execute(
            "return document.getElementById('showdown-status').closest('.board-area') !== null;",
            vec![],
        )
        .await?;
    assert_eq!(
        under,
        json!(true),
        "the showdown's sentence under its board"
    );
    // The last step: the answer, and the judge's word on it.
    let steps = client
        .execute(
            "return document.getElementById('showdown-slider').max;",
            vec![],
        )
        .await?;
    let steps: u64 = steps.as_str().unwrap_or("0").parse()?;
    assert!(steps > 2, "the optimiser's trace has {steps} steps");
    type_into(client, "showdown-goto", &steps.to_string()).await?;
    at_step(client, "showdown", steps).await?;
    wait_for(
        client,
        &format!(
            "return document.getElementById('showdown-checks').textContent === '{verdict}' && document.querySelectorAll('#showdown-board .sq.bad').length === 0;"
        ),
    )
    .await?;
    // Step 0: an empty board.
    click_id(client, "showdown-start").await?;
    at_step(client, "showdown", 0).await?;
    assert_eq!(text_of(client, "showdown-checks").await?, "", "step 0");
    // The learner's board, with no piece yet: neither the verdict nor the optimiser's
    // sentence beside it.
    type_into(client, "showdown-goto", &steps.to_string()).await?;
    at_step(client, "showdown", steps).await?;
    click_id(client, "showdown-try").await?;
    wait_for(
        client,
        "return Number(document.getElementById('showdown-try-status').dataset.unchecked) > 0;",
    )
    .await?;
    assert_eq!(text_of(client, "showdown-checks").await?, "", "try it");
    assert_eq!(text_of(client, "showdown-status").await?, "", "try it");
    click_id(client, "showdown-try").await?;
    wait_for(
        client,
        &format!("return document.getElementById('showdown-checks').textContent === '{verdict}';"),
    )
    .await?;
    // A phone: the board and the step's sentence on one screen.
    viewport(client, 390, 844).await?;
    let phone = async {
        open_fresh(page, "showdown?step=2").await?;
        at_step(client, "showdown", 2).await?;
        on_one_screen(
            client,
            "showdown at step 2",
            "showdown-board",
            "showdown-status",
        )
        .await?;
        screenshot(client, "showdown-step-phone").await
    }
    .await;
    viewport(client, 1280, 800).await?;
    phone
}

/// Fault 2: With chess coordinates on, every sentence names squares as the board labels them.
async fn chess_coordinates(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    let trace = cli_lines(&["queens", "--trace"], "1\n1 1\n");
    open(page, "queens?q=1,1&step=22").await?;
    at_step(client, "queens", 22).await?;
    let texts = "return ['queens-status', 'queens-count', 'queens-stack', 'queens-stack-note'].map((id) => document.getElementById(id).textContent);";
    let square = step_square(&trace, 22).expect("step 22 tries a square");
    let before: Vec<String> = serde_json::from_value(client.execute(texts, vec![]).await?)?;
    assert!(
        before[0].contains(&format!("row {}, column {}", square.0, square.1)),
        "{before:?}"
    );
    click_id(client, "chess-coordinates").await?;
    let result = async {
        let named = chess_name(square);
        wait_for(
            client,
            &format!("return document.getElementById('queens-status').textContent.includes('{named}');"),
        )
        .await?;
        let after: Vec<String> = serde_json::from_value(client.execute(texts, vec![]).await?)?;
        for text in &after {
            assert!(!names_rows_or_columns(text), "chess coordinates on: {text}");
        }
        assert!(after[1].contains("a8"), "the given queen: {}", after[1]);
        // The board's labels say the same.
        let labels = client
            .execute(
                "return [...document.querySelectorAll('#queens-board .edge-labels text')].map((t) => t.textContent).join(' ');",
                vec![],
            )
            .await?;
        assert_eq!(labels, json!("8 7 6 5 4 3 2 1 a b c d e f g h"));
        Ok::<(), Failure>(())
    }
    .await;
    click_id(client, "chess-coordinates").await?;
    result?;
    wait_for(
        client,
        &format!(
            "return document.getElementById('queens-status').textContent.includes('row {}, column {}');",
            square.0, square.1
        ),
    )
    .await?;
    Ok(())
}

/// The stop numbers of the tour board that an arrowhead covers, and those that spill out of
/// their tag or their square (each as words).
const STOP_PROBLEMS: &str = "const b = document.getElementById('tour-board');
     const problems = [];
     const tags = [...b.querySelectorAll('[data-stop]')].map((g) => {
       const shape = g.querySelector('.stop-disc').getBBox(), text = g.querySelector('text').getBBox();
       const name = g.dataset.stop;
       if (text.x < shape.x - 0.01 || text.x + text.width > shape.x + shape.width + 0.01)
         problems.push(`stop ${name}: its text is wider than its tag`);
       if (Math.floor(shape.x + 1e-6) !== Math.floor(shape.x + shape.width - 1e-6) || Math.floor(shape.y + 1e-6) !== Math.floor(shape.y + shape.height - 1e-6))
         problems.push(`stop ${name}: its tag leaves its square`);
       return { name, shape };
     });
     // Each arrowhead (the marker: 0.28 long, its tip 0.056 past the line's end, 0.28 wide),
     // sampled at points spread over its triangle.
     for (const a of b.querySelectorAll('line.arrow')) {
       const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((k) => Number(a.getAttribute(k)));
       const len = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
       const tip = [x2 + ux * 0.056, y2 + uy * 0.056];
       const base = [x2 - ux * 0.224, y2 - uy * 0.224];
       const left = [base[0] - uy * 0.14, base[1] + ux * 0.14], right = [base[0] + uy * 0.14, base[1] - ux * 0.14];
       for (let i = 0; i <= 10; i++) for (let j = 0; i + j <= 10; j++) {
         const u = i / 10, v = j / 10, w = 1 - u - v;
         const x = tip[0] * u + left[0] * v + right[0] * w, y = tip[1] * u + left[1] * v + right[1] * w;
         for (const { name, shape } of tags) {
           if (x > shape.x && x < shape.x + shape.width && y > shape.y && y < shape.y + shape.height)
             problems.push(`stop ${name}: under the arrowhead of ${x1},${y1} -> ${x2},${y2}`);
         }
       }
     }
     return [...new Set(problems)];";

/// Fault 3: The tour's stop numbers: never under an arrowhead, each inside its tag and square.
async fn tour_stop_numbers(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "tour").await?;
    wait_for(
        client,
        "return document.querySelectorAll('#tour-board [data-stop]').length > 2;",
    )
    .await?;
    let problems = client.execute(STOP_PROBLEMS, vec![]).await?;
    assert_eq!(problems, json!([]), "the tour as it opens");
    // A square visited twice (the learner's queen goes down the h-file and back): "0,2".
    click_id(client, "tour-try-mode").await?;
    wait_for(
        client,
        "return document.getElementById('tour-try').dataset.moves === '0';",
    )
    .await?;
    for sq in ["h2", "h8"] {
        client
            .execute(
                &format!("document.querySelector('#tour-board [data-square=\"{sq}\"]').dispatchEvent(new MouseEvent('click', {{ bubbles: true }}));"),
                vec![],
            )
            .await?;
    }
    wait_for(
        client,
        "return document.getElementById('tour-try').dataset.moves === '2';",
    )
    .await?;
    let twice = client
        .execute(
            "return [...document.querySelectorAll('#tour-board [data-stop]')].map((g) => g.dataset.stop);",
            vec![],
        )
        .await?;
    assert!(twice.as_array().unwrap().contains(&json!("0,2")), "{twice}");
    let problems = client.execute(STOP_PROBLEMS, vec![]).await?;
    assert_eq!(problems, json!([]), "a square visited twice");
    click_id(client, "tour-try-mode").await?;
    Ok(())
}

/// Where the board, the step's sentence and the step controls are, and whether they all are
/// on the screen at scroll 0, the board's column no wider than the board.
async fn on_screen_with_controls(
    client: &Client,
    what: &str,
    view: &str,
    board: &str,
) -> Result<(), Failure> {
    let report = client
        .execute(
            &format!(
                "const H = window.innerHeight, W = document.documentElement.clientWidth;
                 const box = (e) => {{ const r = e.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]; }};
                 const parts = {{ board: document.querySelector('#{board} svg'), sentence: document.getElementById('{view}-status'),
                                  step: document.getElementById('{view}-forward'), back: document.getElementById('{view}-back') }};
                 const boxes = Object.fromEntries(Object.entries(parts).map(([k, e]) => [k, box(e)]));
                 const inside = Object.values(boxes).every(([l, t, r, b]) => t >= 0 && b <= H && l >= 0 && r <= W && b > t);
                 const area = box(document.querySelector('#{board}').closest('.board-area'));
                 return {{ scrollY: window.scrollY, inside, narrow: area[2] - area[0] <= boxes.board[2] - boxes.board[0] + 8, boxes, area, H, W }};"
            ),
            vec![],
        )
        .await?;
    assert_eq!(report["scrollY"], json!(0), "{what}: {report}");
    assert_eq!(report["inside"], json!(true), "{what}: {report}");
    assert_eq!(
        report["narrow"],
        json!(true),
        "{what}: the board's column: {report}"
    );
    Ok(())
}

/// Fault 4: At 1024x768 and 1280x800: the board, its sentence and the step controls on one screen.
async fn projector_layout(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    let tour = format!("tour?b={SAMPLE_TOUR}&step=4");
    let result = async {
        for (width, height) in [(1024, 768), (1280, 800)] {
            viewport(client, width, height).await?;
            for (hash, view, board) in [
                ("queens?q=1,1&step=22", "queens", "queens-board"),
                ("nqueens?n=8&step=23", "nqueens", "nqueens-board"),
                (tour.as_str(), "tour", "tour-board"),
                ("showdown?step=2", "showdown", "showdown-board"),
            ] {
                open_fresh(page, hash).await?;
                wait_for(
                    client,
                    &format!("return document.getElementById('{view}-counter').textContent.startsWith('Step ');"),
                )
                .await?;
                on_screen_with_controls(client, &format!("{hash} at {width}x{height}"), view, board)
                    .await?;
            }
            screenshot(client, &format!("showdown-step-{width}x{height}")).await?;
        }
        Ok::<(), Failure>(())
    }
    .await;
    viewport(client, 1280, 800).await?;
    result
}

/// Whether the element with this id has text and stands on the screen above the board `board`.
async fn said_above_board(client: &Client, id: &str, board: &str) -> Result<Value, Failure> {
    client
        .execute(
            &format!(
                "const e = document.getElementById('{id}'), r = e.getBoundingClientRect();
                 const b = document.querySelector('#{board} svg, #{board} table').getBoundingClientRect();
                 return {{ text: e.textContent, shown: e.textContent !== '' && r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.bottom <= b.top + 1 }};"
            ),
            vec![],
        )
        .await
        .map_err(Into::into)
}

/// Opens `view` at its sample, types `value` into the field `field` and presses `button`; once
/// the view's error is said, where its problem stands ([`said_above_board`]), at scroll 0.
async fn error_said(
    page: &Page<'_>,
    view: &str,
    field: &str,
    value: &str,
    button: &str,
) -> Result<Value, Failure> {
    let client = page.client;
    open(page, view).await?;
    client.execute("window.scrollTo(0, 0);", vec![]).await?;
    type_into(client, field, value).await?;
    click_id(client, button).await?;
    wait_for(
        client,
        &format!("return document.getElementById('{view}-error').textContent;"),
    )
    .await?;
    client.execute("window.scrollTo(0, 0);", vec![]).await?;
    said_above_board(client, &format!("{view}-problem"), &format!("{view}-board")).await
}

/// Fault 5: An error from a view's buttons under those buttons; a link the view cannot open
/// replaced in the address by what the view shows.
async fn errors_at_the_buttons(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    let said = error_said(page, "nqueens", "nqueens-side", "40", "nqueens-list").await?;
    assert_eq!(said["shown"], json!(true), "N-Queens side 40, list: {said}");
    assert_eq!(text_of(client, "nqueens-output").await?, "", "{said}");

    // A price the statement does not allow, after an answer was shown.
    let said = error_said(page, "showdown", "showdown-price-1", "0", "showdown-solve").await?;
    assert_eq!(said["shown"], json!(true), "showdown, a price 0: {said}");
    assert_eq!(
        text_of(client, "showdown-cost").await?,
        "\u{2014}",
        "{said}"
    );

    // A link: the address names the side the view shows; one the view cannot open shows the
    // view's sample, and the address says so (a reload opens what is on the screen).
    for (hash, bad) in [
        ("nqueens?n=64&step=0", false),
        ("nqueens?n=64&step=0&fix=1,65", true),
    ] {
        open_fresh(page, hash).await?;
        let error = text_of(client, "state-error").await?;
        assert_eq!(!error.is_empty(), bad, "{hash}: {error}");
        let address = client.execute("return location.hash;", vec![]).await?;
        let side = text_of(client, "nqueens-side").await?;
        let drawn = client
            .execute(
                "return document.querySelector('#nqueens-board svg').getAttribute('aria-rowcount');",
                vec![],
            )
            .await?;
        assert_eq!(drawn, json!(side), "{hash}");
        assert!(
            address
                .as_str()
                .unwrap_or_default()
                .contains(&format!("n={side}&")),
            "{hash}: the address {address} against the side shown, {side}"
        );
    }
    Ok(())
}

/// Fault 6: "Next/Previous placement" during a search: the placement after (or the last of) those
/// the search has found, the search put away.
async fn placements_leave_the_search(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    let trace = cli_lines(&["queens", "--trace"], "1\n1 1\n");
    let placements = trace.iter().filter(|l| l["event"] == "solution").count();
    assert!(placements > 2, "{placements} placements");
    let after_first = first_solution(&trace) + 1;
    for (button, expected) in [("queens-next", 2), ("queens-prev", 1)] {
        open(page, &format!("queens?q=1,1&step={after_first}")).await?;
        at_step(client, "queens", after_first).await?;
        click_id(client, button).await?;
        wait_for(
            client,
            &format!("return document.getElementById('queens-count').textContent.startsWith('Showing placement {expected} of {placements} ');"),
        )
        .await?;
        let left = client
            .execute(
                "return [document.getElementById('queens-counter').textContent, document.getElementById('queens-status').textContent, document.getElementById('queens-panels').hidden, location.hash];",
                vec![],
            )
            .await?;
        assert_eq!(
            left,
            json!([
                "No search to step through yet.",
                "",
                true,
                format!("#queens?q=1,1&p={expected}")
            ]),
            "{button} during the search"
        );
    }
    // Before the first placement is found, "Previous" goes round to the last.
    open(page, "queens?q=1,1&step=22").await?;
    at_step(client, "queens", 22).await?;
    click_id(client, "queens-prev").await?;
    wait_for(
        client,
        &format!("return document.getElementById('queens-count').textContent.startsWith('Showing placement {placements} of {placements} ');"),
    )
    .await?;
    Ok(())
}

/// Fault 12: The small words.
async fn small_words(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    // Step 0 of a search with a given queen: not an empty board.
    open(page, "queens?q=1,1&step=0").await?;
    at_step(client, "queens", 0).await?;
    let status = text_of(client, "queens-status").await?;
    assert!(!status.contains("empty"), "{status}");
    assert!(status.contains("given queen"), "{status}");
    // The last step of the whole search: over, nothing to backtrack to.
    let last = last_step(&cli_lines(&["queens", "--trace"], "1\n1 1\n"));
    open(page, &format!("queens?q=1,1&step={last}")).await?;
    at_step(client, "queens", last).await?;
    let status = text_of(client, "queens-status").await?;
    let stack = text_of(client, "queens-stack").await?;
    assert!(status.contains("The search is over"), "{status}");
    assert!(!stack.contains("backtracks"), "{stack}");
    // The tour's first layer: one square.
    open(page, &format!("tour?b={SAMPLE_TOUR}&step=1")).await?;
    at_step(client, "tour", 1).await?;
    let status = text_of(client, "tour-status").await?;
    assert!(status.contains("; 1 square reached so far"), "{status}");
    // The tour's goal layer says that it keeps only the goal's states.
    let lines = cli_lines(
        &["tour", "--trace"],
        &format!("1\n{}\n\n", SAMPLE_TOUR.replace('/', "\n")),
    );
    let goal = lines
        .iter()
        .find(|l| l["event"] == "layer" && l["goal"] == json!(true))
        .and_then(|l| l["step"].as_u64())
        .expect("a goal layer");
    open(page, &format!("tour?b={SAMPLE_TOUR}&step={goal}")).await?;
    at_step(client, "tour", goal).await?;
    let status = text_of(client, "tour-status").await?;
    assert!(status.contains("the search stops here"), "{status}");
    Ok(())
}

/// What a class asks for: what the placement's numbers mean, why two queens attack each
/// other, a solved board shown as solved, plain words.
async fn what_a_class_asks(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "queens?q=1,1").await?;
    let shown = text_of(client, "queens-count").await?;
    assert!(
        shown.contains("(the queen's row in columns 1 to 8, from the left)"),
        "{shown}"
    );
    // Why: the attacking queen and the square share a row, a column or a diagonal.
    let trace = cli_lines(&["queens", "--trace"], "1\n1 1\n");
    let attacked = trace
        .iter()
        .find(|l| l["event"] == "attacked")
        .expect("an attacked square");
    let k = attacked["step"].as_u64().unwrap();
    let (r, c) = step_square(&trace, k).unwrap();
    let by = &attacked["by"][0];
    let (qr, qc) = (by[0].as_u64().unwrap(), by[1].as_u64().unwrap());
    let why = if qr == r {
        "the same row"
    } else if qc == c {
        "the same column"
    } else {
        "the same diagonal"
    };
    open(page, &format!("queens?q=1,1&step={k}")).await?;
    at_step(client, "queens", k).await?;
    let status = text_of(client, "queens-status").await?;
    assert!(
        status.contains(&format!("the queen on row {qr}, column {qc} ({why})")),
        "{status}"
    );
    // A solved try-it board: said, and its queens marked as a solution.
    let first = trace
        .iter()
        .find(|l| l["event"] == "solution")
        .expect("a solution");
    let rows: Vec<u64> = serde_json::from_value(first["rows"].clone())?;
    open(page, "queens?q=1,1").await?;
    click_id(client, "queens-try-mode").await?;
    for (c, r) in rows.iter().enumerate() {
        client
            .execute(
                &format!("document.querySelector('#queens-board [data-square=\"row {r}, column {}\"]').dispatchEvent(new MouseEvent('click', {{ bubbles: true }}));", c + 1),
                vec![],
            )
            .await?;
    }
    wait_for(
        client,
        "const t = document.getElementById('queens-try').textContent; return t.startsWith('8 queens placed') && !t.includes('\\u2026');",
    )
    .await?;
    let solved = client
        .execute(
            "return [document.getElementById('queens-try').textContent, document.querySelectorAll('#queens-board .sq.solution').length];",
            vec![],
        )
        .await?;
    assert!(
        solved[0].as_str().unwrap_or_default().contains("solved"),
        "{solved}"
    );
    assert_eq!(solved[1], json!(8), "{solved}");
    let marked = client
        .execute(
            "return document.getElementById('queens-try').dataset.solved;",
            vec![],
        )
        .await?;
    assert_eq!(marked, json!("true"), "{solved}");
    click_id(client, "queens-try-mode").await?;
    // Plain words: no "lexicographic", no "relaxation".
    for hash in [
        format!("tour?b={SAMPLE_TOUR}&step=1000"),
        "showdown?step=1".to_string(),
    ] {
        open(page, &hash).await?;
        let view = hash.split('?').next().unwrap();
        wait_for(
            client,
            &format!(
                "return document.getElementById('{view}-counter').textContent.startsWith('Step ');"
            ),
        )
        .await?;
        let status = text_of(client, &format!("{view}-status")).await?;
        assert!(
            !status.contains("lexicographic") && !status.contains("relaxation"),
            "{hash}: {status}"
        );
    }
    open(page, "nqueens").await?;
    click_id(client, "nqueens-list").await?;
    wait_for(
        client,
        "return document.getElementById('nqueens-detail').textContent.includes('first placements');",
    )
    .await?;
    let detail = text_of(client, "nqueens-detail").await?;
    assert!(!detail.contains("lexicographic"), "{detail}");
    Ok(())
}

/// The number of a trace's last step.
fn last_step(trace: &[Value]) -> u64 {
    trace
        .iter()
        .filter_map(|l| l["step"].as_u64())
        .max()
        .expect("a trace with steps")
}

/// Whether the focus is in the player of `view` (not on the page's body).
async fn focus_in_player(client: &Client, view: &str) -> Result<Value, Failure> {
    Ok(client
        .execute(
            &format!("const a = document.activeElement; return [a.id, document.getElementById('{view}-player').contains(a) && !a.disabled];"),
            vec![],
        )
        .await?)
}

/// Fault 8: A player's button that disables itself (Start at step 0, Step at the last step) hands
/// the focus on, and the keys keep working.
async fn keys_keep_working(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    let last = last_step(&cli_lines(&["queens", "--trace"], "1\n1 1\n"));
    open(page, "queens?q=1,1&step=3").await?;
    at_step(client, "queens", 3).await?;
    click_id(client, "queens-start").await?;
    at_step(client, "queens", 0).await?;
    let focus = focus_in_player(client, "queens").await?;
    assert_eq!(
        focus[1],
        json!(true),
        "Start at step 0: the focus on {focus}"
    );
    press_char(client, 'n').await?;
    at_step(client, "queens", 1).await?;
    open(page, &format!("queens?q=1,1&step={}", last - 1)).await?;
    at_step(client, "queens", last - 1).await?;
    click_id(client, "queens-forward").await?;
    at_step(client, "queens", last).await?;
    let focus = focus_in_player(client, "queens").await?;
    assert_eq!(
        focus[1],
        json!(true),
        "Step at the last step: the focus on {focus}"
    );
    press_char(client, 'b').await?;
    at_step(client, "queens", last - 1).await?;
    Ok(())
}

/// Fault 9: While a search plays, the side column stays where it is (the step number gaining a
/// digit), and so does the board's sentence's height.
async fn steady_while_playing(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "queens?q=1,1&step=1").await?;
    let mut seen = Vec::new();
    for k in [1u64, 9, 10, 99, 100, 101] {
        type_into(client, "queens-goto", &k.to_string()).await?;
        at_step(client, "queens", k).await?;
        let at = client
            .execute(
                "const left = document.getElementById('queens-player').getBoundingClientRect().left;
                 const s = document.getElementById('queens-sentence').getBoundingClientRect();
                 return [Math.round(left), Math.round(s.height)];",
                vec![],
            )
            .await?;
        seen.push((k, at));
    }
    let first = &seen[0].1;
    assert!(
        seen.iter().all(|(_, at)| at == first),
        "the side column's left and the sentence's height, step by step: {seen:?}"
    );
    Ok(())
}

/// Whether the command line's judge says that the piece of `kind` (1..8) in the middle of a
/// 7x7 board checks a lone king on `king` (1-based row, column).
fn judge_checks(kind: u64, king: (usize, usize)) -> Result<bool, Failure> {
    let dir = tempfile::tempdir()?;
    let rows: Vec<String> = (1..=7)
        .map(|r| {
            (1..=7)
                .map(|c| if (r, c) == king { '#' } else { '_' })
                .collect()
        })
        .collect();
    let input = dir.path().join("t.in");
    let output = dir.path().join("t.out");
    std::fs::write(
        &input,
        format!("1\n7\n{}\n1 1 1 1 1 1 1 1\n", rows.join("\n")),
    )?;
    std::fs::write(&output, format!("1 1\n{kind} 4 4\n"))?;
    let judged = crate::common::run(
        &[
            "showdown",
            "check",
            input.to_str().unwrap(),
            output.to_str().unwrap(),
        ],
        b"",
    );
    assert!(judged.code <= 1, "{}", judged.stderr);
    Ok(judged.code == 0)
}

/// Fault 11: The pieces panel: the other king on a piece's small board is ringed exactly when the
/// piece checks it (the bishop's and the horse's slides stop at a king they check).
async fn pieces_panel_kings(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "showdown").await?;
    client
        .execute(
            "const d = document.getElementById('showdown-pieces-panel'); d.open = true;",
            vec![],
        )
        .await?;
    wait_for(
        client,
        "return document.getElementById('showdown-pieces').dataset.ready === 'true';",
    )
    .await?;
    let mut ringed_some = false;
    for (kind, piece) in [(1, "bishop"), (6, "horse"), (7, "phoenix"), (8, "cannon")] {
        let other: (usize, usize) = serde_json::from_value::<String>(
            client
                .execute(
                    &format!("return document.querySelector('#showdown-pieces [data-piece=\"{piece}\"] [data-other]').dataset.other;"),
                    vec![],
                )
                .await?,
        )?
        .split_once(',')
        .map(|(r, c)| (r.parse().unwrap(), c.parse().unwrap()))
        .unwrap();
        let ringed = client
            .execute(
                &format!("return document.querySelectorAll('#showdown-pieces [data-piece=\"{piece}\"] circle.reach-king[data-square=\"{},{}\"]').length === 1;", other.0, other.1),
                vec![],
            )
            .await?;
        let checks = judge_checks(kind, other)?;
        ringed_some |= checks;
        assert_eq!(
            ringed,
            json!(checks),
            "the {piece}'s other king on {other:?}"
        );
    }
    assert!(ringed_some, "the bishop's slide stops at a king it checks");
    Ok(())
}

/// Fault 10: A step link opened: the address never says another position on the way, so a reload
/// at any moment opens the link again.
async fn link_kept_while_opening(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    let link = "#queens?q=1,1&step=500";
    open(page, "queens").await?;
    // Every address the page writes from now on, in order.
    client
        .execute(
            "window.writtenHashes = [];
             const replace = history.replaceState.bind(history);
             history.replaceState = (state, title, url) => { window.writtenHashes.push(String(url)); return replace(state, title, url); };
             document.body.dataset.ready = 'leaving';
             location.hash = arguments[0];",
            vec![json!(link)],
        )
        .await?;
    wait_for(client, "return document.body.dataset.ready === 'queens';").await?;
    at_step(client, "queens", 500).await?;
    let written = client
        .execute("return [window.writtenHashes, location.hash];", vec![])
        .await?;
    let hashes = written[0].as_array().unwrap();
    assert!(
        hashes.iter().all(|h| h == link),
        "the addresses written while {link} opened: {written}"
    );
    assert_eq!(written[1], json!(link));
    Ok(())
}

/// What a class asks for: the learner's own queens (try it yourself) kept in the link, and
/// opened again from it.
async fn try_it_in_the_link(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    open(page, "queens?q=1,1").await?;
    click_id(client, "queens-try-mode").await?;
    for (r, c) in [(1, 1), (3, 2)] {
        client
            .execute(
                &format!("document.querySelector('#queens-board [data-square=\"row {r}, column {c}\"]').dispatchEvent(new MouseEvent('click', {{ bubbles: true }}));"),
                vec![],
            )
            .await?;
    }
    wait_for(client, "return location.hash.includes('try=1,1;3,2');").await?;
    let link = client.execute("return location.hash;", vec![]).await?;
    let link = link
        .as_str()
        .unwrap_or_default()
        .trim_start_matches('#')
        .to_string();
    open_fresh(page, &link).await?;
    wait_for(
        client,
        "const t = document.getElementById('queens-try').textContent; return document.getElementById('queens-try-mode').getAttribute('aria-pressed') === 'true' && t.startsWith('2 queens placed') && !t.includes('\\u2026');",
    )
    .await?;
    assert_eq!(
        board_queens(client, "queens-board").await?,
        [(1, 1), (3, 2)].into_iter().collect(),
        "{link}"
    );
    click_id(client, "queens-try-mode").await?;
    Ok(())
}

/// A tour whose queen stands twice on a1 (she walks up the a-file's corridor and back):
/// `h1 a1 a7 a1 d1`.
const TOUR_TWICE: &str = ".NPPPPPP/.PPPPPPP/.PPPPPPP/.PPPPPPP/.PPPPPPP/.PPPPPPP/.PPPBPNP/.......Q";

/// Fault 3, the worksheet: the tour saved as SVG from the page (the command line's bytes),
/// opened in the browser alone: each stop's text inside its tag, the tag inside its square,
/// "1,3" on a1 among them.
async fn worksheet_stop_tags(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    let input = format!("1\n{}\n", TOUR_TWICE.replace('/', "\n"));
    open(page, &format!("tour?b={TOUR_TWICE}")).await?;
    wait_for(
        client,
        "return document.getElementById('tour-result').textContent === 'h1a1a7a1d1';",
    )
    .await?;
    saves_svg(page, "tour", &["tour"], &input).await?;
    let drawn = cli(&["tour", "--format", "svg"], &input);
    // The worksheet as a page of its own (a data: address), with no style sheet of the board's.
    let encoded: String = drawn
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    client
        .goto(&format!("data:image/svg+xml;charset=utf-8,{encoded}"))
        .await?;
    let report = client
        .execute(
            "const problems = [], labels = [];
             for (const g of document.querySelectorAll('g.stop')) {
               const shape = g.querySelector('circle, rect').getBBox(), text = g.querySelector('text').getBBox();
               const label = g.querySelector('text').textContent;
               labels.push(label);
               // The text's ink: its advance box less the line's room above and under the digits.
               const top = text.y + text.height * 0.2, bottom = text.y + text.height * 0.8;
               if (text.x < shape.x - 1e-3 || text.x + text.width > shape.x + shape.width + 1e-3 || top < shape.y || bottom > shape.y + shape.height)
                 problems.push(`${label}: its text leaves its tag`);
               const [r, c] = [Number(g.dataset.row) - 1, Number(g.dataset.col) - 1];
               if (shape.x < c || shape.y < r || shape.x + shape.width > c + 1 || shape.y + shape.height > r + 1)
                 problems.push(`${label}: its tag leaves its square`);
             }
             return { problems, labels: labels.sort() };",
            vec![],
        )
        .await?;
    assert_eq!(report["problems"], json!([]), "the worksheet: {report}");
    assert_eq!(report["labels"], json!(["0", "1,3", "2", "4"]), "{report}");
    client.goto("about:blank").await?;
    Ok(())
}

/// What a printed view must show and leave out (the script's arguments: the view, the id of
/// its answer, and whether a step's sentence is shown): problems, and the board's width.
const PRINTED: &str = "const [view, answer, stepping] = arguments;
     const root = document.getElementById(`view-${view}`);
     const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
     const said = (e) => shown(e) && e.innerText.trim() !== '';
     const problems = [];
     const board = [...root.querySelectorAll('.board svg, .board table')].find(shown);
     const b = board.getBoundingClientRect();
     if (b.right > document.documentElement.clientWidth + 1) problems.push('the board leaves the page');
     for (const e of root.querySelectorAll('button, select, textarea, details, fieldset, .hint, [id$=\"-try-status\"], input:not(.board input):not(.prices input)'))
       if (shown(e)) problems.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className} printed`);
     for (const h of root.querySelectorAll('h2, h3')) {
       if (!shown(h)) continue;
       let under = false;
       for (let e = h.nextElementSibling; e && !/^H[23]$/.test(e.tagName); e = e.nextElementSibling)
         under ||= said(e) || (shown(e) && e.querySelector('svg, table') !== null);
       if (!under) problems.push(`the heading '${h.textContent}' over nothing`);
     }
     if (!said(document.getElementById(answer))) problems.push(`the answer (${answer}) not printed`);
     if (stepping && !said(document.getElementById(`${view}-status`))) problems.push(\"the step's sentence not printed\");
     return { problems, board: b.width };";

/// Fault 7: Each view printed is a worksheet: the board at least 12 cm wide (most of the
/// page), the answer and the step's sentence; no button, no piece list, no instructions, no
/// heading over nothing (the tour's "The search" with no search). Laid out for print media on
/// the printable part of the page WebDriver prints on (US Letter less margins of 1 cm:
/// 19.6 x 25.9 cm, 740 x 980 CSS pixels), and printed: one page each.
async fn printed_as_worksheets(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    // 1 cm in CSS pixels.
    const CM: f64 = 96.0 / 2.54;
    let tour_step = format!("tour?b={SAMPLE_TOUR}&step=4");
    let views = [
        ("queens?q=1,1", "queens", "queens-list", false),
        ("queens?q=1,1&step=22", "queens", "queens-list", true),
        ("sultan", "sultan", "sultan-score", false),
        ("tour", "tour", "tour-result", false),
        (tour_step.as_str(), "tour", "tour-result", true),
        ("showdown", "showdown", "showdown-cost", false),
        ("showdown?step=2", "showdown", "showdown-counter", true),
        ("nqueens", "nqueens", "nqueens-result", false),
        ("nqueens?n=8&step=23", "nqueens", "nqueens-counter", true),
    ];
    let result = async {
        viewport(client, 740, 980).await?;
        for (hash, view, answer, stepping) in views {
            open_fresh(page, hash).await?;
            wait_for(
                client,
                &format!("const a = document.getElementById('{answer}').textContent; return a !== '' && a !== '\\u2014' && (!{stepping} || document.getElementById('{view}-counter').textContent.startsWith('Step '));"),
            )
            .await?;
            emulate_media(page, "print").await?;
            let report = client
                .execute(PRINTED, vec![json!(view), json!(answer), json!(stepping)])
                .await;
            emulate_media(page, "").await?;
            let report = report?;
            assert_eq!(report["problems"], json!([]), "{hash} printed: {report}");
            let width = report["board"].as_f64().unwrap_or(0.0) / CM;
            assert!(width >= 12.0, "{hash} printed: a board {width:.1} cm wide");
            assert_eq!(printed_pages(client).await?, 1, "{hash} printed");
        }
        Ok::<(), Failure>(())
    }
    .await;
    emulate_media(page, "").await?;
    viewport(client, 1280, 800).await?;
    result
}

/// Where each square's outline (a stroke: the cursor, a mark) is painted, and whether it
/// stays inside the board's squares: its box widened by half the stroke, or the square
/// itself where the square's rect is clipped to itself (`#square-inside`, a clip path in
/// the units of the rect's own box).
const OUTLINES: &str = "const svg = document.querySelector(`#${arguments[0]} svg`);
     const rows = Number(svg.getAttribute('aria-rowcount')), cols = Number(svg.getAttribute('aria-colcount'));
     const clip = document.getElementById('square-inside');
     const unit = clip !== null && clip.getAttribute('clipPathUnits') === 'objectBoundingBox'
       && clip.children.length === 1 && ['x', 'y', 'width', 'height'].every((k, i) => clip.children[0][k].baseVal.value === [0, 0, 1, 1][i]);
     const problems = [];
     let edges = 0;
     for (const e of svg.querySelectorAll('rect, line, circle, path, polygon, ellipse')) {
       if (e.closest('defs, .edge-labels')) continue;
       const s = getComputedStyle(e), width = parseFloat(s.strokeWidth);
       if (s.stroke === 'none' || !(width > 0) || e.getClientRects().length === 0) continue;
       const b = e.getBBox();
       const inside = unit && s.clipPath === 'url(\"#square-inside\")';
       const w = inside ? 0 : width / 2;
       const box = [b.x - w, b.y - w, b.x + b.width + w, b.y + b.height + w];
       if (e.matches('.sq rect') && (b.x === 0 || b.y === 0 || b.x + 1 === cols || b.y + 1 === rows)) edges++;
       if (box[0] < -1e-6 || box[1] < -1e-6 || box[2] > cols + 1e-6 || box[3] > rows + 1e-6)
         problems.push(`${e.tagName}.${e.getAttribute('class') || e.parentNode.getAttribute('class')} at ${box.map((v) => v.toFixed(2))}`);
     }
     return { problems, edges };";

/// Fault 12: A square's outline (the cursor on a corner, the marks of edge squares) stays
/// inside the board's edge, on every view's board.
async fn outlines_inside_the_board(page: &Page<'_>) -> Result<(), Failure> {
    let client = page.client;
    let tour = format!("tour?b={SAMPLE_TOUR}&step=4");
    for (hash, view, board) in [
        ("queens?q=1,1&step=22", "queens", "queens-board"),
        ("sultan?step=300", "sultan", "sultan-search"),
        (tour.as_str(), "tour", "tour-board"),
        ("showdown?step=2", "showdown", "showdown-board"),
        ("nqueens?n=8&step=23", "nqueens", "nqueens-board"),
    ] {
        open(page, hash).await?;
        wait_for(
            client,
            &format!(
                "return document.getElementById('{view}-counter').textContent.startsWith('Step ');"
            ),
        )
        .await?;
        // The cursor on the bottom right corner (the board's edges nearest the page).
        client
            .execute(
                &format!("const svg = document.querySelector('#{board} svg'); const n = Number(svg.getAttribute('aria-rowcount')) - 1, m = Number(svg.getAttribute('aria-colcount')) - 1; svg.querySelector(`.sq[data-r=\"${{n}}\"][data-c=\"${{m}}\"]`).focus();"),
                vec![],
            )
            .await?;
        let report = client.execute(OUTLINES, vec![json!(board)]).await?;
        assert_eq!(report["problems"], json!([]), "{hash}: outlines: {report}");
        assert!(
            report["edges"].as_u64().unwrap_or(0) >= 1,
            "{hash}: no outlined square on the edge: {report}"
        );
    }
    Ok(())
}
