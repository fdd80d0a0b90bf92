// Under the tournament's title on the hall TV (issue 22): the games in play with their tables
// and live scores, and the games that wait, each with why (issue 34: the club's words, sent
// again when they change). Scores come from the tables' own cards (club.js's stream); which
// game a table plays, from its assign's id, T<tournament>-<game>.
"use strict";

function liveRow(cells, className) {
  const row = el("div", "live-row" + (className ? " " + className : ""));
  for (const [cls, text] of cells) row.append(el("span", cls, text));
  return row;
}

function drawLive() {
  const t = window.tournament;
  const box = document.getElementById("live");
  if (!t || !box) return;
  const decided = new Set(t.games.filter((g) => g.winner).map((g) => g.id));
  const byId = new Map(t.games.map((g) => [g.id, g]));
  const prefix = "T" + t.id + "-";
  const playing = [], out = new Set();
  for (const table of tables.values()) {
    const id = table.assign && table.assign.id;
    if (!id || !id.startsWith(prefix)) continue;
    const game = id.slice(prefix.length);
    if (decided.has(game) || !byId.has(game)) continue;
    out.add(game);
    const [a, b] = byId.get(game).players;
    // Its match holds the table (club/free_table.py: a shot entered, or the result being
    // confirmed): theirs, or another match before it (the game sent as the next one there).
    const theirs = table.players && table.players.A.replace(/_/g, " ") === String(a).replace(/_/g, " ");
    const started = Boolean(table.busy) && theirs;
    const sc = table.score || { A: 0, B: 0 }, fr = table.frames || { A: 0, B: 0 };
    const frames = table.race > 1 ? `  ${fr.A} (${table.race}) ${fr.B}` : "";  // as the table writes it
    playing.push(liveRow([
      ["live-where", table.name || table.table], ["live-game", game], ["live-who", a],
      ["live-score", started ? `${sc.A} : ${sc.B}${frames}` : table.busy ? "next there" : "ready to start"], ["live-who", b],
    ], started ? "playing" : "waiting"));
  }
  const next = (t.waiting || []).filter((w) => !out.has(w.game) && !decided.has(w.game)).map((w) => {
    const [a, b] = w.players;
    return liveRow([["live-where", "next"], ["live-game", w.game], ["live-who", a], ["live-score", "waits"],
      ["live-who", b], ["live-why", w.text]], "next");
  });
  const rows = [...playing, ...next];
  box.hidden = rows.length === 0;
  box.replaceChildren(...rows);
}

window.drawLive = drawLive;
