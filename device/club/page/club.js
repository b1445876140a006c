// The club's live scoreboard: server-sent events from /live, drawn with plain DOM calls.
// Reading needs nothing; the organiser's form appears after logging in.
"use strict";

const boards = new Map();          // name -> the board view the hub last sent
let rulesets = [];

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v; else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function teamsOf(state) {
  return state.teams || [];
}

function scoreText(state) {
  return state.score ? `${state.score[0]} – ${state.score[1]}` : "";
}

function progressText(state) {
  if (state.finished) {
    if (state.winner === null || state.winner === undefined) return "finished: a draw";
    return `finished: ${teamsOf(state)[state.winner]} win${teamsOf(state)[state.winner].includes("&") ? "" : "s"}`;
  }
  const where = state.scoring === "legs"
    ? `set ${state.set || 1} · leg ${state.leg || 1} · legs ${state.legs[0]}–${state.legs[1]}`
    : `round ${state.round}`;
  if (state.awaiting === "confirm") return `${where} · CHECK the board`;
  if (state.awaiting === "board") return `${where} · reading the board`;
  if (state.shooter) return `${where} · ${state.shooter} to shoot`;
  return where;
}

function card(view) {
  const s = view.state || {};
  const online = view.online === false ? "offline" : view.online ? "online" : "unknown";
  const c = el("article", {class: "board", "data-board": view.board, "data-seq": s.seq ?? "",
                          "data-online": online});
  c.append(el("h3", {}, el("span", {class: "name"}, view.board),
              el("span", {class: "dot", title: `the box is ${online}`}, online)));
  if (s.match_id === null || s.match_id === undefined) {
    c.append(el("p", {class: "idle"}, "no match yet"));
  } else {
    const teams = teamsOf(s);
    c.append(el("p", {class: "teams"}, el("span", {class: "team t0"}, teams[0] || ""),
                el("span", {class: "vs"}, "v"), el("span", {class: "team t1"}, teams[1] || "")));
    c.append(el("p", {class: "score"}, scoreText(s)));
    c.append(el("p", {class: "progress"}, progressText(s)));
    c.append(el("p", {class: "rules"}, s.rules));
    if (s.reading && s.reading.needs_check) c.append(el("p", {class: "check"}, "CHECK"));
    if (view.received !== null && view.received !== undefined && s.seq > view.received) {
      c.append(el("p", {class: "behind"}, `catching up: ${view.received + 1} of ${s.seq + 1} events`));
    }
  }
  for (const f of s.faults || []) c.append(el("p", {class: "fault"}, f));
  if (view.next) c.append(el("p", {class: "next"}, `next: ${view.next.players.join(" v ")}`));
  if (view.picture) {
    const img = el("img", {src: view.picture, alt: `board ${view.board} as last read`,
                           loading: "lazy", class: "thumb"});
    img.addEventListener("click", () => showPicture(view.picture));
    c.append(img);
  }
  return c;
}

function showPicture(src) {
  const d = document.getElementById("picture");
  d.querySelector("img").src = src;
  d.showModal();
}

function drawBoard(view) {
  boards.set(view.board, view);
  const box = document.getElementById("boards");
  const fresh = card(view);
  const old = box.querySelector(`article[data-board="${CSS.escape(view.board)}"]`);
  if (old) old.replaceWith(fresh);
  else {
    const after = [...box.children].find((a) => a.dataset.board > view.board);
    box.insertBefore(fresh, after || null);
  }
  fillBoardChoices();
}

function drawResults(results) {
  const body = document.querySelector("#results tbody");
  body.replaceChildren(...results.map((r) => {
    const teams = r.teams || ["", ""];
    const score = r.scoring === "legs" ? (r.sets && r.sets.some((x) => x) ? r.sets : r.legs) : r.score;
    const winner = r.winner === null || r.winner === undefined ? "draw" : teams[r.winner];
    return el("tr", {"data-uuid": r.uuid}, el("td", {}, r.board), el("td", {}, teams.join(" v ")),
              el("td", {}, score ? `${score[0]}–${score[1]}` : ""), el("td", {}, winner),
              el("td", {}, r.event || ""),
              el("td", {}, el("a", {href: `/api/matches/${r.uuid}/cmn`}, "CMN")));
  }));
}

function drawPlayers(players) {
  const body = document.querySelector("#players tbody");
  body.replaceChildren(...players.map((p) => el("tr", {},
    el("td", {}, p.name), el("td", {}, String(p.matches)), el("td", {}, String(p.wins)),
    el("td", {}, String(p.twenties)),
    el("td", {}, p.open_attempts ? `${p.open_twenties}/${p.open_attempts} (${Math.round(100 * p.open_rate)}%)` : "–"),
    el("td", {}, String(p.fouls)), el("td", {}, p.points_per_round.toFixed(1)))));
}

function drawHub(hub) {
  const link = document.getElementById("link");
  link.dataset.state = hub.broker ? "up" : "down";
  link.textContent = hub.broker ? "live" : `broker ${hub.problem || "offline"}`;
  document.getElementById("organiser").hidden = !hub.organiser;
}

function listen() {
  const live = new EventSource("/live");
  live.addEventListener("hello", (e) => {
    const d = JSON.parse(e.data);
    document.getElementById("boards").replaceChildren();
    drawHub(d.hub);
    d.boards.forEach(drawBoard);
    drawResults(d.results);
    drawPlayers(d.players);
  });
  live.addEventListener("board", (e) => drawBoard(JSON.parse(e.data)));
  live.addEventListener("results", (e) => {
    const d = JSON.parse(e.data);
    drawResults(d.results);
    drawPlayers(d.players);
  });
  live.addEventListener("hub", (e) => drawHub(JSON.parse(e.data)));
  live.addEventListener("error", () => {
    const link = document.getElementById("link");
    link.dataset.state = "down";
    link.textContent = "reconnecting";
  });
}

// --- the organiser -------------------------------------------------------------------------

async function api(method, url, body) {
  const r = await fetch(url, {method, headers: {"Content-Type": "application/json"},
                              body: body === undefined ? undefined : JSON.stringify(body),
                              credentials: "same-origin"});
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function fillBoardChoices() {
  const sel = document.querySelector("#assign select[name=board]");
  const keep = sel.value;
  sel.replaceChildren(...[...boards.keys()].sort().map((b) => el("option", {value: b}, b)));
  if (keep) sel.value = keep;
}

async function organiserMode(on) {
  document.getElementById("organise").hidden = !on;
  if (on && !rulesets.length) {
    rulesets = await (await fetch("/api/rulesets")).json();
    document.querySelector("#assign select[name=rules]").replaceChildren(
      ...rulesets.map((r) => el("option", {value: r.name}, `${r.name} (${r.seats} players)`)));
  }
}

function setUp() {
  const today = new Date();
  const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;
  document.getElementById("today-cmn").href = `/api/cmn?date=${day}`;
  const tick = () => { document.getElementById("clock").textContent = new Date().toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"}); };
  tick();
  setInterval(tick, 10000);
  document.querySelector("#picture button").addEventListener("click", () => document.getElementById("picture").close());
  const login = document.getElementById("login");
  document.getElementById("organiser").addEventListener("click", async () => {
    const s = await (await fetch("/api/session")).json();
    if (s.organiser) organiserMode(true); else login.showModal();
  });
  document.getElementById("login-cancel").addEventListener("click", () => login.close());
  document.getElementById("login-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const said = document.getElementById("login-said");
    try {
      await api("POST", "/api/login", {password: e.target.password.value});
      e.target.password.value = "";
      login.close();
      organiserMode(true);
    } catch (err) { said.textContent = err.message; }
  });
  const form = document.getElementById("assign");
  const said = document.getElementById("assign-said");
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const players = form.players.value.split(",").map((p) => p.trim()).filter((p) => p);
    try {
      const a = await api("PUT", `/api/boards/${encodeURIComponent(form.board.value)}/assignment`,
                          {rules: form.rules.value, players, event: form.event.value});
      said.textContent = `${a.board}: next ${a.players.join(" v ")}; OK on the box starts it`;
    } catch (err) { said.textContent = err.message; }
  });
  document.getElementById("withdraw").addEventListener("click", async () => {
    try {
      await api("DELETE", `/api/boards/${encodeURIComponent(form.board.value)}/assignment`);
      said.textContent = `${form.board.value}: next match withdrawn`;
    } catch (err) { said.textContent = err.message; }
  });
  document.getElementById("logout").addEventListener("click", async () => {
    await api("POST", "/api/logout", {});
    organiserMode(false);
  });
  fetch("/api/session").then((r) => r.json()).then((s) => { if (s.organiser) organiserMode(true); });
  listen();
}

document.addEventListener("DOMContentLoaded", setUp);
