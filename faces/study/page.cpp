#include "study/page.hpp"

namespace rave::study {
namespace {

constexpr std::string_view kPage = R"html(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rave study: Raven's Progressive Matrices</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 980px; margin: 1.5em auto; padding: 0 1em; color: #222; }
  section { display: none; } section.shown { display: block; }
  #matrix { display: grid; gap: 4px; width: max-content; margin: 0.5em auto; }
  #matrix img, #matrix .missing { width: 120px; height: 120px; border: 1px solid #999; }
  #matrix .missing { display: flex; align-items: center; justify-content: center; font-size: 48px; color: #666; }
  #candidates { display: grid; grid-template-columns: repeat(4, max-content); gap: 8px; justify-content: center; margin-top: 1em; }
  .candidate { border: 2px solid #bbb; background: #fff; padding: 2px; cursor: pointer; }
  .candidate:hover, .candidate:focus { border-color: #06c; }
  .candidate img { width: 110px; height: 110px; display: block; }
  .candidate span { display: block; font-weight: bold; }
  #progress { text-align: center; color: #555; }
  #feedback-text.right { color: #070; } #feedback-text.wrong { color: #b00; }
  #error { color: #b00; }
  button.main { font-size: 1.1em; padding: 0.4em 1.2em; }
</style>
</head>
<body>
<h1>Raven's Progressive Matrices</h1>
<p id="error" role="alert"></p>
<section id="welcome">
  <p>Each puzzle is a matrix of pictures with the last one missing (marked <b>?</b>). Every row
  follows the same rules: the number, position, shape, size and color of the objects change (or stay
  the same) in the same way across the row. Below the matrix are 8 candidates, numbered 1 to 8.
  Choose the one that completes the matrix: click it, or press its number on the keyboard.</p>
  <p>There is no time limit, but please answer as soon as you are sure: the time you take is
  recorded. The first few puzzles are practice: after each you are told the right answer. Then the
  test begins, without feedback. You may stop at any time and come back later in this browser (or
  with the link shown at the bottom of the page) to continue where you left off.</p>
  <p><label>Name or code (optional, as the study's organiser asks): <input id="name" maxlength="200"></label></p>
  <p><button id="start" class="main">Start</button></p>
</section>
<section id="problem">
  <p id="progress"></p>
  <div id="matrix"></div>
  <div id="candidates"></div>
</section>
<section id="feedback">
  <p id="feedback-text"></p>
  <p><button id="next" class="main">Next</button></p>
</section>
<section id="interlude">
  <p>The practice is over. The test begins now: you will not be told whether your answers are
  right.</p>
  <p><button id="begin" class="main">Begin the test</button></p>
</section>
<section id="done">
  <p>Thank you: every puzzle is answered. You may close this page.</p>
</section>
<p id="resume-link" style="color:#777;font-size:0.85em"></p>
<script>
"use strict";
let token = location.hash.slice(1) || localStorage.getItem("rave-study-token") || "";
let state = null, current = null, shownAt = 0, busy = true;

async function api(method, path, body) {
  const response = await fetch(path, {method, headers: {"Content-Type": "application/json", "X-Rave-Token": token},
                                      body: body === undefined ? undefined : JSON.stringify(body)});
  const json = await response.json();
  if (!response.ok) throw new Error(json.error || ("HTTP " + response.status));
  return json;
}
function show(id) {
  for (const s of document.querySelectorAll("section")) s.classList.toggle("shown", s.id === id);
}
function fail(error) { document.getElementById("error").textContent = String(error.message || error); }
function remember() {
  localStorage.setItem("rave-study-token", token);
  history.replaceState(null, "", "#" + token);
  document.getElementById("resume-link").textContent = "To continue elsewhere: " + location.href;
}
async function start() {
  const created = await api("POST", "/api/participants", {name: document.getElementById("name").value});
  token = created.token;
  remember();
  await resume();
}
async function resume() {
  state = await api("GET", "/api/state");
  remember();
  if (state.done) show("done");
  else if (state.practice > 0 && state.position === state.practice) show("interlude");
  else await load(state.position);
}
function loaded(img) {
  return img.complete ? Promise.resolve() : new Promise(r => { img.onload = r; img.onerror = r; });
}
async function load(position) {
  busy = true;
  current = await api("GET", "/api/problems/" + position);
  const test = position - state.practice;
  document.getElementById("progress").textContent = current.practice
    ? "Practice " + (position + 1) + " of " + state.practice
    : "Problem " + (test + 1) + " of " + (state.problems - state.practice);
  const matrix = document.getElementById("matrix");
  matrix.style.gridTemplateColumns = "repeat(" + current.grid + ", max-content)";
  matrix.replaceChildren();
  const images = [];
  for (const url of current.context) {
    const img = document.createElement("img");
    img.src = url; img.alt = "";
    matrix.append(img); images.push(img);
  }
  const missing = document.createElement("div");
  missing.className = "missing"; missing.textContent = "?";
  matrix.append(missing);
  const candidates = document.getElementById("candidates");
  candidates.replaceChildren();
  current.candidates.forEach((url, i) => {
    const button = document.createElement("button");
    button.className = "candidate"; button.dataset.label = i + 1;
    const img = document.createElement("img");
    img.src = url; img.alt = "candidate " + (i + 1);
    const number = document.createElement("span");
    number.textContent = i + 1;
    button.append(img, number);
    button.addEventListener("click", () => choose(i + 1).catch(fail));
    candidates.append(button); images.push(img);
  });
  show("problem");
  await Promise.all(images.map(loaded));
  shownAt = performance.now();
  busy = false;
}
async function choose(label) {
  if (busy || !current) return;
  busy = true;
  const milliseconds = Math.round(performance.now() - shownAt);
  const result = await api("POST", "/api/answers", {position: current.position, answer: label, milliseconds});
  if (current.practice) {
    const text = document.getElementById("feedback-text");
    text.textContent = result.correct ? "Right: the answer is " + result.answer + "."
                                      : "Not quite: you chose " + label + ", the answer is " + result.answer + ".";
    text.className = result.correct ? "right" : "wrong";
    document.getElementById("next").onclick = () => advance(result).catch(fail);
    show("feedback");
  } else {
    await advance(result);
  }
}
async function advance(result) {
  if (result.done) show("done");
  else if (result.next === state.practice) show("interlude");
  else await load(result.next);
}
document.addEventListener("keydown", event => {
  if (event.key >= "1" && event.key <= "8" && document.getElementById("problem").classList.contains("shown"))
    choose(Number(event.key)).catch(fail);
});
document.getElementById("start").addEventListener("click", () => start().catch(fail));
document.getElementById("begin").addEventListener("click", () => load(state.practice).catch(fail));
if (token) resume().catch(error => { fail(error); show("welcome"); });
else show("welcome");
</script>
</body>
</html>
)html";

}  // namespace

std::string_view page_html() { return kPage; }

}  // namespace rave::study
