// The table's other games on the phone page: the game picker, Covenia's end scores
// (each player her own entry), Coverta's rounds, Vengeance's turn resolver and the
// table's history. Plain script, no libraries; every text through textContent.
(function () {
  "use strict";

  var setup = JSON.parse(document.getElementById("setup").textContent);
  var api = location.pathname.replace(/\/+$/, "") + "/api/";
  var GAMES = ["covenia", "coverta", "lugvanion", "vengeance", "history"];
  var CLANS = ["red", "yellow", "green", "blue", "purple"];
  var current = "lugvanion";
  var data = { covenia: null, coverta: null, history: null, players: null };
  // Covenia's figures in words: the answer shown (for `key`), the state wanted, and at
  // most one request pending (updates while it is out ask once more when it is answered).
  var explained = { key: "", answer: null, want: null, pending: false };
  // What a phone has typed but not sent yet lives here, not only in its input: any live
  // update (another phone's entry, a player added) redraws the page.
  var joining = { error: "", busy: false, draft: "" };
  var ending = { error: "" };
  var deckError = "";
  var me = { name: "", area: {}, hand: {}, error: "", busy: false };
  var round = { key: null, error: "", busy: false, counts: {}, steal: "" };
  var turn = { answer: null, error: "" };

  try { current = localStorage.getItem("game") || current; } catch (e) { /* private */ }
  if (GAMES.indexOf(current) < 0) current = "lugvanion";
  try { me.name = localStorage.getItem("player") || ""; } catch (e) { /* private */ }

  function lang() { return window.tableLang ? window.tableLang() : "en"; }

  function t(key, fields) {
    var s = (setup.texts[key] || {})[lang()] || key;
    return s.replace(/\{(\w+)\}/g, function (m, name) {
      return fields && name in fields ? String(fields[name]) : m;
    });
  }

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

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function listing(names) {
    if (names.length < 2) return names.join("");
    return names.slice(0, -1).join(", ") + " " + t("and") + " " + names[names.length - 1];
  }

  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function request(method, path, body, headers) {
    var init = { method: method, headers: headers || {}, cache: "no-store" };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(api + path, init).then(function (r) {
      return r.json().catch(function () { return { error: r.statusText }; })
        .then(function (d) {
          if (!r.ok) {
            // a scorer's refusal comes with its code ("why"): worded in the page's language
            var e = new Error(d.why ? why({ why: d.why, problem: d.error }) : d.error || r.statusText);
            e.status = r.status; throw e;
          }
          return d;
        });
    });
  }

  function load(game) {
    return request("GET", game).then(function (d) { data[game] = d; render(); })
      .catch(function () { /* the stream's reconnection will resync */ });
  }

  function resync() { load("covenia"); load("coverta"); load("history"); load("players"); }

  // The table's players by name, the same in every game, in table order.
  function tablePlayers() { return data.players ? data.players.players : []; }

  // French and English count forms: "1 played", in French "0 jouée", "2 jouées".
  function counted(key, n) {
    var one = lang() === "fr" ? n < 2 : n === 1;
    return t(one ? key + "_one" : key, { n: n });
  }

  // ---- the picker --------------------------------------------------------------------

  function pick(game) {
    current = game;
    try { localStorage.setItem("game", game); } catch (e) { /* private */ }
    render();
  }

  function renderPicker() {
    var nav = clear(document.getElementById("picker"));
    GAMES.forEach(function (g) {
      var b = button(t("g_" + g), g === current ? "tab on" : "tab", function () { pick(g); });
      b.setAttribute("aria-pressed", g === current ? "true" : "false");
      nav.appendChild(b);
    });
    GAMES.forEach(function (g) {
      document.getElementById("game-" + g).hidden = g !== current;
    });
    document.getElementById("governor").style.display = current === "lugvanion" ? "" : "none";
    renderCredits();
  }

  // The footer credits the authors of the game shown; the history page, all four.
  function renderCredits() {
    var foot = clear(document.getElementById("credits"));
    var shown = setup.credits[current] ? [current] : GAMES.filter(function (g) {
      return setup.credits[g];
    });
    shown.forEach(function (g) { foot.appendChild(el("p", null, setup.credits[g][lang()])); });
  }

  // ---- Covenia -----------------------------------------------------------------------

  function entryOf(name) {
    var list = data.covenia ? data.covenia.entries : [];
    for (var i = 0; i < list.length; i++) if (list[i].name === name) return list[i];
    return null;
  }

  function startEntry(name) {
    var e = entryOf(name) || { area: {}, hand: {} };
    me = { name: name, area: copy(e.area), hand: copy(e.hand), error: "", busy: false };
    try { localStorage.setItem("player", name); } catch (x) { /* private */ }
    render();
  }

  function copy(o) { return JSON.parse(JSON.stringify(o || {})); }

  function toggle(part, clan, v) {
    var list = (me[part][clan] || []).slice();
    var at = list.indexOf(v);
    if (at >= 0) list.splice(at, 1); else list.push(v);
    list.sort(function (a, b) { return a - b; });  // a column always rises
    if (list.length) me[part][clan] = list; else delete me[part][clan];
    me.saved = false;
    render();
  }

  function save() {
    me.busy = true; me.error = "";
    request("PUT", "covenia/players/" + encodeURIComponent(me.name),
            { area: me.area, hand: me.hand })
      .then(function (d) { data.covenia = d; me.busy = false; me.saved = true; render(); })
      .catch(function (e) { me.busy = false; me.error = e.message; render(); });
    render();
  }

  function valueGrid(part, clan) {
    var row = el("div", "values");
    row.setAttribute("data-clan", clan);
    for (var v = 1; v <= 10; v++) {
      (function (v) {
        var on = (me[part][clan] || []).indexOf(v) >= 0;
        var b = button(String(v), on ? "value on clan-" + clan : "value clan-" + clan,
                       function () { toggle(part, clan, v); });
        b.setAttribute("aria-pressed", on ? "true" : "false");
        b.setAttribute("aria-label", t("clan_" + clan) + " " + v + " (" + part + ")");
        row.appendChild(b);
      })(v);
    }
    return row;
  }

  function scoreTable(score) {
    var table = el("table", "scores");
    var head = el("tr");
    head.appendChild(el("th"));
    score.players.forEach(function (p) { head.appendChild(el("th", null, p.name)); });
    table.appendChild(head);
    CLANS.concat(["bonus", "total"]).forEach(function (row) {
      var tr = el("tr", row === "total" ? "total-row" : "");
      tr.appendChild(el("th", null, t(row in { bonus: 1, total: 1 } ? "row_" + row : "clan_" + row)));
      score.players.forEach(function (p) { tr.appendChild(el("td", null, String(p[row]))); });
      table.appendChild(tr);
    });
    return table;
  }

  function renderCovenia() {
    var main = clear(document.getElementById("game-covenia"));
    var d = data.covenia;
    var who = el("section", "panel");
    who.appendChild(el("h2", null, t("g_covenia")));
    var known = tablePlayers();
    if (known.length) {
      who.appendChild(el("p", "help", t("who_are_you")));
      var seats = el("div", "names");
      seats.id = "table-players";
      known.forEach(function (name) {
        var b = button(name, name === me.name ? "quiet on" : "quiet", function () { startEntry(name); });
        b.setAttribute("aria-pressed", name === me.name ? "true" : "false");
        seats.appendChild(b);
      });
      who.appendChild(seats);
    }
    var label = el("label", "label", t(known.length ? "add_player" : "your_name"));
    var input = el("input", "name");
    input.id = "covenia-name";
    input.maxLength = 40;
    input.value = joining.draft || (known.length ? "" : me.name);
    input.addEventListener("input", function () { joining.draft = input.value; });
    label.appendChild(input);
    who.appendChild(label);
    var join = button(t("pick_name"), "primary", function () {
      var name = input.value.trim();
      if (!name) return;
      joining = { error: "", busy: true, draft: "" };
      request("POST", "players", { name: name })  // the table's player, in every game
        .then(function (a) {
          joining.busy = false;
          data.players = { players: a.players };
          startEntry(a.player);
        })
        .catch(function (e) { joining = { error: e.message, busy: false, draft: name }; render(); });
    });
    join.disabled = joining.busy;
    who.appendChild(join);
    if (joining.error) who.appendChild(el("p", "error", t("error", { message: joining.error })));
    main.appendChild(who);

    if (me.name) {
      var edit = el("section", "panel entry");
      edit.appendChild(el("h2", null, me.name));
      edit.appendChild(el("p", "help", t("area")));
      CLANS.forEach(function (c) {
        edit.appendChild(el("h3", "clan clan-" + c, t("clan_" + c)));
        edit.appendChild(valueGrid("area", c));
      });
      edit.appendChild(el("p", "help", t("hand")));
      CLANS.forEach(function (c) {
        edit.appendChild(el("h3", "clan clan-" + c, t("clan_" + c)));
        edit.appendChild(valueGrid("hand", c));
      });
      if (me.error) edit.appendChild(el("p", "error", t("error", { message: me.error })));
      var actions = el("div", "actions");
      var s = button(me.saved ? t("saved") : t("save"), "primary big", save);
      s.id = "covenia-save";
      s.disabled = me.busy;
      actions.appendChild(s);
      edit.appendChild(actions);
      main.appendChild(edit);
    }

    var board = el("section", "panel");
    board.appendChild(el("h2", null, t("entries")));
    if (!d || !d.entries.length) board.appendChild(el("p", "help", t("no_entries")));
    else {
      var list = el("div", "names");
      d.entries.forEach(function (e) {
        list.appendChild(button(e.name, "quiet", function () { startEntry(e.name); }));
      });
      board.appendChild(list);
    }
    board.appendChild(deckChooser(d));
    if (d && d.score) {
      board.appendChild(scoreTable(d.score));
      var w = d.score.winners;
      var line = el("p", "winner", t(w.length === 1 ? "winner" : "winners", { names: listing(w) }));
      line.id = "covenia-winner";
      board.appendChild(line);
      board.appendChild(explanations(d));
      var pdf = el("a", "link", t("pdf"));
      pdf.href = api + "covenia/scorebook.pdf?lang=" + lang();
      board.appendChild(pdf);
      board.appendChild(el("div", "actions")).appendChild(
        button(t("end_game"), "quiet danger", function () { end("covenia"); }));
    } else if (d && d.problem && d.entries.length) {
      board.appendChild(el("p", "help", t("not_scored", { message: why(d) })));
    }
    main.appendChild(board);
  }

  // Why the entries do not score yet, in the page's language: the scorer's code and
  // params (d.why) worded by layouts/phone.toml's "why_" + code; the CLI's English line
  // (d.problem) only for a code the page has no words for.
  function why(d) {
    var w = d.why;
    var key = w && typeof w.code === "string" ? "why_" + w.code.replace(/\./g, "_") : "";
    var words = key && setup.texts[key] ? setup.texts[key][lang()] : null;
    if (!words) return d.problem;
    var fields = {};
    Object.keys(w.params || {}).forEach(function (k) { fields[k] = w.params[k]; });
    if (typeof fields.clan === "string" && setup.texts["clan_" + fields.clan]) {
      fields.clan = t("clan_" + fields.clan).toLowerCase();
    }
    var wanted = words.match(/\{\w+\}/g) || [];
    for (var i = 0; i < wanted.length; i++) {
      if (!(wanted[i].slice(1, -1) in fields)) return d.problem;
    }
    return t(key, fields);
  }

  // The decks in play (PUT covenia/decks): A, B or both; "auto" is the score file's
  // default (A for 2 players, both for more).
  function deckChooser(d) {
    var box = el("div", "decks");
    box.id = "covenia-decks";
    box.appendChild(el("span", "help", t("decks")));
    var now = d ? d.decks : null;
    [null, "A", "B", "AB"].forEach(function (choice) {
      var b = button(choice === null ? t("decks_auto") : choice,
                     choice === now ? "tab on" : "tab", function () {
        request("PUT", "covenia/decks", { decks: choice })
          .then(function (a) { data.covenia = a; deckError = ""; render(); })
          .catch(function (e) { deckError = e.message; render(); });
      });
      b.setAttribute("aria-pressed", choice === now ? "true" : "false");
      box.appendChild(b);
    });
    if (deckError) box.appendChild(el("p", "error", t("error", { message: deckError })));
    return box;
  }

  var EXPLAINED_GAP = 250;  // ms between two requests: a burst of edits asks twice

  function askExplained() {
    if (explained.pending || !explained.want) return;
    var wait = (explained.last || 0) + EXPLAINED_GAP - Date.now();
    if (wait > 0) {
      explained.pending = true;
      setTimeout(function () { explained.pending = false; askExplained(); }, wait);
      return;
    }
    var want = explained.want;
    explained.pending = true;
    explained.last = Date.now();
    request("GET", "covenia/explained?lang=" + want.lang).then(function (a) {
      explained.pending = false;
      explained.key = want.key; explained.answer = a;
      if (explained.want === want) render(); else askExplained();
    }).catch(function () {
      explained.pending = false;
      if (explained.want !== want) askExplained();  // else the next update asks again
    });
  }

  // Every figure explained in the CLI's words, asked again when the entries or the
  // language change: one request at a time and at most four a second, however fast the
  // updates come (the last state is always asked for).
  function explanations(d) {
    var box = el("div", "explained");
    box.id = "covenia-explained";
    var key = lang() + JSON.stringify(d.score);
    if (explained.key !== key && (!explained.want || explained.want.key !== key)) {
      explained.want = { key: key, lang: lang() };
      askExplained();
    }
    // Until the new answer comes, the last one in this language stays.
    if (!explained.answer || explained.key.slice(0, 2) !== lang()) return box;
    explained.answer.players.forEach(function (p) {
      var more = el("details", "proof");
      more.appendChild(el("summary", null, p.name + " · " + p.total));
      var list = el("ul", "steps");
      Object.keys(p.rows).forEach(function (row) {
        list.appendChild(el("li", null, t("explained_row", {
          row: t(row === "bonus" ? "row_bonus" : "clan_" + row),
          points: p.rows[row].points, text: p.rows[row].text })));
      });
      more.appendChild(list);
      box.appendChild(more);
    });
    return box;
  }

  function end(game) {
    if (!window.confirm(t("end_confirm"))) return;
    request("POST", game + "/close", {}).then(resync).catch(resync);
  }

  // ---- Coverta -----------------------------------------------------------------------

  function addRound(form, players) {
    var hands = {};
    var steal = form.querySelector("select").value;
    var inputs = form.querySelectorAll("input.count");
    for (var i = 0; i < inputs.length; i++) {
      var n = inputs[i].value.trim();
      hands[players[i]] = /^[0-9]{1,2}$/.test(n) ? parseInt(n, 10) : n;
    }
    var body = { hands: hands, first_steal: steal || null };
    var sent = JSON.stringify(body);
    if (!round.key || round.sent !== sent) { round.key = newKey(); round.sent = sent; }
    round.busy = true; round.error = "";
    request("POST", "coverta/rounds", body, { "Idempotency-Key": round.key })
      .then(function () {
        round = { key: null, error: "", busy: false, counts: {}, steal: "" };
        return load("coverta");
      })
      .catch(function (e) {
        // A 409 (the round sent with this key was undone since) is an answer, not a lost
        // one: the next tap is a new round, with a new key.
        if (e.status === 409) round.key = null;
        round.busy = false; round.error = e.message; render();
      });
  }

  function renderCoverta() {
    var main = clear(document.getElementById("game-coverta"));
    var d = data.coverta;
    var players = d && d.open ? d.players : null;
    var panel = el("section", "panel");
    panel.appendChild(el("h2", null, t("g_coverta")));
    var form = el("div", "round");
    var names = players;
    if (!players) {
      var label = el("label", "label", t("players_names"));
      var who = el("input", "names-input");
      who.id = "coverta-players";
      // The table's players in table order until someone writes others.
      if (round.names === undefined && tablePlayers().length) {
        who.value = tablePlayers().join(", ");
      } else who.value = round.names || "";
      who.addEventListener("input", function () { round.names = who.value; });
      // Redrawn after the change, not inside it: a change fired by the input's own removal
      // (a live redraw while it has the focus) must not redraw the page mid-redraw.
      who.addEventListener("change", function () { setTimeout(render, 0); });
      label.appendChild(who);
      form.appendChild(label);
      names = who.value.split(",").map(function (s) { return s.trim(); })
        .filter(function (s) { return s; });
    }
    names.forEach(function (p, i) {
      var label = el("label", "label", p + " · " + t("hand_count"));
      var n = el("input", "count");
      n.id = "coverta-count-" + i;
      n.inputMode = "numeric";
      n.value = round.counts[p] || "";
      n.addEventListener("input", function () { round.counts[p] = n.value; });
      n.setAttribute("aria-label", p);
      label.appendChild(n);
      form.appendChild(label);
    });
    var steal = el("label", "label", t("first_steal"));
    var select = el("select");
    select.appendChild(el("option", null, t("nobody"))).value = "";
    names.forEach(function (p) { select.appendChild(el("option", null, p)).value = p; });
    select.id = "coverta-steal";
    select.value = names.indexOf(round.steal) >= 0 ? round.steal : "";
    select.addEventListener("change", function () { round.steal = select.value; });
    steal.appendChild(select);
    form.appendChild(steal);
    if (round.error) form.appendChild(el("p", "error", t("error", { message: round.error })));
    var add = button(t("add_round"), "primary big", function () { addRound(form, names); });
    add.id = "coverta-add";
    add.disabled = round.busy || names.length < 2;
    form.appendChild(el("div", "actions")).appendChild(add);
    panel.appendChild(form);
    main.appendChild(panel);

    var board = el("section", "panel");
    if (!players) { board.appendChild(el("p", "help", t("no_rounds"))); main.appendChild(board); return; }
    var table = el("table", "scores");
    table.id = "coverta-rounds";
    var head = el("tr");
    head.appendChild(el("th"));
    players.forEach(function (p) { head.appendChild(el("th", null, p)); });
    table.appendChild(head);
    d.score.rounds.forEach(function (r, i) {
      var tr = el("tr");
      tr.appendChild(el("th", null, t("round_n", { n: i + 1 })));
      players.forEach(function (p) { tr.appendChild(el("td", null, String(r[p]))); });
      table.appendChild(tr);
    });
    var tot = el("tr", "total-row");
    tot.appendChild(el("th", null, t("row_total")));
    players.forEach(function (p) { tot.appendChild(el("td", null, String(d.score.totals[p]))); });
    table.appendChild(tot);
    board.appendChild(table);
    var lead = el("p", "winner", t("leader", { names: listing(d.score.winners) }));
    lead.id = "coverta-leader";
    board.appendChild(lead);
    var actions = el("div", "actions");
    var n = d.score.rounds.length;
    actions.appendChild(button(t("undo_round"), "quiet danger", function () {
      request("DELETE", "coverta/rounds/last?round=" + n).then(function () { load("coverta"); })
        .catch(function () { load("coverta"); });
    }));
    actions.appendChild(button(t("end_game"), "quiet danger", function () { end("coverta"); }));
    board.appendChild(actions);
    main.appendChild(board);
  }

  // ---- Vengeance ---------------------------------------------------------------------

  function renderVengeance() {
    var main = clear(document.getElementById("game-vengeance"));
    var panel = el("section", "panel");
    panel.appendChild(el("h2", null, t("g_vengeance")));
    var fields = {};
    ["herb", "mineral", "potion"].forEach(function (k) {
      var label = el("label", "label", t(k));
      var n = el("input", "count");
      n.inputMode = "numeric";
      n.value = turn[k] || "0";
      n.id = "vengeance-" + k;
      n.addEventListener("input", function () { turn[k] = n.value; });
      n.setAttribute("aria-label", t(k));
      label.appendChild(n);
      panel.appendChild(label);
      fields[k] = n;
    });
    ["artifacts", "incantations"].forEach(function (k) {
      var label = el("label", "label", t(k));
      var n = el("input", "text");
      n.value = turn[k] || "";
      n.id = "vengeance-" + k;
      n.addEventListener("input", function () { turn[k] = n.value; });
      n.setAttribute("aria-label", t(k));
      label.appendChild(n);
      panel.appendChild(label);
      fields[k] = n;
    });
    var go = button(t("resolve"), "primary big", function () {
      var body = {};
      ["herb", "mineral", "potion"].forEach(function (k) {
        turn[k] = fields[k].value;
        var v = fields[k].value.trim();
        body[k] = /^-?[0-9]{1,3}$/.test(v) ? parseInt(v, 10) : v;
      });
      turn.artifacts = fields.artifacts.value;
      turn.incantations = fields.incantations.value;
      body.artifacts = turn.artifacts.split(/[\s,;]+/).filter(function (s) { return s; });
      body.incantations = turn.incantations.split(/[\s,;]+/).filter(function (s) { return s; })
        .map(function (s) { return /^[0-9]{1,3}$/.test(s) ? parseInt(s, 10) : s; });
      request("POST", "vengeance/resolve", body)
        .then(function (a) { turn.answer = a; turn.error = ""; render(); })
        .catch(function (e) { turn.answer = null; turn.error = e.message; render(); });
    });
    go.id = "vengeance-resolve";
    panel.appendChild(el("div", "actions")).appendChild(go);
    if (turn.error) panel.appendChild(el("p", "error", t("error", { message: turn.error })));
    if (turn.answer) {
      var steps = el("ol", "steps");
      turn.answer.order.forEach(function (s) {
        var key = s.kind === "incantation" ? "step_incantation"
          : s.discarded ? "step_discarded" : "step_removes_" + s.type;
        steps.appendChild(el("li", null, t(key, { number: s.number, type: t(s.type || ""),
                                                   removed: s.removed })));
      });
      panel.appendChild(steps);
      var w = el("p", "winner", turn.answer.winner ? t("turn_winner", { type: t(turn.answer.winner) })
                                                    : t("turn_none"));
      w.id = "vengeance-winner";
      panel.appendChild(w);
    }
    main.appendChild(panel);
  }

  // ---- history -----------------------------------------------------------------------

  function renderHistory() {
    var main = clear(document.getElementById("game-history"));
    var d = data.history;
    var panel = el("section", "panel");
    panel.appendChild(el("h2", null, t("past_games")));
    var list = el("ol", "history");
    list.id = "past-games";
    if (!d || !d.games.length) list.appendChild(el("li", "empty", t("no_games")));
    (d ? d.games.slice().reverse() : []).forEach(function (g) {
      var item = el("li");
      var head = el("div", "line");
      head.appendChild(el("span", "num", g.date.slice(0, 10)));
      head.appendChild(el("span", "gname", t("g_" + g.game)));
      item.appendChild(head);
      item.appendChild(el("div", "help", g.players.map(function (p) {
        return p + " " + (g.scores[p] === undefined ? "" : g.scores[p]);
      }).join(" · ")));
      if (g.governor) item.appendChild(el("div", "help", t("governor_was", { name: g.governor })));
      if (g.winners.length) {
        item.appendChild(el("div", "winner small", t(g.winners.length === 1 ? "winner" : "winners",
                                                     { names: listing(g.winners) })));
      }
      list.appendChild(item);
    });
    panel.appendChild(list);
    main.appendChild(panel);
    var per = el("section", "panel");
    per.appendChild(el("h2", null, t("per_player")));
    var table = el("table", "scores");
    table.id = "per-player";
    Object.keys(d ? d.players : {}).forEach(function (name) {
      var tr = el("tr");
      tr.appendChild(el("th", null, name));
      tr.appendChild(el("td", null, t("played_won", {
        played: counted("n_played", d.players[name].played),
        won: counted("n_won", d.players[name].won) })));
      table.appendChild(tr);
    });
    per.appendChild(table);
    var csv = el("a", "link", t("csv"));
    csv.href = api + "history.csv";
    per.appendChild(csv);
    main.appendChild(per);
  }

  // ---- start -------------------------------------------------------------------------

  // Lugvanion: end the game into the history (POST lugvanion/close), asked first.
  function renderLugvanionEnd() {
    var box = document.getElementById("lugvanion-end");
    if (!box) {
      box = el("section", "panel");
      box.id = "lugvanion-end";
      document.getElementById("game-lugvanion").appendChild(box);
    }
    clear(box);
    var b = button(t("end_game"), "quiet danger", function () {
      if (!window.confirm(t("end_confirm"))) return;
      request("POST", "lugvanion/close", {})
        .then(function () { ending.error = ""; render(); resync(); })
        .catch(function (e) { ending.error = e.message; render(); });
    });
    b.id = "lugvanion-close";
    box.appendChild(el("div", "actions")).appendChild(b);
    if (ending.error) box.appendChild(el("p", "error", t("error", { message: ending.error })));
  }

  function render() {
    // A redraw replaces the inputs: the one being typed in gets the focus (and caret) back.
    var focused = document.activeElement && document.activeElement.id;
    var caret = null;
    try { caret = focused ? document.activeElement.selectionStart : null; } catch (e) { /* select */ }
    renderPicker();
    if (current === "lugvanion") renderLugvanionEnd();
    if (current === "covenia") renderCovenia();
    if (current === "coverta") renderCoverta();
    if (current === "vengeance") renderVengeance();
    if (current === "history") renderHistory();
    var again = focused && document.getElementById(focused);
    if (again && again !== document.activeElement && again.tagName !== "BUTTON") {
      again.focus();
      if (caret !== null && typeof again.setSelectionRange === "function") {
        try { again.setSelectionRange(caret, caret); } catch (e) { /* not a text input */ }
      }
    }
  }

  function listen(source) {
    source.addEventListener("open", resync);
    source.addEventListener("covenia", function (e) { data.covenia = JSON.parse(e.data); render(); });
    source.addEventListener("coverta", function (e) { data.coverta = JSON.parse(e.data); render(); });
    source.addEventListener("history", function () { load("history"); });
    source.addEventListener("players", function (e) { data.players = JSON.parse(e.data); render(); });
    source.addEventListener("closed", function () { ending.error = ""; render(); });
  }

  if (window.tableSource) listen(window.tableSource);
  document.addEventListener("table-source", function (e) { listen(e.detail); });
  document.addEventListener("table-lang", render);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) resync(); });
  render();
  resync();
})();
