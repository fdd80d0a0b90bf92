// The club's pages: one EventSource to /api/events; each message updates one table's card.
"use strict";
const PHASES = { lag: "lag for the break", break: "break", play: "play", foul: "foul: a choice",
  "break-foul": "foul on the break", "frame-over": "frame over", "match-over": "match over" };
const FAULTS = { "board-lost": "sensor board lost", "sensor-stuck": "a pocket sensor is stuck",
  "sensor-silent": "a pocket sensor is silent", "not-saved": "not saved: the disk" };
const tables = new Map();
let lastHeard = Date.now(), clubNow = 0, clubAt = Date.now(), brokerUp = true;

function el(tag, className, text) {
  // Every value from a table is put in as text, never as HTML (issue 21).
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = String(text);
  return node;
}
function ago(seconds) {
  if (seconds == null) return "never";
  const s = Math.max(0, Math.round(clubNow + (Date.now() - clubAt) / 1000 - seconds));
  return s < 60 ? `${s} s ago` : s < 3600 ? `${Math.floor(s / 60)} min ago` : `${Math.floor(s / 3600)} h ago`;
}
function cardNodes(t) {
  const p = t.players || { A: "—", B: "—" }, sc = t.score || { A: 0, B: 0 }, fr = t.frames || { A: 0, B: 0 };
  const top = el("div", "top");
  top.append(el("span", null, t.name), el("span", "status", t.status));
  const side = (k) => {
    const row = el("div", "row"), figures = el("span");
    figures.append(el("span", "frames", fr[k]), el("span", "score", sc[k]));
    const mark = t.winner === k ? " won" : t.striker === k && !t.winner ? " at" : "";
    row.append(el("span", "name" + mark, p[k]), figures);
    return row;
  };
  const foot = el("div", "foot");
  const phase = t.phase ? PHASES[t.phase] || t.phase : "no match";
  const age = el("span", "age", ago(t.received));
  age.dataset.t = t.received ?? "";
  foot.append(el("span", null, phase + (t.race ? " · race to " + t.race : "")), age);
  if (t.version) foot.append(el("span", "version", "v" + t.version));
  const nodes = [top, side("A"), side("B"), foot];
  if (t.faults && t.faults.length) nodes.push(el("div", "faults", t.faults.map((k) => FAULTS[k] || k).join(", ")));
  if (t.assign && t.assign.players) {
    const a = t.assign.answer;
    const said = a ? (a.ok ? " (at the table)" : " (refused: " + a.message + ")") : " (sent)";
    nodes.push(el("div", "next", `next: ${t.assign.players[0]} v ${t.assign.players[1]}${said}`));
  }
  return nodes;
}
function renderCard(t) {
  const hall = document.getElementById("hall");
  if (!hall) return;
  let card = document.getElementById("table-" + t.table);
  if (!card) {
    card = document.createElement("section");
    card.id = "table-" + t.table;
    const after = [...hall.children].find((c) => natural(c.id) > natural(card.id));
    hall.insertBefore(card, after || null);
  }
  card.className = "card " + t.status;
  card.replaceChildren(...cardNodes(t));
}
function natural(id) {
  return id.replace(/\d+/g, (n) => n.padStart(6, "0"));
}
function setLink() {
  const link = document.getElementById("link");
  if (!link) return;
  const lost = Date.now() - lastHeard > 5000;
  link.textContent = lost ? "connection lost" : brokerUp ? "live" : "broker unreachable";
  link.className = lost || !brokerUp ? "lost" : "";
}
function take(message) {
  lastHeard = Date.now();
  if (message.now) { clubNow = message.now; clubAt = Date.now(); }
  if (message.type === "hall") {
    brokerUp = message.broker;
    for (const t of message.tables) { tables.set(t.table, t); renderCard(t); }
  } else if (message.type === "table") {
    tables.set(message.table.table, message.table); renderCard(message.table);
  } else if (message.type === "broker" || message.type === "heartbeat") {
    brokerUp = message.broker ?? message.connected;
  }
  setLink();
  if (window.onTable) for (const t of tables.values()) window.onTable(t, message);
  if (window.onMessage) window.onMessage(message);
  window.lastUpdate = { at: performance.now(), type: message.type };
}
function follow(only) {
  const source = new EventSource("/api/events" + (only ? "?table=" + encodeURIComponent(only) : ""));
  source.onmessage = (e) => take(JSON.parse(e.data));
  setInterval(() => {
    setLink();
    for (const el of document.querySelectorAll(".age")) el.textContent = ago(el.dataset.t ? Number(el.dataset.t) : null);
    showClock();
  }, 1000);
  showClock();
}
function showClock() {
  // 24 hours, whatever the TV's locale: a club's evening runs past midnight (issue 22).
  const clock = document.getElementById("clock");
  if (clock) clock.textContent = new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}
