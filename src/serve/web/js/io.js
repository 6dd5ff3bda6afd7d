// The judge formats in and out of every view: paste or load an input, copy or download the
// output.

function button(text, parent, cls = '') {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (cls) b.className = cls;
  parent.appendChild(b);
  return b;
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Fills the `.io[data-puzzle=...]` block of a view. `solveInput(text)` is called with a pasted
 * or loaded input; the view sets the output with `setOutput`.
 */
export function makeIo(puzzle, solveInput, placeholder = '') {
  const root = document.querySelector(`.io[data-puzzle="${puzzle}"]`);
  root.replaceChildren();
  const left = document.createElement('div');
  const right = document.createElement('div');
  root.append(left, right);

  const inTitle = document.createElement('h3');
  const inLabel = document.createElement('label');
  inLabel.htmlFor = `${puzzle}-input`;
  inLabel.textContent = 'Judge input';
  inTitle.appendChild(inLabel);
  const input = document.createElement('textarea');
  input.id = `${puzzle}-input`;
  input.spellcheck = false;
  input.placeholder = placeholder;
  const inButtons = document.createElement('div');
  inButtons.className = 'buttons';
  const solve = button('Solve the input as typed', inButtons);
  solve.id = `${puzzle}-solve-input`;
  const fileLabel = document.createElement('label');
  fileLabel.textContent = 'Solve an input file ';
  const file = document.createElement('input');
  file.type = 'file';
  fileLabel.appendChild(file);
  inButtons.appendChild(fileLabel);
  const saveInput = button('Download the input', inButtons);
  left.append(inTitle, input, inButtons);

  const outTitle = document.createElement('h3');
  outTitle.id = `${puzzle}-output-title`;
  outTitle.textContent = 'Judge output';
  const output = document.createElement('pre');
  output.id = `${puzzle}-output`;
  output.tabIndex = 0;
  // A region, so that its name is allowed; it scrolls, so it takes the focus.
  output.setAttribute('role', 'region');
  output.setAttribute('aria-labelledby', outTitle.id);
  const outButtons = document.createElement('div');
  outButtons.className = 'buttons';
  const copy = button('Copy the output', outButtons);
  const save = button('Download the output', outButtons);
  const error = document.createElement('p');
  error.id = `${puzzle}-error`;
  error.className = 'error';
  right.append(outTitle, output, outButtons, error);
  // The same error under the view's buttons, where the button that failed is: the foot of
  // the page is off screen. Read out once (an alert), from here.
  const problem = document.createElement('p');
  problem.id = `${puzzle}-problem`;
  problem.className = 'error problem';
  problem.setAttribute('role', 'alert');
  const toolbar = document.querySelector(`#view-${puzzle} .toolbar`);
  if (toolbar) toolbar.after(problem);

  const io = {
    setInput(text) { input.value = text; },
    input() { return input.value; },
    setOutput(text) { output.textContent = text; io.setError(''); },
    output() { return output.textContent; },
    setError(message) {
      error.textContent = message ? `error: ${message}` : '';
      problem.textContent = error.textContent;
    },
    async run(action) {
      io.setError('');
      try {
        await action();
      } catch (e) {
        if (e.name !== 'AbortError') {
          // The output shown was another input's: it no longer applies.
          output.textContent = '';
          io.setError(e.message);
        }
      }
    },
  };
  solve.addEventListener('click', () => io.run(() => solveInput(input.value)));
  file.addEventListener('change', async () => {
    const f = file.files[0];
    if (!f) return;
    input.value = await f.text();
    io.run(() => solveInput(input.value));
  });
  saveInput.addEventListener('click', () => download(`${puzzle}.in`, input.value));
  copy.addEventListener('click', () => navigator.clipboard.writeText(output.textContent));
  save.addEventListener('click', () => download(`${puzzle}.out`, output.textContent));
  return io;
}
