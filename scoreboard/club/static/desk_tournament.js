// One tournament at the staff's desk (issue 22): each game whose players are known, where it
// is, and the staff's hand on it: a walkover for a player who is missing, a move to another
// table, a waiting game sent to a table now (issue 34; a proposed one in the "confirm" mode),
// a result entered or corrected. A game that waits says why (the club's words, live). Every
// change is a staff write (the browser asks for the staff password once).
"use strict";
const tid = decodeURIComponent(location.pathname.split("/")[3]);
const by = document.getElementById("by");
by.value = localStorage.getItem("desk-by") || "";
by.onchange = () => localStorage.setItem("desk-by", by.value);

function button(text, action) {
  const b = el("button", null, text);
  b.type = "button";
  b.onclick = action;
  return b;
}

async function act(game, what, body) {
  const r = await fetch(`/api/tournaments/${encodeURIComponent(tid)}/games/${encodeURIComponent(game)}/${what}`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, by: by.value }) });
  const text = await r.text();
  const asked = r.status === 409 && text.startsWith("{") ? JSON.parse(text) : null;
  if (asked && asked.ask === "next_match") {
    // The table's match is in play: it would keep the game for its next match. The staff say.
    if (window.confirm(`${game}: ${asked.message}\n\nSend it there anyway?`)) return act(game, what, { ...body, next_match: true });
  }
  const answer = document.getElementById("answer");
  answer.className = r.ok ? "" : "bad";
  answer.textContent = r.ok ? `${game}: done` : `${game}: ${asked ? asked.message : text}`;
  await draw();
}

function usable(tables) {
  // The tournament's tables online that hold none of its games: the free first, each busy
  // one with what holds it (the club's words: sending there asks first).
  const ok = (tables || []).filter((table) => !table.holds);
  return [...ok.filter((x) => x.free), ...ok.filter((x) => !x.free)];
}
const tableLabel = (table) => table.free ? table.name : `${table.name} (${table.text})`;

function tableChoice(t, proposed) {
  const choose = el("select", "tables");
  for (const table of usable(t.tables)) {
    const o = el("option", null, tableLabel(table));
    o.value = table.table;
    choose.append(o);
  }
  if (proposed) choose.value = proposed.table_id;
  return choose;
}

function controls(g, t, atTable, proposed) {
  const [a, b] = g.players;
  const cell = el("td", "staff");
  const open = !g.winner;
  if (open) {
    cell.append(el("span", null, "walkover to "), button(a, () => act(g.id, "walkover", { winner: a })),
      button(b, () => act(g.id, "walkover", { winner: b })));
    const choose = tableChoice(t, proposed);
    if (choose.options.length && t.ready.includes(g.id)) {
      const what = atTable ? "move" : "send";
      cell.append(el("br"), button(what === "move" ? "move to" : "send to",
        () => act(g.id, what, { table: choose.value })), choose);
    }
  }
  const winner = el("select");
  for (const p of [a, b]) { const o = el("option", null, p); o.value = p; winner.append(o); }
  const fa = el("input"), fb = el("input");
  for (const f of [fa, fb]) Object.assign(f, { type: "number", min: 0, max: 99, size: 2 });
  fa.value = g.frames ? g.frames[0] : ""; fb.value = g.frames ? g.frames[1] : "";
  if (g.winner) winner.value = g.winner;
  cell.append(el("br"), el("span", null, g.winner ? "correct: " : "result: "), winner, fa, el("span", null, ":"), fb,
    button("save", () => act(g.id, "result", { winner: winner.value, frames: [Number(fa.value), Number(fb.value)] })));
  return cell;
}

async function draw() {
  const r = await fetch("/api/tournaments/" + encodeURIComponent(tid), { cache: "no-store" });
  if (!r.ok) return;
  const t = await r.json();
  document.getElementById("title").textContent = t.name + " at the desk";
  document.getElementById("hall-view").href = "/tournament/" + t.id;
  const champion = document.getElementById("champion");
  champion.hidden = !t.champion;
  champion.textContent = t.champion ? "Champion: " + t.champion : "";
  const proposed = new Map((t.proposed || []).map((p) => [p.game, p]));
  const why = new Map((t.waiting || []).map((w) => [w.game, w.text]));
  const rows = [];
  for (const g of t.games) {
    if (!g.players.every((p) => p)) continue;  // its players are not both known yet
    const at = (t.at || {})[g.id];
    const where = g.winner ? `${g.winner} won` + (g.frames ? ` ${g.frames[0]}:${g.frames[1]}` : "")
      + (g.provenance ? ` — ${g.provenance}` : "")  // issue 34: the table's word, or the staff's
      : at ? `at ${at}` : why.has(g.id) ? `waits: ${why.get(g.id)}` : "";
    const row = el("tr", g.winner ? "played" : at ? "playing" : why.has(g.id) ? "waiting" : "");
    row.id = "game-" + g.id;
    row.append(el("td", null, g.id), el("td", null, `${g.players[0]} v ${g.players[1]}`),
      el("td", "where", where), controls(g, t, Boolean(at), proposed.get(g.id)));
    rows.push(row);
  }
  document.querySelector("#games tbody").replaceChildren(...rows);
  window.deskDrawn = (window.deskDrawn || 0) + 1;
}

function showWhy(message) {
  // Why each game waits changed (a score at the table it waits for...): the words in place,
  // each table's choice kept as the staff left it; a game that went out or came back, or a
  // table that came or went, a full redraw.
  const rows = [...document.querySelectorAll("#games tr.waiting")].map((row) => row.id);
  if (rows.join() !== message.waiting.map((w) => "game-" + w.game).join()) return draw();
  const selects = [...document.querySelectorAll("#games select.tables")];
  for (const choose of selects) {
    const now = usable(message.tables);
    if ([...choose.options].map((o) => o.value).sort().join() !== now.map((x) => x.table).sort().join()) return draw();
    const label = new Map(now.map((x) => [x.table, tableLabel(x)]));
    for (const o of choose.options) o.textContent = label.get(o.value);
  }
  for (const w of message.waiting) document.querySelector(`#game-${CSS.escape(w.game)} .where`).textContent = `waits: ${w.text}`;
}

window.onMessage = (message) => {
  if (String(message.id) !== tid) return;
  if (message.type === "tournament") draw();
  else if (message.type === "waiting") showWhy(message);
};
follow();
draw();
