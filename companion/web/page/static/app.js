// The phone page of `companion serve`. Plain script, no libraries: it must work offline
// over plain HTTP on a LAN address (no crypto.subtle, no crypto.randomUUID there).
// Every text reaches the page through textContent, never innerHTML.
(function () {
  "use strict";

  var setup = JSON.parse(document.getElementById("setup").textContent);
  var base = location.pathname.replace(/\/+$/, "");
  var api = base + "/api/";
  var REVEAL_MS = 700;

  var lang = pickLang();
  var state = null;       // the last table state (GET state, then kept up by events)
  var vote = null;        // the vote being entered: {guild, bag, key, busy, error}
  var odds = null;        // {key: "red:3,...", exact: {...}, odds: {...}}
  var shown = null;       // the draw on screen: {draw, before, step, timer}
  var source = null;
  var notice = "";        // a word about the draw shown (made on another phone)
  // What this phone keeps across a reload, per table (its token): the draws it made
  // (only the phone that drew offers to undo a draw).
  var token = base.replace(/^.*\//, "");
  var drewHere = kept("drew") || [];

  // ---- words -------------------------------------------------------------------------

  function pickLang() {
    try {
      var saved = localStorage.getItem("lang");
      if (saved === "en" || saved === "fr") return saved;
    } catch (e) { /* private mode */ }
    var langs = navigator.languages || [navigator.language || "en"];
    for (var i = 0; i < langs.length; i++) {
      var l = String(langs[i]).slice(0, 2).toLowerCase();
      if (l === "fr" || l === "en") return l;
    }
    return "en";
  }

  function t(key, fields) {
    var s = (setup.texts[key] || {})[lang] || key;
    return s.replace(/\{(\w+)\}/g, function (m, name) {
      return fields && name in fields ? String(fields[name]) : m;
    });
  }

  function player(colour) {
    var list = state ? state.players : setup.players;
    for (var i = 0; i < list.length; i++) if (list[i].colour === colour) return list[i];
    return null;
  }

  function teamName(colour) {
    var p = player(colour);
    var team = setup.teams[colour];
    var official = team ? team.name[lang] : colour;
    return p && p.name ? p.name : official;
  }

  function guildName(guild) {
    var g = setup.guilds[guild];
    return g ? g.name[lang] : guild;
  }

  // A value this phone keeps for this table (its link's token), in local storage: `what`
  // names it ("drew", "draft:covenia", "player:GAME"); null removes it.
  function kept(what) {
    try { return JSON.parse(localStorage.getItem("table:" + token + ":" + what) || "null"); }
    catch (e) { return null; }  // private mode, or not ours
  }

  function keep(what, value) {
    try {
      if (value === null) localStorage.removeItem("table:" + token + ":" + what);
      else localStorage.setItem("table:" + token + ":" + what, JSON.stringify(value));
    } catch (e) { /* private mode: kept until the page goes */ }
  }

  // ---- building blocks ---------------------------------------------------------------

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function button(text, cls, onClick) {
    var b = el("button", cls, text);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  function chip(colour, small) {
    var c = el("span", small ? "chip small" : "chip");
    c.appendChild(el("span", "name", teamName(colour)));
    c.title = teamName(colour);  // whole, where the chip cuts it short
    var team = setup.teams[colour];
    if (team) {
      c.style.setProperty("--team", team.colour);
      c.style.setProperty("--team-ink", team.ink);
    }
    return c;
  }

  function dot(colour) {
    var d = el("span", "dot");
    var team = setup.teams[colour];
    if (team) d.style.setProperty("--team", team.colour);
    d.title = teamName(colour);
    return d;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function verifyLine(d) {
    var bag = Object.keys(d.bag).map(function (c) { return c + "=" + d.bag[c]; }).join(" ");
    return "companion lugvanion verify --seed " + d.seed + " --commitment " + d.commitment +
      " " + bag + " --drawn " + d.drawn.join(",") +
      (d.tie_rule !== "extra" ? " --tie-rule " + d.tie_rule : "");
  }

  // ---- talking to the table -----------------------------------------------------------

  // A change carries an Idempotency-Key; when its answer is lost (the Wi-Fi dropped
  // after the table acted), it is sent again with the same key, and the table answers as
  // it did the first time: nothing is done twice, and the phone can say it is done.
  // A change is never given up: while the table (the laptop) cannot be reached, a banner
  // says so and the change waits, sent again at once when the table answers again (its
  // live stream reopens, or any other request is answered).
  var RESEND_MS = [300, 1000, 2000, 4000, 8000, 15000];
  var READ_TRIES = 3;  // a read: three more tries, 3.3 s in all
  var waiting = [];    // the resends waiting out their pause: woken when the table is back

  function pause(ms) {
    return new Promise(function (resolve) {
      var timer = setTimeout(go, ms);
      function go() { clearTimeout(timer); resolve(); }
      waiting.push(go);
    });
  }

  // The table answered (back: the banner goes, the waiting changes are sent now), or a
  // request or the live stream found it gone (the banner says so).
  var away = false;  // the table cannot be reached (the banner, empty when it can)

  function reach(on) {
    away = !on;
    document.getElementById("unreachable").textContent = away ? t("unreachable") : "";
    document.body.classList.toggle("away", away);
    if (on) waiting.splice(0).forEach(function (go) { go(); });
  }

  // This phone's own id (random, kept on it): sent with every change, so that an entry
  // says which phone changed it last ("this phone", or another's).
  var phoneId = (function () {
    var id = null;
    try { id = localStorage.getItem("phone"); } catch (e) { /* private mode */ }
    if (!/^[0-9a-f]{16}$/.test(id || "")) {
      id = newKey().slice(0, 16);
      try { localStorage.setItem("phone", id); } catch (e) { /* private mode */ }
    }
    return id;
  })();

  function request(method, path, body, headers) {
    headers = Object.assign({}, headers || {});
    if (method !== "GET") headers["X-Phone"] = phoneId;
    if (method !== "GET" && !headers["Idempotency-Key"]) headers["Idempotency-Key"] = newKey();
    var tries = 0;
    function attempt() {
      var init = { method: method, headers: headers, cache: "no-store" };
      if (body !== undefined) {
        init.headers["Content-Type"] = "application/json";
        init.body = JSON.stringify(body);
      }
      return fetch(api + path, init).then(function (r) { reach(true); return answered(r); },
                                          function () {
        // No answer: a change is sent again with its key (kept by the table, so never
        // done twice), until the table answers; a read is tried a few times (a
        // kept-alive connection the server closed as the phone reused it fails once,
        // so one failure is no sign of anything: the banner waits for a second).
        tries += 1;
        if (tries > 1) reach(false);
        if (method === "GET" && tries > READ_TRIES) {
          var e = new Error(t("no_answer")); e.status = 0; throw e;
        }
        return pause(RESEND_MS[Math.min(tries, RESEND_MS.length) - 1]).then(attempt);
      });
    }
    return attempt();
  }

  function answered(r) {
    return r.json().catch(function () { return { error: r.statusText }; }).then(function (d) {
      if (!r.ok) {
        // A refusal with a code ("why") is worded in the page's language.
        var e = new Error(d.why ? why(d) : d.error || r.statusText);
        e.status = r.status; e.body = d; throw e;
      }
      return d;
    });
  }

  // A refusal in the page's language: its code and params (d.why) worded by
  // layouts/phone.toml's "why_" + code; the server's English line (d.error or
  // d.problem) only for a code the page has no words for.
  function why(d) {
    var w = d.why;
    var english = d.problem || d.error;
    var key = w && typeof w.code === "string" ? "why_" + w.code.replace(/\./g, "_") : "";
    var words = key && setup.texts[key] ? setup.texts[key][lang] : null;
    if (!words) return english;
    var fields = {};
    Object.keys(w.params || {}).forEach(function (k) { fields[k] = w.params[k]; });
    if (typeof fields.clan === "string" && setup.texts["clan_" + fields.clan]) {
      fields.clan = t("clan_" + fields.clan).toLowerCase();
    }
    if (typeof fields.team === "string") fields.team = teamName(fields.team);
    if (typeof fields.guild === "string" && setup.guilds[fields.guild]) {
      fields.guild = guildName(fields.guild);
    }
    if (typeof fields.type === "string" && setup.texts[fields.type]) {
      fields.type = t(fields.type).toLowerCase();
    }
    var wanted = words.match(/\{\w+\}/g) || [];
    for (var i = 0; i < wanted.length; i++) {
      if (!(wanted[i].slice(1, -1) in fields)) return english;
    }
    return t(key, fields);
  }

  // A redraw replaces the page's elements: the one that had the focus (found again by
  // its id) gets it back, with its caret, so a live update never moves a person's place.
  function keepFocus(draw) {
    var active = document.activeElement;
    var focused = active && active !== document.body ? active.id : "";
    var caret = null;
    try { caret = focused ? active.selectionStart : null; } catch (e) { /* not text */ }
    draw();
    var again = focused && document.getElementById(focused);
    if (again && again !== document.activeElement) {
      again.focus({ preventScroll: true });
      if (caret !== null && typeof again.setSelectionRange === "function") {
        try { again.setSelectionRange(caret, caret); } catch (e) { /* not a text input */ }
      }
    }
  }

  function resync() {
    return request("GET", "state").then(function (s) {
      state = s;
      takeVote();
      render();
    }).catch(function () { setLive(false); });
  }

  function connect() {
    if (source) source.close();
    source = new EventSource(api + "events");
    source.addEventListener("open", function () { setLive(true); reach(true); resync(); });
    source.addEventListener("error", function () {
      setLive(false);
      if (source.readyState !== 2) reach(false);  // else refused: the table answered
      // Refused for good (not an event stream: the table has too many open): read the
      // table once, and try the stream again later.
      if (source.readyState === 2) { resync(); setTimeout(connect, 5000); }
    });
    source.addEventListener("draw", function (e) { onDraw(JSON.parse(e.data)); });
    source.addEventListener("undo", function (e) { onUndo(JSON.parse(e.data)); });
    // A game ended (on any phone): a vote being entered belongs to the game that ended.
    source.addEventListener("closed", function () {
      vote = null; shown = null; keep("draft:lugvanion", null); resync();
    });
    // The other games' part of the page (games.js) listens on the same stream.
    window.tableSource = source;
    document.dispatchEvent(new CustomEvent("table-source", { detail: source }));
  }

  function setLive(on) {
    var live = document.getElementById("live");
    live.textContent = on ? t("online") : t("offline");
    live.className = on ? "live on" : "live";
  }

  function applySummary(m) {
    state.guilds = m.guilds;
    state.governor = m.governor;
    state.commitment = m.commitment;
  }

  function onDraw(m) {
    if (!state) return;
    var known = state.draws.some(function (d) { return d.id === m.draw.id; });
    var before = state.commitment;
    if (!known) state.draws.push(Object.assign({ undone: false }, m.draw));
    applySummary(m);
    if (!known) show(m.draw, before);
    render();
  }

  function onUndo(m) {
    if (!state) return;
    state.draws.forEach(function (d) { if (d.id === m.undone) d.undone = true; });
    applySummary(m);
    render();
  }

  // ---- the vote ----------------------------------------------------------------------

  function openVote(guild) {
    var bag = {};
    state.players.forEach(function (p) { bag[p.colour] = 0; });
    vote = { guild: guild, bag: bag, key: newKey(), busy: false, error: "", notice: "" };
    keepVote();
    odds = null;
    shown = null;
    notice = "";
    render();
    document.getElementById("vote").scrollIntoView({ behavior: "smooth", block: "start" });
  }

  // The vote being entered is kept on this phone (a reload, a locked screen, a dropped
  // page bring it back) until it is drawn, cancelled, or its game ends: its guild, its bag
  // and its key (a draw sent whose answer was lost is sent again with it, never twice),
  // with the last draw of the game it began in (gone from the table's draws: it ended).
  function keepVote() {
    if (!vote) { keep("draft:lugvanion", null); return; }
    var live = state.draws.length ? state.draws[state.draws.length - 1].id : 0;
    keep("draft:lugvanion", { guild: vote.guild, bag: vote.bag, key: vote.key, after: live,
                              game: state.game });
  }

  function takeVote() {
    var k = kept("draft:lugvanion");
    if (vote || !k || !state || !k.bag || typeof k.bag !== "object" ||
        !setup.guilds[k.guild]) return;
    var after = state.draws.some(function (d) { return d.id === k.after; });
    var drawnSince = state.draws.some(function (d) {  // its vote, drawn by another phone
      return d.id > (k.after || 0) && d.guild === k.guild && !d.undone;
    });
    // A bag of another game (ended while this phone slept: it missed the "closed" event,
    // and a game with no draw yet looks like any other) is not brought back.
    if (k.game !== state.game || (k.after && !after) || drawnSince || state.governor) {
      keep("draft:lugvanion", null);
      return;
    }
    var bag = {};
    state.players.forEach(function (p) {
      var n = k.bag[p.colour];
      bag[p.colour] = typeof n === "number" && n >= 0 && n <= 8 ? Math.floor(n) : 0;
    });
    if (total(bag) > 8) return;
    vote = { guild: k.guild, bag: bag, key: typeof k.key === "string" ? k.key : newKey(),
             busy: false, error: "", notice: "" };
    fetchOdds();
  }

  function total(bag) {
    return Object.keys(bag).reduce(function (s, c) { return s + bag[c]; }, 0);
  }

  function oddsKey(bag) {
    return Object.keys(bag).sort().map(function (c) { return c + ":" + bag[c]; }).join(",");
  }

  function fetchOdds() {
    if (!vote || total(vote.bag) !== 8) return;
    var key = oddsKey(vote.bag);
    if (odds && odds.key === key) return;
    var query = Object.keys(vote.bag).map(function (c) {
      return encodeURIComponent(c) + "=" + vote.bag[c];
    }).join("&");
    request("GET", "odds?" + query).then(function (r) {
      if (vote && oddsKey(vote.bag) === key) { odds = { key: key, exact: r.exact, odds: r.odds }; render(); }
    }).catch(function () { /* odds are a help, the draw does not need them */ });
  }

  function change(colour, delta) {
    var n = vote.bag[colour] + delta;
    if (n < 0 || (delta > 0 && total(vote.bag) >= 8)) return;
    vote.bag[colour] = n;
    vote.error = "";
    vote.notice = "";
    keepVote();
    render();
    fetchOdds();
  }

  function doDraw() {
    if (!vote || vote.busy || total(vote.bag) !== 8) return;
    vote.busy = true;
    vote.error = "";
    var before = state.commitment;
    render();
    // The seal shown goes with the draw: if another phone drew on it first, the table
    // answers with that draw (one vote, one draw), and this phone shows it.
    request("POST", "draw", { guild: vote.guild, bag: vote.bag, commitment: before },
            { "Idempotency-Key": vote.key })
      .then(function (d) {
        drewHere = drewHere.concat([d.id]).slice(-50);
        keep("drew", drewHere);
        drawn(d, before);
      })
      .catch(function (e) {
        var made = e.body && e.body.draw;
        if (e.status === 409 && made && vote && made.guild !== vote.guild) {
          // Another phone drew another guild's vote on the seal shown here: this vote
          // was not drawn. Its bag stays, under the new seal, and the phone says why.
          vote.busy = false;
          vote.key = newKey();
          keepVote();
          vote.notice = t("drawn_other_guild", { id: made.id, other: guildName(made.guild),
                                                 guild: guildName(vote.guild) });
          render();
          document.getElementById("vote-notice").scrollIntoView({ block: "center" });
          resync();
          return;
        }
        if (e.status === 409 && made) {
          drawn(made, made.commitment);
          notice = t("drawn_elsewhere", { id: made.id });
          render();
          return;
        }
        // The same key goes with a retry, so a lost answer never draws twice.
        if (vote) { vote.busy = false; vote.error = e.message; }
        render();
        if (e.status === 409) resync();  // the table moved on: show its seal now
      });
  }

  function drawn(d, before) {
    var known = state.draws.some(function (x) { return x.id === d.id; });
    if (!known) state.draws.push(Object.assign({ undone: false }, d));
    if (!shown || shown.draw.id !== d.id) show(d, before);
    vote = null;
    keep("draft:lugvanion", null);
    resync();
  }

  function undo(id) {
    if (!window.confirm(t("undo_confirm", { id: id }))) return;
    request("POST", "undo", { id: id }).then(function (m) {
      onUndo(m);
    }).catch(function (e) { window.alert(t("error", { message: e.message })); });
  }

  // ---- showing a draw, one partisan at a time ---------------------------------------

  function show(d, before) {
    if (shown && shown.timer) clearTimeout(shown.timer);
    var steps = d.drawn.length;
    shown = { draw: d, before: before, step: document.hidden ? steps : 0, timer: null };
    if (vote && vote.guild === d.guild) { vote = null; keep("draft:lugvanion", null); }
    render();  // the vote it closes goes now, before the result is brought into view
    tick();
    bringResult();
  }

  // A draw shown (made here or on another phone) comes into view, its title under the
  // page's bar (the result's scroll-margin-top): the vote it replaces may have been
  // scrolled anywhere, and the page's content moved as it closed. Once the winner is
  // shown, the title and the winner both: the phone that drew sees its own result.
  function bringResult() {
    var box = document.getElementById("result");
    if (box.hidden || document.getElementById("game-lugvanion").hidden) return;
    var top = box.getBoundingClientRect().top;
    var bar = document.querySelector(".bar").getBoundingClientRect().bottom;
    var win = document.getElementById("winner");
    var below = !!win && win.getBoundingClientRect().bottom > window.innerHeight;
    if (top < bar || top > window.innerHeight / 2 || below) {
      box.scrollIntoView({ block: "start" });
    }
  }

  function tick() {
    if (shown.step < shown.draw.drawn.length) {
      renderResult();
      shown.timer = setTimeout(function () { shown.step += 1; tick(); }, REVEAL_MS);
    } else {
      shown.timer = null;
      render();
      bringResult();
    }
  }

  // ---- rendering ---------------------------------------------------------------------

  function render() { keepFocus(draw); }

  function draw() {
    document.documentElement.lang = lang;
    document.title = t("title");
    document.getElementById("title").textContent = t("title");
    document.getElementById("lang").textContent = t("language");
    Array.prototype.forEach.call(document.querySelectorAll("[data-t]"), function (n) {
      n.textContent = t(n.getAttribute("data-t"));
    });
    setLive(source && source.readyState === 1);
    document.getElementById("unreachable").textContent = away ? t("unreachable") : "";
    if (!state) return;
    renderVote();
    if (shown) renderResult();
    // Holders, Governor and history would give the winner away: they wait for the reveal.
    if (shown && shown.step < shown.draw.drawn.length) return;
    renderGovernor();
    renderGuilds();
    renderHistory();
  }

  function renderGovernor() {
    var box = document.getElementById("governor");
    box.hidden = !state.governor;
    clear(box);
    if (state.governor) {
      box.appendChild(el("strong", null, t("governor", { team: teamName(state.governor) })));
      box.appendChild(el("p", null, t("game_over")));
    }
  }

  function renderGuilds() {
    var box = clear(document.getElementById("guilds"));
    Object.keys(setup.guilds).forEach(function (g) {
      var card = el("div", "guild");
      card.appendChild(el("h3", null, guildName(g)));
      var holder = state.guilds[g] && state.guilds[g].holder;
      card.appendChild(holder ? chip(holder) : el("span", "nobody", t("unclaimed")));
      var b = button(t("vote"), "primary", function () { openVote(g); });
      b.id = "vote-" + g;
      b.setAttribute("aria-label", t("vote") + " · " + guildName(g));  // says what it shows
      b.disabled = !!state.governor;
      card.appendChild(b);
      box.appendChild(card);
    });
  }

  function renderVote() {
    var box = document.getElementById("vote");
    box.hidden = !vote;
    clear(box);
    if (!vote) return;
    box.appendChild(el("h2", null, t("vote_for", { guild: guildName(vote.guild) })));
    box.appendChild(el("p", "help", t("bag_help")));
    var n = total(vote.bag);
    var rows = el("div", "steppers");
    state.players.forEach(function (p) {
      var c = p.colour;
      var row = el("div", "stepper");
      row.appendChild(chip(c));
      var minus = button("−", "step", function () { change(c, -1); });
      minus.id = "minus-" + c;
      minus.setAttribute("aria-label", "− " + teamName(c));
      minus.disabled = vote.busy || vote.bag[c] === 0;
      var plus = button("+", "step", function () { change(c, 1); });
      plus.id = "plus-" + c;
      plus.setAttribute("aria-label", "+ " + teamName(c));
      plus.disabled = vote.busy || n >= 8;
      row.appendChild(minus);
      row.appendChild(el("output", "count", String(vote.bag[c])));
      row.appendChild(plus);
      var key = oddsKey(vote.bag);
      var o = odds && odds.key === key && n === 8 ? odds : null;
      if (o) {
        var bar = el("span", "bar");
        bar.style.setProperty("--share", String(o.odds[c]));
        var team = setup.teams[c];
        if (team) bar.style.setProperty("--team", team.colour);
        row.appendChild(bar);
        var pct = Math.round(o.odds[c] * 1000) / 10;
        row.appendChild(el("span", "chance", pct + " % · " + o.exact[c]));
      }
      rows.appendChild(row);
    });
    box.appendChild(rows);
    box.appendChild(el("p", n === 8 ? "total full" : "total", t("in_bag", { n: n })));
    if (n === 8) box.appendChild(el("p", "rule", t("odds_help") + " " + t("tie_rule_" + state.tie_rule)));
    box.appendChild(el("p", "label", t("sealed")));
    box.appendChild(el("code", "hex", state.commitment));
    if (vote.error) box.appendChild(el("p", "error", t("error", { message: vote.error })));
    if (vote.notice) {
      var told = el("p", "notice", vote.notice);
      told.id = "vote-notice";
      box.appendChild(told);
    }
    var actions = el("div", "actions");
    var go = button(vote.busy ? t("drawing") : t("draw"), "primary big", doDraw);
    go.id = "draw";
    go.disabled = vote.busy || n !== 8 || !!state.governor;
    actions.appendChild(go);
    actions.appendChild(button(t("cancel"), "quiet", function () {
      vote = null; keepVote(); render();
    }));
    box.appendChild(actions);
  }

  function renderResult() {
    var box = document.getElementById("result");
    box.hidden = !shown;
    clear(box);
    if (!shown) return;
    var d = shown.draw;
    box.appendChild(el("h2", null, t("vote_for", { guild: guildName(d.guild) })));
    if (notice) box.appendChild(el("p", "notice", notice));
    (d.redrawn || []).forEach(function (tied) {
      var row = el("p", "tied");
      row.appendChild(el("span", null, t("tied") + " "));
      tied.forEach(function (c) { row.appendChild(dot(c)); });
      box.appendChild(row);
    });
    box.appendChild(el("p", "label", t("drawn")));
    var row = el("div", "drawn");
    d.drawn.forEach(function (c, i) {
      var slot = i < shown.step ? chip(c) : el("span", "chip hidden", "?");
      if (i === shown.step - 1) slot.className += " new";
      row.appendChild(slot);
    });
    box.appendChild(row);
    if (shown.step >= d.drawn.length) {
      var win = el("p", "winner", t("wins", { team: teamName(d.winner), guild: guildName(d.guild) }));
      win.id = "winner";
      box.appendChild(win);
      var sealed = shown.before === null || shown.before === d.commitment;
      box.appendChild(el("p", sealed ? "seal ok" : "seal bad", t(sealed ? "seal_ok" : "seal_bad")));
      box.appendChild(el("p", "label", t("seed")));
      var seed = el("code", "hex", d.seed);
      seed.id = "seed";
      box.appendChild(seed);
      var more = el("details", "proof");
      more.appendChild(el("summary", null, t("check")));
      more.appendChild(el("p", "label", t("sealed")));
      more.appendChild(el("code", "hex", d.commitment));
      more.appendChild(el("code", "hex", verifyLine(d)));
      box.appendChild(more);
      var actions = el("div", "actions");
      actions.appendChild(button(t("close"), "quiet", function () { shown = null; notice = ""; render(); }));
      var live = state && state.draws.filter(function (x) { return !x.undone; });
      var last = live && live.length ? live[live.length - 1] : null;
      if (last && last.id === d.id && drewHere.indexOf(d.id) >= 0) {  // drawn here
        actions.appendChild(button(t("undo"), "quiet danger", function () { undo(d.id); }));
      }
      box.appendChild(actions);
    }
  }

  function renderHistory() {
    var list = clear(document.getElementById("history"));
    if (!state.draws.length) { list.appendChild(el("li", "empty", t("no_draws"))); return; }
    state.draws.slice().reverse().forEach(function (d) {
      var item = el("li", d.undone ? "undone" : "");
      var head = el("div", "line");
      head.appendChild(el("span", "num", "#" + d.id));
      head.appendChild(el("span", "gname", guildName(d.guild)));
      head.appendChild(chip(d.winner, true));
      if (d.undone) head.appendChild(el("span", "tag", t("undone")));
      item.appendChild(head);
      var seq = el("div", "seq");
      d.drawn.forEach(function (c) { seq.appendChild(dot(c)); });
      item.appendChild(seq);
      var more = el("details", "proof");
      more.appendChild(el("summary", null, t("check")));
      more.appendChild(el("code", "hex", verifyLine(d)));
      item.appendChild(more);
      list.appendChild(item);
    });
  }

  // ---- start -------------------------------------------------------------------------

  // A name cut short with an ellipsis (a chip, a total, a seat) shows whole on a tap, and
  // short again on another.
  document.addEventListener("click", function (e) {
    var cut = e.target.closest && e.target.closest(".chip .name, .cut");
    if (cut) cut.classList.toggle("whole");
  });

  window.tableLang = function () { return lang; };
  // What games.js shares with this page: one way to talk to the table and to word it.
  window.tableApi = { request: request, why: why, t: t, keepFocus: keepFocus, newKey: newKey,
                      kept: kept, keep: keep, phone: phoneId,
                      el: el, button: button, clear: clear };  // games.js's DOM helpers
  document.getElementById("lang").addEventListener("click", function () {
    lang = lang === "en" ? "fr" : "en";
    try { localStorage.setItem("lang", lang); } catch (e) { /* private mode */ }
    render();
    document.dispatchEvent(new CustomEvent("table-lang"));
  });

  // The phone's own network went (Wi-Fi off, out of range): its stream may linger
  // unaware, so it is closed now and the banner says so; when the network is back the
  // stream reopens at once (not after the browser's own pause), and its "open" sends
  // the waiting changes again.
  window.addEventListener("offline", function () {
    if (source) source.close();
    setLive(false);
    reach(false);
  });
  window.addEventListener("online", connect);

  // Phones drop live streams when the screen locks: catch up when it wakes.
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) return;
    if (!source || source.readyState === 2) connect();
    resync();
  });

  // The table's state is read once the live stream is open (its "open" event): a change
  // made before then is in that read, one made after reaches the page on the stream.
  render();
  connect();
})();
