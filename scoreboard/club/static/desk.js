// The club's desk for the staff: players and tournaments. Reading is open; every write asks
// for the staff password (the browser asks it once, as for a table's next match).
"use strict";

const el = (tag, props = {}, ...children) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
};

async function send(method, url, body) {
  const r = await fetch(url, { method, headers: { "Content-Type": "application/json" },
                               body: JSON.stringify(body) });
  return { ok: r.ok, text: r.ok ? "" : await r.text(), json: r.ok ? await r.json() : null };
}

function say(id, answer, done) {
  const out = document.getElementById(id);
  out.className = answer.ok ? "" : "bad";
  out.textContent = answer.ok ? done : answer.text;
}

async function players() {
  const { players } = await (await fetch("/api/players")).json();
  const body = document.querySelector("#players tbody");
  const entrants = document.getElementById("entrants");
  body.replaceChildren();
  entrants.replaceChildren();
  for (const p of players) {
    const rename = el("button", { type: "button", textContent: "rename" });
    rename.onclick = async () => {
      const name = prompt(`A new name for ${p.name}`, p.name);
      if (name) await act(`/api/players/${p.id}/rename`, { name });
    };
    const merge = el("select", {}, el("option", { value: "", textContent: "the same as…" }),
      ...players.filter((q) => q.id !== p.id)
        .map((q) => el("option", { value: q.id, textContent: q.name })));
    merge.onchange = async () => {
      const into = Number(merge.value);
      if (into && confirm(`${p.name} is ${merge.selectedOptions[0].textContent}: merge them?`))
        await act(`/api/players/${p.id}/merge`, { into });
    };
    body.append(el("tr", {}, el("td", { textContent: p.name }),
      el("td", { textContent: p.full_name || "" }), el("td", { textContent: p.nickname || "" }),
      el("td", {}, rename, merge)));
    entrants.append(el("label", {}, el("input", { type: "checkbox", value: p.id }), " " + p.name));
  }
}

async function act(url, body) {
  const answer = await send("POST", url, body);
  if (!answer.ok) alert(answer.text);
  await players();
}

async function tables() {
  const { tables } = await (await fetch("/api/tables")).json();
  document.getElementById("tables").replaceChildren(...tables.map((t) =>
    el("label", {}, el("input", { type: "checkbox", value: t.table }), " " + (t.name || t.table))));
}

async function tournaments() {
  const { tournaments } = await (await fetch("/api/tournaments")).json();
  document.getElementById("tournaments").replaceChildren(...tournaments.map((t) =>
    el("li", {}, el("a", { href: `/desk/tournament/${t.id}`, textContent: t.name }),
      ` — ${t.format}, ${t.players} players, ` +
      (t.champion ? `won by ${t.champion}` : "in play"))));
}

const ticked = (id) =>
  [...document.querySelectorAll(`#${id} input:checked`)].map((i) => i.value);

document.getElementById("create").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = e.target;
  const race = Number(f.race.value);
  const body = { name: f.name.value, format: f.format.value,
                 race: f.final_race.value === "" ? race : { "*": race, final: Number(f.final_race.value) },
                 target: Number(f.target.value), players: ticked("entrants").map(Number),
                 options: { penalty: f.penalty.value, "jumped-ball": f.jumped.value },
                 dispatch: f.dispatch.value };
  if (f.format.value === "round_robin") body.groups = Number(f.groups.value);
  if (f.format.value === "groups")
    Object.assign(body, { groups: Number(f.groups.value), qualify: Number(f.qualify.value),
                          knockout: f.knockout.value });
  if (f.seeding.value === "draw")
    body.draw_seed = f.draw.value === "" ? Math.floor(Math.random() * 1e6) : Number(f.draw.value);
  const chosen = ticked("tables");
  if (chosen.length) body.tables = chosen;
  const answer = await send("POST", "/api/tournaments", body);
  say("answer", answer, answer.ok ? `started (draw number ${body.draw_seed ?? "—"}): ` +
      `${answer.json.sent.length} games went to the tables` : "");
  if (answer.ok) location.href = `/desk/tournament/${answer.json.id}`;
});

document.getElementById("add").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = e.target;
  const answer = await send("POST", "/api/players",
    { name: f.name.value, full_name: f.full_name.value, nickname: f.nickname.value });
  say("added", answer, answer.ok ? `${f.name.value} added` : "");
  if (answer.ok) { f.reset(); await players(); }
});

// Updates: what is offered, and which version each table runs (its own word, on the broker).
async function versions() {
  const { offer, tables } = await (await fetch("/api/updates")).json();
  const body = document.querySelector("#versions tbody");
  body.replaceChildren(...tables.map((t) => el("tr", {},
    el("td", { textContent: t.name }), el("td", { textContent: t.version || "—" }),
    el("td", { textContent: !t.online ? "offline" : offer && t.version === offer.version ? "up to date" :
                                       offer ? `to ${offer.version} between matches` : "" }))));
  document.getElementById("offer").textContent = offer ? `Offered to the tables: ${offer.version}` : "Nothing offered.";
}

document.getElementById("update").addEventListener("submit", async (e) => {
  e.preventDefault();
  const file = e.target.file.files[0];
  const r = await fetch(`/api/updates?name=${encodeURIComponent(file.name)}`,
                        { method: "POST", body: file });
  const answer = { ok: r.ok, text: r.ok ? "" : await r.text() };
  say("offered", answer, answer.ok ? `${file.name} offered to every table` : "");
  await versions();
});

// The tables' keys (issue 34): approve one a table announced, register one read off a table,
// withdraw a stolen one; and the results the club did not take, held for a key or refused.
const deskBy = () => localStorage.getItem("desk-by") || "";

async function keys() {
  const r = await fetch("/api/table-keys");
  if (!r.ok) return;
  const listed = await r.json();
  document.querySelector("#keys tbody").replaceChildren(...listed.keys.map((k) => {
    const act = el("button", { type: "button", textContent: k.status === "approved" ? "withdraw" : "approve" });
    act.onclick = async () => {
      if (k.status === "approved" && !confirm(`Withdraw ${k.table}'s key? Its results are refused from then on.`)) return;
      const answer = await send("POST", k.status === "approved" ? "/api/table-keys/withdraw" : "/api/table-keys",
                                { table: k.table, key: k.key, by: deskBy() });
      if (!answer.ok) alert(answer.text);
      await keys();
    };
    return el("tr", { className: "key-" + k.status }, el("td", { textContent: k.table }),
      el("td", { textContent: k.fingerprint }), el("td", {}, el("code", { textContent: k.key })),
      el("td", { textContent: k.status === "awaiting" ? "awaiting approval" : k.status +
        (k.decided_by ? ` by ${k.decided_by}` : "") }),
      el("td", {}, ...(k.status === "withdrawn" ? [] : [act])));
  }));
  document.querySelector("#not-taken tbody").replaceChildren(...listed.not_taken.map((n) =>
    el("tr", { className: n.state }, el("td", { textContent: n.table }), el("td", { textContent: n.match_id }),
      el("td", { textContent: n.state }), el("td", { textContent: n.reason }), el("td", { textContent: n.at }))));
}

document.getElementById("register").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = e.target;
  const answer = await send("POST", "/api/table-keys", { table: f.table.value, key: f.key.value, by: deskBy() });
  say("registered", answer, answer.ok ? `${f.table.value}'s key approved: ${answer.json.taken} results held for it taken` : "");
  if (answer.ok) f.reset();
  await keys();
});

// The groups' fields only where the format has groups.
function showFormat() {
  const f = document.getElementById("create"), format = f.format.value;
  f.groups.parentElement.hidden = !["round_robin", "groups"].includes(format);
  f.qualify.parentElement.hidden = f.knockout.parentElement.hidden = format !== "groups";
}
document.querySelector("#create [name=format]").addEventListener("change", showFormat);
showFormat();
players();
tables();
tournaments();
versions();
keys();
