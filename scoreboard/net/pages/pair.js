// The pairing page (issue 12): pair with the code the table shows, then undo and manage
// the paired phones. Every write is a JSON POST with the CSRF token /api/session gives.
"use strict";
let csrf = "";
const $ = (id) => document.getElementById(id);

function say(text) { $("message").textContent = text; }
// The page's words in the display's language (pair_page.py puts them on #message).
function word(name) { return $("message").dataset[name] || ""; }
// What a refused pairing means, by its status.
const REFUSED = { 400: "malformed", 401: "wrong", 429: "locked" };
const WAITING = "waiting for OK at the table";  // the table's reply (scoreboard/table/commands.py)

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(body || {}),
  });
  let answer = {};
  try { answer = await response.json(); } catch (e) { answer = {}; }
  return { status: response.status, answer };
}

async function load() {
  const response = await fetch("/api/session", { cache: "no-store" });
  const session = await response.json();
  csrf = session.csrf;
  $("pair").hidden = session.paired;
  $("paired").hidden = !session.paired;
  if (!session.paired) {
    const code = new URLSearchParams(location.hash.slice(1)).get("code");
    if (code) $("code").value = code;
    return;
  }
  $("me").textContent = session.phone.name;
  fillRoster().catch(() => {});
  const listed = await (await fetch("/api/phones", { cache: "no-store" })).json();
  const list = $("phones");
  list.replaceChildren();
  for (const phone of listed.phones) {
    const item = document.createElement("li");
    item.textContent = `${phone.name} (${phone.id}) `;
    const revoke = document.createElement("button");
    revoke.type = "button";
    revoke.textContent = word(phone.id === session.phone.id ? "unpairMe" : "unpair");
    revoke.addEventListener("click", async () => {
      const { answer } = await post("/api/phones/revoke", { id: phone.id });
      say(answer.message || "");
      await load();
    });
    item.append(revoke);
    list.append(item);
  }
}

$("pair").addEventListener("submit", async (event) => {
  event.preventDefault();
  const { status, answer } = await post("/api/pair", { code: $("code").value, name: $("name").value });
  if (status === 200) {
    history.replaceState(null, "", "/pair");
    say(word("done"));
    await load();
  } else {
    say(word(REFUSED[status]) || answer.message || `${status}`);
  }
});

$("undo").addEventListener("click", async () => {
  const { status, answer } = await post("/api/undo");
  if (status === 503) say(word("noTable"));
  else if (answer.message === WAITING) { say(word("waiting")); followRequest(); }
  else say(answer.message || "");
});

// A change that waits for an OK at the table: the page follows the table's state until the
// request is answered (OK: the table's own words for what it did; FOUL or UNDO: refused; a
// ball or 30 s: dropped), never "waiting" for ever (issue 22).
let following = null;
function followRequest() {
  if (following) following.close();
  const source = new EventSource("/api/events");
  following = source;
  const giveUp = setTimeout(() => { source.close(); say(word("dropped")); }, 40000);
  source.addEventListener("state", (event) => {
    const state = JSON.parse(event.data);
    const key = state.hint && state.hint.key;
    if (key === "phone-undo") return;  // still asking at the table
    clearTimeout(giveUp);
    source.close();
    if (key === "phone-refused") say(word("refused"));
    else if (key) say((state.view && state.view.hint) || key);
    else say(word("dropped"));
  });
}

// The next match's settings: only what is filled in is sent (the rest stays as it is).
const WHERE = { "this match": "thisMatch", "next match": "nextMatch",
  "on the setup screen": "onScreen", "new match": "newMatch" };
$("setup").addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = {};
  // A name left empty is the player at the table now (the placeholder shows who).
  const a = $("player-a").value.trim() || $("player-a").placeholder;
  const b = $("player-b").value.trim() || $("player-b").placeholder;
  if ($("player-a").value.trim() || $("player-b").value.trim()) body.players = [a, b];
  if ($("race").value) body.race = Number($("race").value);
  if ($("target").value) body.target = Number($("target").value);
  if ($("breaker").value) body.breaker = $("breaker").value;
  const { status, answer } = await post("/api/setup", body);
  if (status === 503) say(word("noTable"));
  else say(word(WHERE[answer.message]) || answer.message || `${status}`);
});

async function fillRoster() {
  // The names the table's setup screen offers (the club's players first), to pick from.
  const offered = await (await fetch("/api/roster", { cache: "no-store" })).json();
  $("roster").replaceChildren(...offered.roster.map((name) => new Option(name)));
  // This match's players, as a hint of what "as it is" keeps.
  const state = await (await fetch("/api/state", { cache: "no-store" })).json();
  if (state.players) {
    $("player-a").placeholder = state.players.A;
    $("player-b").placeholder = state.players.B;
  }
}

load().catch(() => say(word("noTable")));
