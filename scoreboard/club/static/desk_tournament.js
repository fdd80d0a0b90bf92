// One tournament at the staff's desk (issue 22): each game whose players are known, where it
// is, and the staff's hand on it: a walkover for a player who is missing, a move to another
// free table, a proposed game sent (the "confirm" mode), a result entered or corrected.
// Every change is a staff write (the browser asks for the staff password once).
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
  const answer = document.getElementById("answer");
  answer.className = r.ok ? "" : "bad";
  answer.textContent = r.ok ? `${game}: done` : `${game}: ${await r.text()}`;
  await draw();
}

function freeTables() {
  return [...tables.values()].filter((t) => t.online && t.status === "idle");
}

function controls(g, t, atTable, proposed) {
  const [a, b] = g.players;
  const cell = el("td", "staff");
  const open = !g.winner;
  if (open) {
    cell.append(el("span", null, "walkover to "), button(a, () => act(g.id, "walkover", { winner: a })),
      button(b, () => act(g.id, "walkover", { winner: b })));
    const choose = el("select");
    for (const table of freeTables()) {
      const o = el("option", null, table.name || table.table);
      o.value = table.table;
      choose.append(o);
    }
    if (proposed) choose.value = proposed.table_id;
    if (choose.options.length && t.ready.includes(g.id)) {
      const what = atTable ? "move" : proposed ? "send" : t.dispatch === "confirm" ? "send" : null;
      if (what) cell.append(el("br"), button(what === "move" ? "move to" : "send to",
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
  const rows = [];
  for (const g of t.games) {
    if (!g.players.every((p) => p)) continue;  // its players are not both known yet
    const at = (t.at || {})[g.id];
    const where = g.winner ? `${g.winner} won` + (g.frames ? ` ${g.frames[0]}:${g.frames[1]}` : "")
      + (g.provenance ? ` — ${g.provenance}` : "")  // issue 34: the table's word, or the staff's
      : at ? `at ${at}` : proposed.has(g.id) ? `proposed: ${proposed.get(g.id).table}` : "waits for a table";
    const row = el("tr", g.winner ? "played" : at ? "playing" : "");
    row.id = "game-" + g.id;
    row.append(el("td", null, g.id), el("td", null, `${g.players[0]} v ${g.players[1]}`),
      el("td", "where", where), controls(g, t, Boolean(at), proposed.get(g.id)));
    rows.push(row);
  }
  document.querySelector("#games tbody").replaceChildren(...rows);
  window.deskDrawn = (window.deskDrawn || 0) + 1;
}

window.onMessage = (message) => {
  if (message.type === "tournament" && String(message.id) === tid) draw();
};
follow();
draw();
