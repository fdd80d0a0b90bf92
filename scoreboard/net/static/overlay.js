"use strict";
// The OBS overlay: a lower-third score bar over a transparent page, from /api/events.
const $ = (id) => document.getElementById(id);
const source = new EventSource("/api/events");
source.addEventListener("state", (e) => {
  const v = JSON.parse(e.data).view;
  for (const side of ["A", "B"]) {
    $("name-" + side).textContent = v.names[side];
    $("score-" + side).textContent = v.score[side];
    $("name-" + side).classList.toggle("striker", v.striker === side);
  }
  $("frames").textContent = v.frames.A + " (" + v.race_n + ") " + v.frames.B;
  $("bar").hidden = false;
});
