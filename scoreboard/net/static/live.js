"use strict";
// The live score: the table's state by Server-Sent Events (/api/events). The server sends the
// texts made in the display's language (`view`); this only puts them in place, and says
// "connection lost" when nothing (not even the 2 s heartbeat) has come for 5 s.
const LOST_AFTER_MS = 5000;
const $ = (id) => document.getElementById(id);
let lastHeard = Date.now();
let offline = false;
let source = null;

function connect() {
  if (source) source.close();
  source = new EventSource("/api/events");
  source.addEventListener("state", (e) => {
    offline = false;
    heard();
    show(JSON.parse(e.data).view);
  });
  source.addEventListener("heartbeat", heard);
  source.addEventListener("table", (e) => {
    offline = !JSON.parse(e.data).connected;
    heard();
  });
  // EventSource connects again by itself; a refused one ends CLOSED, so try again here.
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 1000);
  };
}

function heard() {
  lastHeard = Date.now();
  banner();
}

function banner() {
  const b = $("banner");
  const lost = Date.now() - lastHeard > LOST_AFTER_MS;
  const text = lost ? b.dataset.lost : offline ? b.dataset.offline : "";
  b.textContent = text;
  b.hidden = !text;
  document.body.classList.toggle("lost", lost);
  return lost;
}

function list(id, lines) {
  const ul = $(id);
  ul.replaceChildren(...lines.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
}

function show(v) {
  document.documentElement.lang = v.lang;
  document.title = v.words.title;
  const b = $("banner");
  b.dataset.lost = v.words.lost;
  b.dataset.offline = v.words.offline;
  for (const side of ["A", "B"]) {
    $("name-" + side).textContent = v.names[side];
    $("score-" + side).textContent = v.score[side];
    $("frames-" + side).textContent = v.frames[side];
    $("turn-" + side).textContent = v.words.at_table;
    $("side-" + side).classList.toggle("striker", v.striker === side);
  }
  $("race").textContent = "(" + v.race + ")";
  $("frame").textContent = v.frame;
  $("headline").textContent = v.headline;
  $("hint").textContent = v.hint;
  list("foul", v.foul);
  list("faults", v.faults);
  $("board").classList.remove("waiting");
}

// A connection that went quiet (Wi-Fi gone, no reset) is replaced, at most every 5 s.
let lastTry = Date.now();
setInterval(() => {
  if (banner() && Date.now() - lastTry > LOST_AFTER_MS) {
    lastTry = Date.now();
    connect();
  }
}, 500);
connect();
