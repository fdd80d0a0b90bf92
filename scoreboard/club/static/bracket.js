// The hall TV's bracket of one tournament (issue 22): its games by stage and round, the games
// in play with their table, the winners; drawn again whenever the club says it changed.
"use strict";
const STAGES = { G: "Groups", W: "Winners", L: "Losers", F: "Final" };
const tournamentId = decodeURIComponent(location.pathname.split("/")[2]);

function gameNode(game, at) {
  const box = el("div", "game" + (game.winner ? " played" : at[game.id] ? " playing" : ""));
  box.append(el("div", "game-id", game.id + (at[game.id] ? " · " + at[game.id] : "")));
  game.players.forEach((name, i) => {
    const row = el("div", "seat" + (game.winner && game.winner === name ? " won" : ""));
    row.append(el("span", "who", name ?? (game.winner || game.players.some((p) => p) ? "—" : "…")));
    if (game.frames) row.append(el("span", "frames", game.frames[i]));
    box.append(row);
  });
  return box;
}

function groupTable(group, n) {
  // A group's table as it stands (desk/groups.py): won, frames for and against, best first.
  const section = el("section", "stage");
  section.append(el("h2", null, "Group " + (n + 1)));
  const table = el("table", "group-table");
  const head = el("tr");
  for (const h of ["", "P", "W", "F", "A"]) head.append(el("th", null, h));
  table.append(head);
  for (const row of group.table) {
    const tr = el("tr");
    for (const v of [row.player, row.played, row.won, row.frames_for, row.frames_against]) tr.append(el("td", null, v));
    table.append(tr);
  }
  section.append(table);
  return section;
}

async function drawBracket() {
  const response = await fetch("/api/tournaments/" + encodeURIComponent(tournamentId), { cache: "no-store" });
  if (!response.ok) return;
  const t = await response.json();
  document.getElementById("title").firstChild.textContent = t.name + " ";
  document.title = t.name;
  const stages = (t.groups || []).map(groupTable);
  for (const stage of ["G", "W", "L", "F"]) {
    const shown = t.games.filter((g) => g.stage === stage);
    if (!shown.length) continue;
    const section = el("section", "stage");
    section.append(el("h2", null, STAGES[stage]));
    const rounds = el("div", "rounds");
    const numbers = [...new Set(shown.map((g) => g.round))];
    for (const r of numbers) {
      const column = el("div", "round");
      for (const game of shown.filter((g) => g.round === r)) column.append(gameNode(game, t.at || {}));
      rounds.append(column);
    }
    section.append(rounds);
    stages.push(section);
  }
  document.getElementById("bracket").replaceChildren(...stages);
  const champion = document.getElementById("champion");
  champion.hidden = !t.champion;
  champion.textContent = t.champion ? "Champion: " + t.champion : "";
  window.tournament = t;
  if (window.drawLive) window.drawLive();  // the hall TV's page (tournament_live.js), not the print
  window.bracketDrawn = (window.bracketDrawn || 0) + 1;
}

window.onMessage = (message) => {
  if (message.type === "tournament" && String(message.id) === tournamentId) drawBracket();
  else if (message.type === "waiting" && String(message.id) === tournamentId && window.tournament) {
    // Why each game waits, and the tables now (issue 34): no reload of the bracket for it.
    Object.assign(window.tournament, { waiting: message.waiting, tables: message.tables });
    if (window.drawLive) window.drawLive();
  } else if ((message.type === "table" || message.type === "hall") && window.drawLive) window.drawLive();
};
follow();
drawBracket();
