// The table's other games on the phone page: the game picker, Covenia's end scores
// (each player her own entry), Coverta's rounds, Vengeance's turn resolver and the
// table's history. Plain script, no libraries; every text through textContent.
(function () {
  "use strict";

  var setup = JSON.parse(document.getElementById("setup").textContent);
  var api = location.pathname.replace(/\/+$/, "") + "/api/";
  var shared = window.tableApi;  // app.js: talking to the table, wording its refusals
  var request = shared.request, why = shared.why, newKey = shared.newKey;
  var kept = shared.kept, keep = shared.keep;  // what this phone keeps for this table
  // app.js's words (in the page's language) and DOM helpers: one copy for both scripts.
  var t = shared.t, el = shared.el, button = shared.button, clear = shared.clear;
  // A designer's games served with --game, by id: name, credits, wins, categories.
  var OWN = {};
  (setup.own || []).forEach(function (g) { OWN[g.id] = g; });
  var GAMES = ["covenia", "coverta", "lugvanion", "vengeance"].concat(Object.keys(OWN), ["history"]);
  var CLANS = ["red", "yellow", "green", "blue", "purple"];
  var current = "lugvanion";
  var data = { covenia: null, coverta: null, history: null, players: null, own: {} };
  var mine = {};  // her entry in each of the designer's games, as `me` is Covenia's
  // Covenia's figures in words: the answer shown (for `key`), the state wanted, and at
  // most one request pending (updates while it is out ask once more when it is answered).
  var explained = { key: "", answer: null, want: null, pending: false };
  var brought = { state: "", figures: null };  // the last figures an update carried
  // What a phone has typed but not sent yet lives here, not only in its input: any live
  // update (another phone's entry, a player added) redraws the page.
  var joining = { error: "", busy: false, draft: "" };
  var ending = { error: "" };
  var deckError = "";
  // The entry this phone edits: always the one the table holds for `name` (read when the
  // page opens and followed on every update), unless she has changed it here and not
  // saved yet (`dirty`). `etag` is the table's tag of the entry she started from: her
  // Save is refused (412) if another phone changed it since. `game` is the Covenia game
  // it belongs to: when that game ends, her entry goes with it.
  var me = { name: "", area: {}, hand: {}, etag: null, game: null, dirty: false,
             error: "", busy: false };
  var round = freshRound();
  var historyError = "";
  var cursor = {};  // each value row's Tab stop (the value last tapped or reached)
  var turn = { answer: null, error: "" };
  var seating = { open: false, busy: false, error: "" };  // the seat order's control

  try { current = localStorage.getItem("game") || current; } catch (e) { /* private */ }
  if (GAMES.indexOf(current) < 0) current = "lugvanion";
  // Who she is, per game (kept for this table; before, one name for every table).
  me.name = kept("player:covenia") || "";
  try { me.name = me.name || localStorage.getItem("player") || ""; } catch (e) { /* private */ }

  function lang() { return window.tableLang ? window.tableLang() : "en"; }

  function listing(names) {
    if (names.length < 2) return names.join("");
    return names.slice(0, -1).join(", ") + " " + t("and") + " " + names[names.length - 1];
  }

  function load(game) {
    return request("GET", game).then(function (d) { got(game, d); })
      .catch(function () { /* the stream's reconnection will resync */ });
  }

  function got(game, d) {
    data[game] = d;
    if (game === "covenia") followCovenia();
    if (game === "coverta") followCoverta();
    render();
  }

  function resync() {
    load("covenia"); load("coverta"); load("history"); load("players");
    Object.keys(OWN).forEach(loadOwn);
  }

  // A game's name on the page: ours in the page's words, a designer's as her file has it.
  // A designer's game no longer served (in the history) goes by its id.
  function gameName(g) {
    if (OWN[g]) return OWN[g].name[lang()];
    return setup.texts["g_" + g] ? t("g_" + g) : String(g);
  }

  // The table's players by name, the same in every game, in seat order (1 plays first).
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
      var b = button(gameName(g), g === current ? "tab on" : "tab", function () { pick(g); });
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

  function copy(o) { return JSON.parse(JSON.stringify(o || {})); }

  // Her entry as the table holds it (none: an empty one), and its tag.
  function takeTables(name) {
    var e = entryOf(name) || { area: {}, hand: {} };
    var d = data.covenia;
    me.area = copy(e.area); me.hand = copy(e.hand);
    me.etag = d && d.etags ? d.etags[name] || null : null;
    me.game = d ? d.id : null;
    me.dirty = false;
  }

  // Her taps not saved yet, kept on this phone (a reload, a locked screen, a dropped
  // page bring them back) until the table has them or the game ends: the draft of the
  // game it began in (none open then: whichever opens), with the tag it began from.
  function keepDraft() {
    keep("draft:covenia", { name: me.name, game: me.game, etag: me.etag,
                            area: me.area, hand: me.hand });
  }

  function takeDraft() {
    var k = kept("draft:covenia"), d = data.covenia;
    if (!k || !d || k.name !== me.name) return;
    if (k.game && k.game !== d.id) { keep("draft:covenia", null); return; }  // it ended
    // The draft began from an entry the table no longer holds (another phone saved or
    // deleted it since): the draft is shown, and beside it the newer entry, said so.
    var now = d.etags ? d.etags[me.name] || null : null;
    me.older = (k.etag || null) !== now ? (entryOf(me.name) || { area: {}, hand: {} }) : null;
    me.area = copy(k.area); me.hand = copy(k.hand);
    me.etag = k.etag || null;
    me.game = d.id;
    me.dirty = true;
  }

  // An element holding a sentence that names players (a majority's "first with ..."): each
  // player's name in it is whole or cut with an ellipsis (shown whole on a tap), never
  // broken inside the word on a narrow phone.
  function named(tag, cls, text) {
    var node = el(tag, cls);
    var names = tablePlayers().filter(function (n) { return n.length > 3; })
      .sort(function (a, b) { return b.length - a.length; });
    if (!names.length) { node.textContent = text; return node; }
    var pattern = new RegExp("(" + names.map(function (n) {
      return n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }).join("|") + ")");
    text.split(pattern).forEach(function (piece, i) {
      if (i % 2) node.appendChild(el("span", "cut", piece)).title = piece;
      else if (piece) node.appendChild(document.createTextNode(piece));
    });
    return node;
  }

  // Which phone changed an entry last, and when (the table's stamp), or nothing.
  function changedLine(stamps, name) {
    var s = stamps && stamps[name];
    if (!s || !s.at) return null;
    var phone = s.phone && s.phone === shared.phone ? t("this_phone")
      : t("another_phone") + (s.phone ? " (" + s.phone.slice(0, 4) + ")" : "");
    return el("p", "changed", t("changed_by", { phone: phone, time: clock(s.at) }));
  }

  // French elides "de" before a vowel: "le plus d’Anguilles" (companion/text/typography.py
  // does the same for the pad and `companion score`).
  function elide(text) {
    return lang() === "fr" ? text.replace(/(^|[\s(])([Dd])e (?=[AEIOUaeiouÀÂÄÉÈÊËÎÏÔÖÙÛÜàâäéèêëîïôöùûüŒœÆæ])/g, "$1$2\u2019") : text;
  }

  function clock(iso) {
    var d = new Date(iso);
    if (isNaN(d.getTime())) return iso;
    return d.toLocaleTimeString(lang() === "fr" ? "fr-FR" : "en-GB",
                                { hour: "2-digit", minute: "2-digit" });
  }

  // An entry in a line: each clan's values, the area then the hand.
  function entryWords(e) {
    var parts = [];
    ["area", "hand"].forEach(function (part) {
      var clans = CLANS.filter(function (c) { return (e[part] || {})[c] && e[part][c].length; });
      parts.push(t("part_" + part) + (lang() === "fr" ? "\u202f: " : ": ") + (clans.length
        ? clans.map(function (c) { return t("clan_" + c) + " " + e[part][c].join(" "); }).join(", ")
        : "—"));
    });
    return parts.join(" · ");
  }

  function olderNotice() {
    var d = data.covenia;
    var box = el("div", "notice");
    box.id = "covenia-older";
    var s = d && d.changed ? d.changed[me.name] : null;
    box.appendChild(el("p", null, t("draft_older", { time: s && s.at ? clock(s.at) : "?" })));
    var held = el("p", "steps", entryWords(me.older));
    held.id = "covenia-older-entry";
    box.appendChild(held);
    var take = button(t("take_table"), "quiet", function () {
      keep("draft:covenia", null);
      takeTables(me.name);
      me.older = null;
      render();
    });
    take.id = "covenia-take-table";
    box.appendChild(take);
    return box;
  }

  function startEntry(name) {
    me = { name: name, area: {}, hand: {}, etag: null, game: null, dirty: false,
           error: "", busy: false };
    takeTables(name);
    takeDraft();
    keep("player:covenia", name);
    render();
    // Her grid comes up under the page's bar, its Save pinned at the bottom.
    var grid = document.getElementById("covenia-entry");
    if (grid) grid.scrollIntoView({ block: "start" });
  }

  // After every read or update of Covenia: the game her entry belonged to has ended (a
  // new one, or none, is open): everything she had here goes with it. Otherwise, with
  // nothing changed here, the phone shows what the table holds for her.
  function followCovenia() {
    var d = data.covenia;
    if (!d || !me.name || me.busy) return;
    if (me.game && d.id !== me.game) {
      takeTables(me.name);
      return;
    }
    if (!me.dirty) { takeTables(me.name); takeDraft(); }
    else if (!me.game) me.game = d.id;
  }

  // Both decks in play: each clan and value exists twice, so a hand may hold both
  // copies (a value is tapped again for the second). A column never holds a value twice.
  function copies(part) {
    return part === "hand" && data.covenia && data.covenia.in_play === "AB" ? 2 : 1;
  }

  function held(part, clan, v) {
    return (me[part][clan] || []).filter(function (x) { return x === v; }).length;
  }

  function toggle(part, clan, v) {
    var list = (me[part][clan] || []).slice();
    var n = held(part, clan, v);
    list = list.filter(function (x) { return x !== v; });
    var next = n + 1 > copies(part) ? 0 : n + 1;
    for (var i = 0; i < next; i++) list.push(v);
    cursor[part + clan] = v;
    list.sort(function (a, b) { return a - b; });  // a column always rises
    if (list.length) me[part][clan] = list; else delete me[part][clan];
    me.dirty = true;
    me.error = "";
    keepDraft();
    render();
  }

  function entryFailed(e) {
    me.busy = false;
    if (e.status === 412 && e.body) {
      // Another phone saved (or deleted) her entry since this one read it: show the
      // table's entry, and say so; she redoes her change on it.
      var held = e.body.entry || { area: {}, hand: {} };
      me.area = copy(held.area); me.hand = copy(held.hand);
      me.etag = e.body.etag || null;
      me.dirty = false;
      keep("draft:covenia", null);
      load("covenia");
    }
    me.error = e.message;
    render();
  }

  function entryHeaders() {
    var h = { "Idempotency-Key": newKey() };
    if (me.etag) h["If-Match"] = me.etag; else h["If-None-Match"] = "*";
    return h;
  }

  function save() {
    if (me.busy) return;
    me.busy = true; me.error = "";
    request("PUT", "covenia/players/" + encodeURIComponent(me.name),
            { area: me.area, hand: me.hand }, entryHeaders())
      .then(function (d) {
        me.busy = false;
        data.covenia = d;
        keep("draft:covenia", null);  // the table has it
        takeTables(me.name);
        me.etag = d.etag;
        render();
      })
      .catch(entryFailed);
    render();
  }

  function deleteEntry() {
    if (me.busy || !window.confirm(t("delete_confirm", { name: me.name }))) return;
    me.busy = true; me.error = "";
    request("DELETE", "covenia/players/" + encodeURIComponent(me.name), undefined,
            entryHeaders())
      .then(function (d) {
        me.busy = false; data.covenia = d; keep("draft:covenia", null);
        takeTables(me.name); render();
      })
      .catch(entryFailed);
    render();
  }

  // One clan's ten values: one stop for Tab (the arrow keys move along the row), so
  // that Save is a dozen Tab presses away, not a hundred.
  function valueGrid(part, clan) {
    var row = el("div", "values");
    row.setAttribute("data-clan", clan);
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", t("clan_" + clan) + " (" + t("part_" + part) + ")");
    var buttons = [];
    var stop = cursor[part + clan] || (me[part][clan] || [])[0] || 1;
    for (var v = 1; v <= 10; v++) {
      (function (v) {
        var n = held(part, clan, v);
        var b = button(String(v), "value clan-" + clan + (n ? " on" : "") + (n > 1 ? " twice" : ""),
                       function () { toggle(part, clan, v); });
        b.id = "v-" + part + "-" + clan + "-" + v;
        if (n > 1) b.appendChild(el("span", "copies", "×2"));
        b.setAttribute("aria-pressed", n ? "true" : "false");
        b.setAttribute("aria-label", t(n > 1 ? "value_label_twice" : "value_label",
                                       { clan: t("clan_" + clan), value: v, part: t("part_" + part) }));
        b.tabIndex = v === stop ? 0 : -1;
        buttons.push(b);
        row.appendChild(b);
      })(v);
    }
    row.addEventListener("keydown", function (e) {
      var at = buttons.indexOf(document.activeElement);
      var to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
                 Home: 0, End: buttons.length - 1 }[e.key];
      if (at < 0 || to === undefined) return;
      e.preventDefault();
      to = Math.max(0, Math.min(buttons.length - 1, to));
      buttons.forEach(function (b, i) { b.tabIndex = i === to ? 0 : -1; });
      cursor[part + clan] = to + 1;
      buttons[to].focus();
    });
    return row;
  }

  function scoreTable(score) {
    var table = el("table", "scores");
    var head = el("tr");
    head.appendChild(el("td"));  // the corner heads nothing
    score.players.forEach(function (p) { head.appendChild(nameHead(p.name)); });
    table.appendChild(head);
    CLANS.concat(["bonus", "total"]).forEach(function (row) {
      var tr = el("tr", row === "total" ? "total-row" : "");
      tr.appendChild(el("th", null, t(row in { bonus: 1, total: 1 } ? "row_" + row : "clan_" + row)));
      score.players.forEach(function (p) { tr.appendChild(el("td", null, String(p[row]))); });
      table.appendChild(tr);
    });
    return table;
  }

  // A form: Enter in its field does what its button does.
  function form(cls, onSubmit) {
    var f = el("form", cls);
    f.noValidate = true;
    f.addEventListener("submit", function (e) { e.preventDefault(); onSubmit(); });
    return f;
  }

  function submit(text, cls) {
    var b = el("button", cls, text);
    b.type = "submit";
    return b;
  }

  // An entry's Save button (made by `saveButton(label, cls)`, its label saying where the
  // entry stands), pinned alone at the bottom of the screen: id `prefix`-save.
  function entryActions(prefix, m, saveButton) {
    var actions = el("div", "actions");
    var s = saveButton(m.busy ? t("saving") : m.dirty || !m.etag ? t("save") : t("saved"),
                       "primary big");
    s.id = prefix + "-save";
    s.disabled = m.busy;
    actions.appendChild(s);
    return actions;
  }

  // Her name heading her entry and, once the entry is saved, its Delete (`prefix`-delete)
  // beside it: at the top of the entry, a screen away from Save, never under a thumb
  // that reaches for Save.
  function entryHead(prefix, m, onDelete) {
    var head = el("div", "entry-head");
    head.appendChild(el("h2", null, m.name));
    if (m.etag) {
      var del = button(t("delete_entry"), "quiet danger small", onDelete);
      del.id = prefix + "-delete";
      del.disabled = m.busy;
      head.appendChild(del);
    }
    return head;
  }

  // Who is entering: the table's players as buttons (`seat` ids: seatId(i)), and a field
  // to add one (the table's player, in every game), `prefix`-name and `prefix`-join.
  function whoIs(who, current, prefix, seatsId, seatId, pick, draft) {
    var known = tablePlayers();
    if (known.length) {
      who.appendChild(el("p", "help", t("who_are_you")));
      var seats = el("div", "names");
      if (seatsId) seats.id = seatsId;
      known.forEach(function (name, i) {
        var b = button(name, name === current ? "quiet on" : "quiet", function () { pick(name); });
        b.id = seatId(i);
        b.setAttribute("aria-pressed", name === current ? "true" : "false");
        seats.appendChild(seated(b, i));
      });
      who.appendChild(seats);
      who.appendChild(seatOrder(prefix));
    }
    var join = form("join", function () {
      var name = input.value.trim();
      if (!name || joining.busy) return;
      joining = { error: "", busy: true, draft: "" };
      render();
      request("POST", "players", { name: name })
        .then(function (a) {
          joining.busy = false;
          data.players = { players: a.players };
          pick(a.player);
        })
        .catch(function (e) { joining = { error: e.message, busy: false, draft: name }; render(); });
    });
    var label = el("label", "label", t(known.length ? "add_player" : "your_name"));
    var input = el("input", "name");
    input.id = prefix + "-name";
    input.maxLength = 40;
    input.autocomplete = "off";
    input.value = joining.draft || (known.length ? "" : draft);
    input.addEventListener("input", function () { joining.draft = input.value; });
    label.appendChild(input);
    join.appendChild(label);
    var go = submit(t("pick_name"), "primary");
    go.id = prefix + "-join";
    go.disabled = joining.busy;
    join.appendChild(go);
    who.appendChild(join);
    if (joining.error) who.appendChild(el("p", "error", t("error", { message: joining.error })));
  }

  // Her seat before her name (1 plays first), on every phone, in every game's picker.
  function seated(b, i) {
    var n = el("span", "seat", String(i + 1));
    n.setAttribute("aria-hidden", "true");  // her name stays the button's name; the seat
    b.title = t("seat_of", { n: i + 1, name: b.textContent });  // is its description
    b.insertBefore(n, b.firstChild);
    return b;
  }

  // The table's seat order: each player's seat, and a button moving her one seat earlier
  // (PUT players/seats, every phone told). Folded away until opened.
  function seatOrder(prefix) {
    var known = tablePlayers();
    var box = el("details", "seat-order");
    box.id = prefix + "-seat-order";
    box.open = seating.open;
    box.addEventListener("toggle", function () { seating.open = box.open; });
    box.appendChild(el("summary", null, t("seat_order")));
    box.appendChild(el("p", "help", t("seat_help")));
    var list = el("ol", "seat-list");
    known.forEach(function (name, i) {
      var li = el("li");
      li.appendChild(el("span", "seat", String(i + 1)));
      var shown = li.appendChild(el("span", "seat-name cut", name));
      shown.title = name;
      if (i > 0) {
        var up = button("\u2191", "quiet small", function () { moveSeat(i); });
        up.id = prefix + "-seat-up-" + i;
        up.setAttribute("aria-label", t("seat_earlier", { name: name }));
        up.disabled = seating.busy;
        li.appendChild(up);
      }
      if (((data.players && data.players.named) || []).indexOf(name) < 0) {
        var ren = button("\u270E", "quiet small", function () { changePlayer(name, true); });
        ren.id = prefix + "-seat-rename-" + i;
        ren.setAttribute("aria-label", t("rename_player", { name: name }));
        ren.disabled = seating.busy;
        li.appendChild(ren);
        var rem = button("\u2715", "quiet small danger", function () { changePlayer(name, false); });
        rem.id = prefix + "-seat-remove-" + i;
        rem.setAttribute("aria-label", t("remove_player", { name: name }));
        rem.disabled = seating.busy;
        li.appendChild(rem);
      }
      list.appendChild(li);
    });
    box.appendChild(list);
    if (seating.error) box.appendChild(el("p", "error", t("error", { message: seating.error })));
    return box;
  }

  function moveSeat(i) {
    var order = tablePlayers().slice();
    if (seating.busy || i < 1 || i >= order.length) return;
    var was = order[i - 1];
    order[i - 1] = order[i];
    order[i] = was;
    seating.busy = true;
    render();
    request("PUT", "players/seats", { seats: order })
      .then(function (a) { seating.busy = false; seating.error = ""; setPlayers(a); render(); })
      .catch(function (e) { seating.busy = false; seating.error = e.message; render(); });
  }

  function setPlayers(a) {
    data.players = Object.assign({ named: (data.players || {}).named || [] }, a);
  }

  // A player added by mistake (a typo): renamed or removed while she has no entry in an
  // open game (the table refuses otherwise, and says why); the table's link stays.
  function changePlayer(name, rename) {
    var body = null;
    if (rename) {
      var typed = window.prompt(t("rename_prompt", { name: name }), name);
      if (typed === null || !typed.trim() || typed.trim() === name) return;
      body = { name: typed };
    } else if (!window.confirm(t("remove_confirm", { name: name }))) {
      return;
    }
    seating.busy = true;
    render();
    request(rename ? "PUT" : "DELETE", "players/" + encodeURIComponent(name), rename ? body : undefined)
      .then(function (a) {
        seating.busy = false; seating.error = ""; setPlayers(a);
        if (me.name === name) me.name = a.player || "";
        render();
      })
      .catch(function (e) { seating.busy = false; seating.error = e.message; render(); });
  }

  function renderCovenia() {
    var main = clear(document.getElementById("game-covenia"));
    var d = data.covenia;
    var who = el("section", "panel");
    who.appendChild(el("h2", null, t("g_covenia")));
    whoIs(who, me.name, "covenia", "table-players", function (i) { return "seat-" + i; },
          startEntry, me.name);
    main.appendChild(who);

    if (me.name) {
      var edit = el("section", "panel entry");
      edit.id = "covenia-entry";
      edit.appendChild(entryHead("covenia", me, deleteEntry));
      var mark = changedLine(d && d.changed, me.name);
      if (mark) edit.appendChild(mark);
      if (me.older && me.dirty) edit.appendChild(olderNotice());
      edit.appendChild(el("p", "help", t("area")));
      CLANS.forEach(function (c) {
        edit.appendChild(el("h3", "clan clan-" + c, t("clan_" + c)));
        edit.appendChild(valueGrid("area", c));
      });
      edit.appendChild(el("p", "help", t(copies("hand") > 1 ? "hand_twice" : "hand")));
      CLANS.forEach(function (c) {
        edit.appendChild(el("h3", "clan clan-" + c, t("clan_" + c)));
        edit.appendChild(valueGrid("hand", c));
      });
      if (me.error) edit.appendChild(el("p", "error", t("error", { message: me.error })));
      edit.appendChild(entryActions("covenia", me, function (label, cls) {
        return button(label, cls, save);
      }));
      main.appendChild(edit);
    }

    var board = el("section", "panel");
    board.appendChild(el("h2", null, t("entries")));
    if (!d || !d.entries.length) board.appendChild(el("p", "help", t("no_entries")));
    else {
      var list = el("div", "names");
      list.id = "covenia-entries";
      var marks = el("ul", "changed-list");
      marks.id = "covenia-changed";
      d.entries.forEach(function (e, i) {
        var b = button(e.name, "quiet", function () { startEntry(e.name); });
        b.id = "entry-" + i;
        list.appendChild(b);
        var line = changedLine(d.changed, e.name);
        if (line) {
          var item = marks.appendChild(el("li"));
          item.appendChild(el("span", "cut", e.name)).title = e.name;
          item.appendChild(line);
        }
      });
      board.appendChild(list);
      if (marks.firstChild) board.appendChild(marks);
    }
    board.appendChild(deckChooser(d));
    if (d && d.score) {
      board.appendChild(totals("covenia-totals", d.score.players.map(function (p) {
        return [p.name, p.total];
      }), d.score.winners));
      board.appendChild(scrolling(scoreTable(d.score)));
      var w = d.score.winners;
      var line = named("p", "winner", t(w.length === 1 ? "winner" : "winners", { names: listing(w) }));
      line.id = "covenia-winner";
      board.appendChild(line);
      board.appendChild(explanations(d));
      var pdf = el("a", "link", t("pdf"));
      pdf.href = api + "covenia/scorebook.pdf?lang=" + lang();
      board.appendChild(pdf);
      var endIt = button(t("end_game"), "quiet danger", function () { end("covenia"); });
      endIt.id = "covenia-close";
      board.appendChild(el("div", "actions")).appendChild(endIt);
    } else if (d && d.problem && d.entries.length) {
      board.appendChild(el("p", "help", t("not_scored", { message: why(d) })));
    }
    main.appendChild(board);
  }

  // Every player's total, a line each in large figures: always whole on the narrowest
  // phone, however many players (the table of every figure below may need a swipe).
  function totals(id, rows, winners) {
    var list = el("ul", "totals");
    list.id = id;
    list.setAttribute("aria-label", t("row_total"));
    rows.forEach(function (r) {
      var item = el("li", winners.indexOf(r[0]) >= 0 ? "lead" : "");
      var who = item.appendChild(el("span", "who cut", r[0]));
      who.title = r[0];
      item.appendChild(el("span", "points", String(r[1])));
      list.appendChild(item);
    });
    return list;
  }

  // A table wider than the phone scrolls inside its own box, never the page. A corner
  // header left empty is no header (a screen reader would read it as one): a plain cell.
  function scrolling(table) {
    Array.prototype.forEach.call(table.querySelectorAll("th"), function (th) {
      if (!th.textContent) th.parentNode.replaceChild(el("td"), th);
    });
    var box = el("div", "table-scroll");
    box.tabIndex = 0;  // a keyboard can scroll it too
    box.appendChild(table);
    // Wider than the phone: a shade at its edge and a line say it scrolls (measured once
    // it is on the page).
    var wrap = el("div", "table-wrap");
    wrap.appendChild(box);
    var hint = wrap.appendChild(el("p", "scroll-hint", t("table_scrolls")));
    hint.hidden = true;
    window.requestAnimationFrame(function () {
      var over = box.scrollWidth > box.clientWidth + 1;
      box.classList.toggle("scrolls", over);
      hint.hidden = !over;
    });
    return wrap;
  }

  // A player's name heading a column: whole, or cut short with an ellipsis and shown
  // whole on a tap (never broken inside a word).
  function nameHead(name) {
    var th = el("th");
    var cut = th.appendChild(el("span", "cut", name));
    cut.title = name;
    return th;
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
  var FOLLOWS_WAIT = 1500;  // ms an answer saying "follows" waits for the update's figures

  function askExplained() {
    if (explained.pending || !explained.want) return;
    var wait = Math.max((explained.last || 0) + EXPLAINED_GAP, explained.want.after) -
      Date.now();
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
      // An older state's answer is kept only while nothing in its language is shown:
      // figures an update brought meanwhile are newer.
      if (explained.want === want || !explained.answer ||
          explained.key.slice(0, 2) !== want.lang) {
        explained.key = want.key; explained.answer = a;
      }
      if (explained.want === want) { explained.want = null; render(); } else askExplained();
    }).catch(function () {
      explained.pending = false;
      if (explained.want !== want) askExplained();  // else the next update asks again
    });
  }

  // The entries too: a card moved may change a figure's words, not its points.
  function stateOf(d) { return JSON.stringify([d.in_play, d.entries, d.score]); }

  // The figures an update carried for this state (both languages, each player's texts
  // by row; kept, so that a save's answer or a language change after it need not ask),
  // in the explained answer's shape; null if none came.
  function carried(d) {
    if (d.explained && typeof d.explained === "object") {
      brought = { state: stateOf(d), figures: d.explained };
    }
    var words = brought.state === stateOf(d) && brought.figures[lang()];
    if (!words || !d.score || words.texts.length !== d.score.players.length) return null;
    return {
      verdict: words.verdict,
      players: d.score.players.map(function (p, i) {
        var rows = {};
        Object.keys(words.texts[i]).forEach(function (row) {
          rows[row] = { points: p[row], text: words.texts[i][row] };
        });
        return { name: p.name, total: p.total, rank: p.rank, rows: rows };
      })
    };
  }

  // Every figure explained in the CLI's words: those the update carried, else (a state
  // read after a reconnect, a language it has no copy of) asked for when the entries or
  // the language change: one request at a time and at most four a second, however fast
  // the updates come (the last state is always asked for). A save's answer, or an
  // update of a burst, says "follows": the update on the stream brings the figures (the
  // last of a burst, in the same write); asked for only if they have not come by then.
  function explanations(d) {
    var box = el("div", "explained");
    box.id = "covenia-explained";
    var key = lang() + stateOf(d);
    var here = carried(d);
    if (here) {
      explained.key = key; explained.answer = here; explained.want = null;
    }
    var coming = d.explained === "follows" && window.tableSource &&
      window.tableSource.readyState === 1;
    if (explained.key !== key && (!explained.want || explained.want.key !== key)) {
      explained.want = { key: key, lang: lang(), after: coming ? Date.now() + FOLLOWS_WAIT : 0 };
      askExplained();
    }
    // Until the new answer comes, the last one in this language stays.
    if (!explained.answer || explained.key.slice(0, 2) !== lang()) return box;
    explained.answer.players.forEach(function (p) {
      var more = el("details", "proof");
      more.appendChild(el("summary", null, p.name + " · " + p.total));
      var list = el("ul", "steps");
      Object.keys(p.rows).forEach(function (row) {
        list.appendChild(named("li", null, t("explained_row", {
          row: t(row === "bonus" ? "row_bonus" : "clan_" + row),
          points: p.rows[row].points, text: p.rows[row].text })));
      });
      more.appendChild(list);
      box.appendChild(more);
    });
    return box;
  }

  function end(game) {
    closeLater(game, function () {
      request("POST", game + "/close", {}).then(function () { ended(game); resync(); })
        .catch(function (e) { window.alert(t("error", { message: e.message })); resync(); });
    });
  }

  // "End this game" waits a few seconds, counted down in a bar with an Undo, before the
  // table is asked to end it: a tap by mistake costs nothing. One game at a time.
  var END_UNDO_S = 6;
  var closing = null;  // { game, left, timer, then }

  function closeLater(game, then) {
    if (closing) return;
    closing = { game: game, left: END_UNDO_S, timer: null, then: then };
    countDown();
  }

  function countDown() {
    showClosing();
    closing.timer = setTimeout(function () {
      closing.left -= 1;
      if (closing.left > 0) { countDown(); return; }
      var c = closing;
      closing = null;
      showClosing();
      c.then();
    }, 1000);
  }

  function undoClose() {
    if (!closing) return;
    clearTimeout(closing.timer);
    closing = null;
    showClosing();
  }

  function showClosing() {
    var bar = document.getElementById("closing");
    if (!bar) {
      bar = document.body.appendChild(el("div", "closing"));
      bar.id = "closing";
      bar.setAttribute("role", "status");
    }
    clear(bar);
    bar.hidden = !closing;
    if (!closing) return;
    bar.appendChild(el("span", null, t("ending", { n: closing.left })));
    var undo = bar.appendChild(button(t("undo_end"), "primary", undoClose));
    undo.id = "closing-undo";
  }

  // A game ended (here or on another phone): what this phone was entering for it goes.
  function ended(game) {
    game = String(game).replace(/^games\//, "");  // a designer's game ends at games/ID
    if (game === "covenia" && me.name) {
      me.area = {}; me.hand = {}; me.etag = null; me.game = null; me.dirty = false;
      me.error = "";
    }
    if (game === "covenia") keep("draft:covenia", null);
    if (game === "coverta") { round = freshRound(); keep("draft:coverta", null); }
    if (OWN[game]) keep("draft:own:" + game, null);
    if (OWN[game] && mine[game]) {
      mine[game].values = {}; mine[game].etag = null; mine[game].game = null;
      mine[game].dirty = false; mine[game].error = "";
    }
    render();
  }

  // ---- Coverta -----------------------------------------------------------------------

  function freshRound() {
    return { key: null, error: "", busy: false, counts: {}, steal: "", number: null,
             there: null };
  }

  // The round typed and not added yet, kept on this phone across a reload until the
  // table has it (or has that round from another phone, or the game ends).
  var roundDraft = kept("draft:coverta");

  function keepRound() {
    keep("draft:coverta", { number: roundNumber(), counts: round.counts, steal: round.steal,
                            names: round.names === undefined ? null : round.names });
  }

  function followCoverta() {
    var k = roundDraft;
    roundDraft = null;  // once, when the page first reads the game
    if (!k) return;
    if (k.number !== roundsNow() + 1) { keep("draft:coverta", null); return; }
    round.counts = k.counts || {}; round.steal = k.steal || ""; round.number = k.number;
    if (typeof k.names === "string") round.names = k.names;
  }

  function roundsNow() {
    var d = data.coverta;
    return d && d.open ? d.score.rounds.length : 0;
  }

  // The number of the round this phone is entering: the next one when it starts typing,
  // kept while it types (another phone adding that round meanwhile makes this one's a
  // 409 showing the round there, never the same round twice).
  function roundNumber() {
    var typed = Object.keys(round.counts).some(function (p) { return round.counts[p]; });
    if (round.number === null || !typed) round.number = roundsNow() + 1;
    return round.number;
  }

  function addRound(players) {
    if (round.busy) return;
    var hands = {};
    players.forEach(function (p) {
      var n = String(round.counts[p] || "").trim();
      hands[p] = /^[0-9]{1,2}$/.test(n) ? parseInt(n, 10) : n;
    });
    var body = { round: roundNumber(), hands: hands, first_steal: round.steal || null };
    var sent = JSON.stringify(body);
    if (!round.key || round.sent !== sent) { round.key = newKey(); round.sent = sent; }
    round.busy = true; round.error = ""; round.there = null;
    render();
    request("POST", "coverta/rounds", body, { "Idempotency-Key": round.key })
      .then(function () {
        round = freshRound();
        keep("draft:coverta", null);  // the table has it
        return load("coverta");
      })
      .catch(function (e) {
        // A 409 is an answer (the round was added by another phone, or the round sent
        // with this key was undone since): the next tap is a new round, with a new key.
        if (e.status === 409) {
          keep("draft:coverta", null);
          round.key = null;
          round.number = null;
          round.there = e.body && e.body.there ? { n: body.round, hands: e.body.there.hands } : null;
          load("coverta");
        }
        round.busy = false; round.error = e.message; render();
      });
  }

  function undoRound(n) {
    if (!window.confirm(t("undo_round_confirm", { n: n }))) return;
    request("DELETE", "coverta/rounds/last?round=" + n)
      .then(function () { load("coverta"); })
      .catch(function (e) { round.error = e.message; load("coverta"); render(); });
  }

  function renderCoverta() {
    var main = clear(document.getElementById("game-coverta"));
    var d = data.coverta;
    var players = d && d.open ? d.players : null;
    var panel = el("section", "panel");
    panel.appendChild(el("h2", null, t("g_coverta")));
    var names = players;
    var f = form("round", function () { addRound(names); });
    f.id = "coverta-round";
    f.appendChild(el("h3", null, t("round_n", { n: roundNumber() })));
    if (!players) {
      var label = el("label", "label", t("players_names"));
      var who = el("input", "names-input");
      who.id = "coverta-players";
      who.autocomplete = "off";
      // The table's players in table order until someone writes others.
      if (round.names === undefined && tablePlayers().length) {
        who.value = tablePlayers().join(", ");
      } else who.value = round.names || "";
      who.addEventListener("input", function () { round.names = who.value; keepRound(); });
      // Enter here takes the names (a field per player appears); it sends nothing.
      who.addEventListener("keydown", function (e) {
        if (e.key === "Enter") { e.preventDefault(); who.blur(); }
      });
      // Redrawn after the change, not inside it: a change fired by the input's own removal
      // (a live redraw while it has the focus) must not redraw the page mid-redraw.
      who.addEventListener("change", function () { setTimeout(render, 0); });
      label.appendChild(who);
      f.appendChild(label);
      names = who.value.split(",").map(function (s) { return s.trim(); })
        .filter(function (s) { return s; });
    }
    names.forEach(function (p, i) {
      var label = el("label", "label", p + " · " + t("hand_count"));
      var n = el("input", "count");
      n.id = "coverta-count-" + i;
      n.inputMode = "numeric";
      n.autocomplete = "off";
      n.value = round.counts[p] || "";
      n.addEventListener("input", function () { round.counts[p] = n.value; keepRound(); });
      n.setAttribute("aria-label", p);
      label.appendChild(n);
      f.appendChild(label);
    });
    var steal = el("label", "label", t("first_steal"));
    var select = el("select");
    select.appendChild(el("option", null, t("nobody"))).value = "";
    names.forEach(function (p) { select.appendChild(el("option", null, p)).value = p; });
    select.id = "coverta-steal";
    select.value = names.indexOf(round.steal) >= 0 ? round.steal : "";
    select.addEventListener("change", function () { round.steal = select.value; keepRound(); });
    steal.appendChild(select);
    f.appendChild(steal);
    if (round.error) f.appendChild(el("p", "error", t("error", { message: round.error })));
    if (round.there) {
      var there = el("p", "notice", t("round_there", { n: round.there.n,
        hands: Object.keys(round.there.hands).map(function (p) {
          return p + " " + round.there.hands[p];
        }).join(" · ") }));
      there.id = "coverta-there";
      f.appendChild(there);
    }
    var add = submit(round.busy ? t("sending") : t("add_round"), "primary big");
    add.id = "coverta-add";
    add.disabled = round.busy || names.length < 2;
    f.appendChild(el("div", "actions")).appendChild(add);
    panel.appendChild(f);
    main.appendChild(panel);

    var board = el("section", "panel");
    if (!players) { board.appendChild(el("p", "help", t("no_rounds"))); main.appendChild(board); return; }
    var table = el("table", "scores");
    table.id = "coverta-rounds";
    var head = el("tr");
    head.appendChild(el("td"));  // the corner heads nothing
    players.forEach(function (p) { head.appendChild(nameHead(p)); });
    table.appendChild(head);
    d.score.rounds.forEach(function (r, i) {
      var tr = el("tr", round.there && round.there.n === i + 1 ? "there" : "");
      tr.appendChild(el("th", null, t("round_n", { n: i + 1 })));
      players.forEach(function (p) { tr.appendChild(el("td", null, String(r[p]))); });
      table.appendChild(tr);
    });
    var tot = el("tr", "total-row");
    tot.appendChild(el("th", null, t("row_total")));
    players.forEach(function (p) { tot.appendChild(el("td", null, String(d.score.totals[p]))); });
    table.appendChild(tot);
    board.appendChild(totals("coverta-totals", players.map(function (p) {
      return [p, d.score.totals[p]];
    }), d.score.winners));
    board.appendChild(scrolling(table));
    var lead = named("p", "winner", t("leader", { names: listing(d.score.winners) }));
    lead.id = "coverta-leader";
    board.appendChild(lead);
    var actions = el("div", "actions");
    var n = d.score.rounds.length;
    var undo = button(t("undo_round"), "quiet danger", function () { undoRound(n); });
    undo.id = "coverta-undo";
    actions.appendChild(undo);
    var endIt = button(t("end_game"), "quiet danger", function () { end("coverta"); });
    endIt.id = "coverta-close";
    actions.appendChild(endIt);
    board.appendChild(actions);
    main.appendChild(board);
  }

  // ---- Vengeance ---------------------------------------------------------------------

  function renderVengeance() {
    var main = clear(document.getElementById("game-vengeance"));
    var section = el("section", "panel");
    section.appendChild(el("h2", null, t("g_vengeance")));
    var fields = {};
    var panel = form("turn", resolve);
    section.appendChild(panel);
    ["herb", "mineral", "potion"].forEach(function (k) {
      var label = el("label", "label", t(k));
      var n = el("input", "count");
      n.inputMode = "numeric";
      n.autocomplete = "off";
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
      n.autocomplete = "off";
      n.value = turn[k] || "";
      n.id = "vengeance-" + k;
      n.addEventListener("input", function () { turn[k] = n.value; });
      n.setAttribute("aria-label", t(k));
      label.appendChild(n);
      panel.appendChild(label);
      fields[k] = n;
    });
    function resolve() {
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
        .then(function (a) { turn.answer = a; turn.asked = body; turn.error = ""; render(); })
        .catch(function (e) { turn.answer = null; turn.error = e.message; render(); });
    }
    var go = submit(t("resolve"), "primary big");
    go.id = "vengeance-resolve";
    panel.appendChild(el("div", "actions")).appendChild(go);
    panel = section;
    if (turn.error) panel.appendChild(el("p", "error", t("error", { message: turn.error })));
    if (turn.answer && turn.asked) {
      // What the turn shown was resolved from (on this phone or another: every phone
      // gets it on the live stream), then its answer.
      var asked = turn.asked;
      var from = el("p", "notice", t("turn_from", {
        counts: ["herb", "mineral", "potion"].map(function (k) {
          return t(k) + " " + asked[k];
        }).join(" · "),
        played: (asked.artifacts || []).concat(asked.incantations || []).join(" ") || "—" }));
      from.id = "vengeance-from";
      panel.appendChild(from);
    }
    if (turn.answer) {
      var steps = el("ol", "steps");
      turn.answer.order.forEach(function (s) {
        var key = s.kind === "incantation" ? "step_incantation"
          : s.discarded ? "step_discarded" : "step_removes_" + s.type;
        steps.appendChild(el("li", null, t(key, { number: s.number,
                                                   type: s.type ? t(s.type).toLowerCase() : "",
                                                   removed: s.removed })));
      });
      panel.appendChild(steps);
      var w = el("p", "winner", turn.answer.winner ? t("turn_winner", { type: t(turn.answer.winner) })
                                                    : t("turn_none"));
      w.id = "vengeance-winner";
      panel.appendChild(w);
    }
    main.appendChild(section);
  }

  // ---- a designer's own games (companion serve --game FILE) ---------------------------
  // Each player writes her figures per score category as `companion score FILE` reads a
  // scores file: a whole number, or a list of values (sum, lowest, highest), and with
  // [game] rounds = N one of those a round. The table scores them (rules/scoring.py) and
  // every phone shows the points, the totals, the CLI's words, the tie-break and the
  // winners; nothing is counted here. Her entry is kept as Covenia's is: the table's
  // copy, unless she changed it here and has not saved. While she types, the table is
  // scored with her unsaved figures (POST games/ID/preview, nothing saved) so that she
  // sees the majorities' places move before she saves.

  var OWN_GAP = 250;  // ms of quiet typing before the preview is asked for

  function ownMine(id) {
    if (!mine[id]) {
      mine[id] = { name: kept("player:" + id) || "", values: {}, etag: null, game: null,
                   dirty: false, error: "", busy: false,
                   ask: { want: null, sent: null, pending: false, timer: null },
                   preview: null, previewError: "" };
    }
    return mine[id];
  }

  function ownRounds(id) { return OWN[id].rounds || 1; }
  // A category's rounds: the game's, or 1 when it is scored once, at the end (rounds = 1).
  function catRounds(id, c) { return c.rounds || ownRounds(id); }

  // What she wrote in a category, as its fields show it: a text a round.
  function ownShown(c, v) {
    if (v === undefined || v === null) return "";
    return c.listed && Array.isArray(v) ? v.join(", ") : String(v);
  }

  // Her faction, where the game file lists [game] factions: a choice beside her numbers,
  // sent with her entry ("faction") and kept by the table (d.factions). `m.faction`
  // follows the table's, as her numbers do.
  function factionChoice(id, m) {
    var g = OWN[id];
    if (!g.factions || !g.factions.length) return null;
    var row = el("label", "label");
    row.appendChild(el("span", null, t("faction")));
    var pickIt = el("select", "faction");
    pickIt.id = "own-" + id + "-faction";
    pickIt.setAttribute("aria-label", t("faction"));  // not its chosen option's words too
    pickIt.appendChild(el("option", null, t("faction_none"))).value = "";
    g.factions.forEach(function (f) { pickIt.appendChild(el("option", null, f)).value = f; });
    pickIt.value = m.faction || "";
    pickIt.addEventListener("change", function () {
      m.faction = pickIt.value; m.dirty = true; m.error = "";
      ownKeep(id);
    });
    row.appendChild(pickIt);
    return row;
  }

  function factionTaken(id, m) {
    var d = data.own[id];
    m.faction = d && d.factions ? d.factions[m.name] || "" : "";
  }

  function ownTake(id) {
    var m = ownMine(id), d = data.own[id];
    var e = null;
    factionTaken(id, m);
    (d ? d.entries : []).forEach(function (x) { if (x.name === m.name) e = x; });
    m.values = {};
    OWN[id].categories.forEach(function (c) {
      if (!c.written) return;
      var v = e ? e[c.id] : undefined, n = catRounds(id, c);
      var each = [];
      for (var k = 0; k < n; k++) each.push(ownShown(c, n > 1 && Array.isArray(v) ? v[k] : v));
      m.values[c.id] = each;
    });
    m.etag = d && d.etags ? d.etags[m.name] || null : null;
    m.game = d ? d.id : null;
    m.dirty = false;
    m.preview = null; m.previewError = "";
    m.ask.want = null; m.ask.sent = null;
  }

  // What she typed and has not saved (her figures, her faction) is kept on this phone as
  // Covenia's taps are: a reload brings it back until the table has it or the game ends.
  function ownKeep(id) {
    var m = ownMine(id);
    keep("draft:own:" + id, { name: m.name, game: m.game, etag: m.etag,
                              values: m.values, faction: m.faction || "" });
  }

  function ownDraft(id) {
    var m = ownMine(id), k = kept("draft:own:" + id), d = data.own[id];
    if (!k || !d || k.name !== m.name || typeof k.values !== "object" || !k.values) return;
    if (k.game && k.game !== d.id) { keep("draft:own:" + id, null); return; }  // it ended
    OWN[id].categories.forEach(function (c) {
      var texts = k.values[c.id];
      if (c.written && Array.isArray(texts)) {
        m.values[c.id] = texts.map(function (x) { return typeof x === "string" ? x : ""; });
      }
    });
    if (typeof k.faction === "string") m.faction = k.faction;
    m.etag = k.etag || null;
    m.game = d.id;
    m.dirty = true;
    ownTyped(id);  // her preview, as she left it
  }

  function ownFollow(id) {
    var m = ownMine(id), d = data.own[id];
    if (!d || !m.name || m.busy) return;
    if (m.game && d.id !== m.game) { keep("draft:own:" + id, null); ownTake(id); }
    else if (!m.dirty) { ownTake(id); ownDraft(id); }
    else {
      if (!m.game) m.game = d.id;
      m.ask.sent = null; ownAsk(id);  // the others' figures changed: her preview too
    }
  }

  function ownStart(id, name) {
    var m = ownMine(id);
    m.name = name; m.error = ""; m.busy = false;
    ownTake(id);
    ownDraft(id);
    keep("player:" + id, name);
    render();
  }

  function ownHeaders(m) {
    var h = { "Idempotency-Key": newKey() };
    if (m.etag) h["If-Match"] = m.etag; else h["If-None-Match"] = "*";
    return h;
  }

  function ownFailed(id, e) {
    var m = ownMine(id);
    m.busy = false;
    if (e.status === 412 && e.body) {
      // Another phone saved (or deleted) her entry since: the table's entry is shown.
      keep("draft:own:" + id, null);
      loadOwn(id).then(function () { ownTake(id); m.etag = e.body.etag || null; render(); });
    }
    // Her figures, not cards: the refusal names what a designer's sheet holds.
    m.error = e.status === 412 ? t("own_entry_changed", { player: m.name }) : e.message;
    render();
  }

  // One field's text as the scores file has it: a whole number (else the text, refused
  // in words by the table), or for a list its values, split at commas or spaces.
  function ownNumber(s) {
    s = s.trim().replace(/\u2212/g, "-");
    return /^-?[0-9]{1,7}$/.test(s) ? parseInt(s, 10) : s;
  }

  function ownValue(c, text) {
    text = String(text || "").trim();
    if (c.listed) {
      return text.split(/[\s,;]+/).filter(function (s) { return s; }).map(ownNumber);
    }
    return text === "" ? null : ownNumber(text);
  }

  // Her entry's body: a category left blank is not sent (it counts 0, as in a scores
  // file); with rounds, a list of one a round, a blank round 0 (an empty list of values).
  function ownBody(id) {
    var m = ownMine(id), body = {};
    OWN[id].categories.forEach(function (c) {
      if (!c.written) return;
      var n = catRounds(id, c);
      var texts = m.values[c.id] || [];
      var blank = true;
      var each = [];
      for (var k = 0; k < n; k++) {
        var v = ownValue(c, texts[k]);
        if (v !== null && !(c.listed && !v.length)) blank = false;
        each.push(v === null ? 0 : v);
      }
      if (blank) return;
      body[c.id] = n > 1 ? each : each[0];
    });
    return body;
  }

  function ownSave(id) {
    var m = ownMine(id);
    if (m.busy) return;
    var body = ownBody(id);
    if (OWN[id].factions && OWN[id].factions.length) body.faction = m.faction || null;
    m.busy = true; m.error = "";
    request("PUT", "games/" + id + "/players/" + encodeURIComponent(m.name), body,
            ownHeaders(m))
      .then(function (d) {
        m.busy = false;
        data.own[id] = d;
        keep("draft:own:" + id, null);  // the table has it
        ownTake(id);
        m.etag = d.etag;
        render();
      })
      .catch(function (e) { ownFailed(id, e); });
    render();
  }

  function ownDelete(id) {
    var m = ownMine(id);
    if (m.busy || !window.confirm(t("own_delete_confirm", { name: m.name }))) return;
    m.busy = true; m.error = "";
    request("DELETE", "games/" + id + "/players/" + encodeURIComponent(m.name), undefined,
            ownHeaders(m))
      .then(function (d) {
        m.busy = false; data.own[id] = d; keep("draft:own:" + id, null); ownTake(id); render();
      })
      .catch(function (e) { ownFailed(id, e); });
    render();
  }

  // She typed: the table is asked to score her unsaved figures once she pauses
  // (OWN_GAP), one request at a time; what she typed meanwhile is asked for when the
  // answer comes, so the last state is always the one shown.
  function ownTyped(id) {
    var q = ownMine(id).ask;
    q.want = JSON.stringify(Object.assign({ name: ownMine(id).name }, ownBody(id)));
    if (q.timer) clearTimeout(q.timer);
    q.timer = setTimeout(function () { q.timer = null; ownAsk(id); }, OWN_GAP);
  }

  function ownAsk(id) {
    var m = ownMine(id), q = m.ask;
    if (q.pending || q.timer || !q.want || q.want === q.sent || !m.dirty) return;
    var want = q.want;
    q.pending = true; q.sent = want;
    request("POST", "games/" + id + "/preview", JSON.parse(want)).then(function (a) {
      q.pending = false;
      if (m.dirty && q.want === want) { m.preview = a; m.previewError = ""; render(); }
      ownAsk(id);
    }).catch(function (e) {
      q.pending = false;
      if (m.dirty && q.want === want) { m.preview = null; m.previewError = e.message; render(); }
      ownAsk(id);
    });
  }

  function loadOwn(id) {
    return request("GET", "games/" + id).then(function (d) {
      data.own[id] = d; ownFollow(id); render();
    }).catch(function () { /* the stream's reconnection will resync */ });
  }

  function ownRoundLabel(id, k) {
    return OWN[id].round[lang()].replace("{number}", String(k + 1));
  }

  // A category's fields: one, or one a round (R1, R2... as the printed pad heads them).
  function ownFields(id, m, c) {
    var n = catRounds(id, c);
    var box = el(n > 1 ? "fieldset" : "div", "own-cat");
    var title = c.name[lang()] + " (" + c.how[lang()] + ")";
    var hint = c.listed ? t("own_values") : "";
    if (n > 1) box.appendChild(el("legend", null, title));
    var row = el("div", n > 1 ? "own-rounds" : "");
    for (var k = 0; k < n; k++) {
      (function (k) {
        var label = el("label", "label");
        label.appendChild(el("span", null, n > 1 ? ownRoundLabel(id, k) : title));
        var input = el("input", c.listed ? "values-text" : "count");
        input.id = "own-" + id + "-" + c.id + (n > 1 ? "-" + (k + 1) : "");
        input.inputMode = c.listed || c.score === "points" ? "text" : "numeric";
        input.autocomplete = "off";
        if (n > 1) input.setAttribute("aria-label", c.name[lang()] + ", " + ownRoundLabel(id, k));
        if (hint) input.setAttribute("aria-describedby", input.id + "-hint");
        input.value = (m.values[c.id] || [])[k] || "";
        input.addEventListener("input", function () {
          if (!m.values[c.id]) m.values[c.id] = [];
          m.values[c.id][k] = input.value; m.dirty = true; m.error = "";
          ownKeep(id);
          ownTyped(id);
        });
        label.appendChild(input);
        row.appendChild(label);
      })(k);
    }
    box.appendChild(row);
    if (hint) {
      var h = el("p", "help", hint);
      h.id = "own-" + id + "-" + c.id + (n > 1 ? "-1" : "") + "-hint";
      box.appendChild(h);
      // Every round's field is described by the one hint.
      Array.prototype.forEach.call(box.querySelectorAll("input"), function (i) {
        i.setAttribute("aria-describedby", h.id);
      });
    }
    return box;
  }

  // The categories scored against the table (majorities, the most), a round at a time,
  // in the engine's words: each player's figure, place and points.
  function ownAtTable(id, d, cls, heading) {
    var live = OWN[id].categories.filter(function (c) {
      return d && d.explained && d.explained[lang()].table[c.id];
    });
    if (!live.length) return null;
    var box = el("div", cls);
    box.appendChild(el("h3", null, heading));
    live.forEach(function (c) {
      var n = catRounds(id, c);
      var rounds = d.explained[lang()].table[c.id];
      rounds.forEach(function (texts, k) {
        box.appendChild(el("h4", null, c.name[lang()] + (n > 1 ? ", " + ownRoundLabel(id, k) : "")));
        var list = el("ul", "steps");
        texts.forEach(function (text, i) {
          var li = named("li", null, t("own_said", { name: d.score.players[i].name, text: text }));
          li.setAttribute("data-player", d.score.players[i].name);
          list.appendChild(li);
        });
        box.appendChild(list);
      });
    });
    return box;
  }

  // Her unsaved figures scored at the table: the majorities' places and her total,
  // marked as not saved.
  function ownPreview(id, m) {
    var box = el("div", "own-preview");
    box.id = "own-" + id + "-preview";
    box.setAttribute("aria-live", "polite");
    // The last answer stays until the next comes: the box does not blink as she types.
    var p = m.dirty ? m.preview : null;
    if (m.dirty && m.previewError) {
      box.appendChild(el("p", "help", t("not_scored", { message: m.previewError })));
    }
    if (!p || !p.score) return box;
    box.className += " unsaved";
    var at = ownAtTable(id, p, "own-table", t("own_preview"));
    if (at) box.appendChild(at); else box.appendChild(el("h3", null, t("own_preview")));
    p.score.players.forEach(function (x) {
      if (x.name === m.name) {
        box.appendChild(el("p", "total", t("own_preview_total", { total: x.total })));
      }
    });
    return box;
  }

  // The score: a row per player (her name and her total), her points by category under
  // it, so that every total shows on the narrowest phone without scrolling sideways.
  function ownTable(id, score) {
    var table = el("table", "scores own-scores");
    table.id = "own-" + id + "-scores";
    var head = el("tr");
    [t("own_player"), t("row_total")].forEach(function (h) {
      var th = el("th", null, h);
      th.scope = "col";
      head.appendChild(th);
    });
    table.appendChild(el("thead")).appendChild(head);
    score.players.forEach(function (p) {
      var body = table.appendChild(el("tbody", score.winners.indexOf(p.name) >= 0 ? "won" : ""));
      var tr = el("tr", "who");
      var th = nameHead(p.name);
      th.scope = "row";
      tr.appendChild(th);
      tr.appendChild(el("td", "sum", String(p.total)));
      body.appendChild(tr);
      var cats = el("td", "cats");
      cats.colSpan = 2;
      var list = el("ul", "cat-points");
      list.setAttribute("aria-label", t("own_points_of", { name: p.name }));
      OWN[id].categories.forEach(function (c) {
        // The points kept on the line of their category's name.
        list.appendChild(el("li", c.total ? "" : "aside",
                            t("own_cat_points", { category: c.name[lang()],
                                                  points: p.points[c.id] })
                              .replace(/[ \u00a0]+(-?[0-9]+)$/, "\u00a0$1")));
      });
      cats.appendChild(list);
      body.appendChild(el("tr", "points")).appendChild(cats);
    });
    return table;
  }

  // Each player's figures in the CLI's words, one block each.
  function ownExplained(id, d) {
    var box = el("div", "explained");
    box.id = "own-" + id + "-explained";
    d.score.players.forEach(function (p, i) {
      var more = el("details", "proof");
      more.appendChild(el("summary", null, t("own_how", { name: p.name, total: p.total })));
      var list = el("ul", "steps");
      OWN[id].categories.forEach(function (c) {
        list.appendChild(named("li", null, t("explained_row", {
          row: c.name[lang()], points: p.points[c.id],
          text: d.explained[lang()].players[i][c.id] })));
      });
      more.appendChild(list);
      box.appendChild(more);
    });
    return box;
  }

  function renderOwn(id) {
    var g = OWN[id], m = ownMine(id), d = data.own[id];
    var main = clear(document.getElementById("game-" + id));
    var who = el("section", "panel");
    who.appendChild(el("h2", null, g.name[lang()]));
    who.appendChild(el("p", "help", t(g.wins === "lowest" ? "own_wins_lowest" : "own_wins_highest")));
    if (g.tiebreak.length) {
      who.appendChild(el("p", "help", elide(t("own_tiebreak", { categories: listing(g.tiebreak.map(function (x) {
        return g.categories.filter(function (c) { return c.id === x; })[0].name[lang()];
      })) }))));
    }
    if (g.rounds > 1) who.appendChild(el("p", "help", t("own_rounds", { rounds: g.rounds })));
    whoIs(who, m.name, "own-" + id, null, function (i) { return "own-" + id + "-seat-" + i; },
          function (name) { ownStart(id, name); }, "");
    main.appendChild(who);

    if (m.name) {
      var edit = form("panel entry", function () { ownSave(id); });
      edit.id = "own-" + id + "-entry";
      edit.appendChild(entryHead("own-" + id, m, function () { ownDelete(id); }));
      var stamp = changedLine(d && d.changed, m.name);
      if (stamp) edit.appendChild(stamp);
      edit.appendChild(el("p", "help", t("own_enter")));
      var faction = factionChoice(id, m);
      if (faction) edit.appendChild(faction);
      g.categories.forEach(function (c) {
        if (c.written) edit.appendChild(ownFields(id, m, c));
      });
      edit.appendChild(ownPreview(id, m));
      if (m.error) edit.appendChild(el("p", "error", t("error", { message: m.error })));
      edit.appendChild(entryActions("own-" + id, m, submit));
      main.appendChild(edit);
    }

    var board = el("section", "panel");
    board.appendChild(el("h2", null, t("entries")));
    if (!d || !d.entries.length) board.appendChild(el("p", "help", t("no_entries")));
    if (d && d.score) {
      board.appendChild(ownTable(id, d.score));
      var at = ownAtTable(id, d, "own-table", t("own_at_table"));
      if (at) { at.id = "own-" + id + "-table"; board.appendChild(at); }
      d.explained[lang()].tiebreak.forEach(function (text, i) {
        var tie = el("p", "tiebreak", text);
        tie.id = "own-" + id + "-tiebreak" + (i ? "-" + i : "");
        board.appendChild(tie);
      });
      var w = d.score.winners;
      var line = named("p", "winner", t(w.length === 1 ? "winner" : "winners", { names: listing(w) }));
      line.id = "own-" + id + "-winner";
      board.appendChild(line);
      board.appendChild(ownExplained(id, d));
      var endIt = button(t("end_game"), "quiet danger", function () { end("games/" + id); });
      endIt.id = "own-" + id + "-close";
      board.appendChild(el("div", "actions")).appendChild(endIt);
    } else if (d && d.problem && d.entries.length) {
      board.appendChild(el("p", "help", t("not_scored", { message: why(d) })));
    }
    main.appendChild(board);
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
      head.appendChild(el("span", "gname", gameName(g.game)));
      item.appendChild(head);
      item.appendChild(el("div", "help", g.players.map(function (p) {
        return p + " " + (g.scores[p] === undefined ? "" : g.scores[p]);
      }).join(" · ")));
      if (g.governor) item.appendChild(el("div", "help", t("governor_was", { name: g.governor })));
      if (g.winners.length) {
        item.appendChild(el("div", "winner small", t(g.winners.length === 1 ? "winner" : "winners",
                                                     { names: listing(g.winners) })));
      }
      var out = button(t("remove_game"), "quiet danger small", function () { removeGame(g); });
      out.id = "remove-game-" + g.id;
      item.appendChild(out);
      list.appendChild(item);
    });
    panel.appendChild(list);
    if (historyError) panel.appendChild(el("p", "error", t("error", { message: historyError })));
    main.appendChild(panel);
    var per = el("section", "panel");
    per.appendChild(el("h2", null, t("per_player")));
    var table = el("table", "scores");
    table.id = "per-player";
    Object.keys(d ? d.players : {}).forEach(function (name) {
      var p = d.players[name];
      var tr = el("tr");
      tr.appendChild(el("th", null, name));
      var cell = el("td");
      cell.appendChild(el("div", null, t("played_won", {
        played: counted("n_played", p.played), won: counted("n_won", p.won) })));
      // Her win rate in each game she played.
      Object.keys(p.games || {}).forEach(function (g) {
        var n = p.games[g];
        cell.appendChild(el("div", "rate", t("win_rate", {
          game: gameName(g), won: n.won, played: n.played,
          rate: Math.round(100 * n.won / n.played) })));
      });
      tr.appendChild(cell);
      table.appendChild(tr);
    });
    per.appendChild(scrolling(table));
    var csv = el("a", "link", t("csv"));
    csv.href = api + "history.csv";
    per.appendChild(csv);
    main.appendChild(per);
    renderSeatRates(main, d);
  }

  // Who wins from which seat in one game of the history, with the 95% intervals
  // (GET playtest?game=ID: the figures `companion playtest` reports), read again when
  // the game chosen or the history changes.
  var seatRates = { game: "", asked: "", data: null };

  function renderSeatRates(main, d) {
    var ids = [];
    (d ? d.games : []).forEach(function (g) {
      if (ids.indexOf(String(g.game)) < 0) ids.push(String(g.game));
    });
    if (!ids.length) return;
    if (ids.indexOf(seatRates.game) < 0) seatRates.game = String(d.games[d.games.length - 1].game);
    var panel = el("section", "panel");
    panel.id = "seat-rates";
    panel.appendChild(el("h2", null, t("seat_rates")));
    var label = el("label", "label", t("seat_rates_game"));
    var pick = el("select");
    pick.id = "seat-rates-game";
    ids.forEach(function (id) { pick.appendChild(el("option", null, gameName(id))).value = id; });
    pick.value = seatRates.game;
    pick.addEventListener("change", function () { seatRates.game = pick.value; render(); });
    label.appendChild(pick);
    panel.appendChild(label);
    var s = seatRates.data;
    if (s && s.game === seatRates.game) {
      var apart = {};
      s.findings.forEach(function (f) { if (f.kind === "seat") apart[f.seat] = f; });
      var list = el("ul");
      list.id = "seat-rates-list";
      Object.keys(s.seats).forEach(function (k) {
        var r = s.seats[k];
        var line = t("seat_rate", { seat: k, won: r.won, played: r.played, rate: pct(r.rate),
                                    low: pct(r.low), high: pct(r.high) });
        if (apart[k]) line = t("seat_apart", { text: line, even: pct(apart[k].even) });
        list.appendChild(el("li", apart[k] ? "winner small" : null, line));
      });
      if (!list.firstChild) list.appendChild(el("li", "rate", t("seat_rates_none")));
      panel.appendChild(list);
      // Its factions too, where its plays recorded any (as the report has them).
      var sides = Object.keys(s.factions || {});
      if (sides.length) {
        s.findings.forEach(function (f) { if (f.kind === "faction") apart["f:" + f.faction] = f; });
        panel.appendChild(el("h3", null, t("faction_rates")));
        var byFaction = el("ul");
        byFaction.id = "faction-rates-list";
        sides.forEach(function (k) {
          var r = s.factions[k], out = apart["f:" + k];
          var line = t("faction_rate", { faction: k, won: r.won, played: r.played,
                                         rate: pct(r.rate), low: pct(r.low), high: pct(r.high) });
          if (out) line = t("seat_apart", { text: line, even: pct(out.even) });
          byFaction.appendChild(el("li", out ? "winner small" : null, line));
        });
        panel.appendChild(byFaction);
      }
      // The figures are the latest version's (GET playtest judges it alone): said so.
      var v = s.version && s.version !== "all" ? s.version : "";
      panel.appendChild(el("p", "help", t((v ? "seat_rates_version_" : "seat_rates_") +
                                          (s.plays < 10 ? "few" : "more"),
                                          { plays: s.plays, version: v })));
    }
    main.appendChild(panel);
    var ask = seatRates.game + "#" + d.games.length + "#" + (d.games.length && d.games[d.games.length - 1].id);
    if (seatRates.asked !== ask) {
      seatRates.asked = ask;
      request("GET", "playtest?game=" + encodeURIComponent(seatRates.game))
        .then(function (answer) { seatRates.data = answer; render(); })
        .catch(function () { seatRates.asked = ""; });
    }
  }

  function pct(x) { return Math.round(100 * x); }

  // A game ended by mistake leaves the history (asked first).
  function removeGame(g) {
    if (!window.confirm(t("remove_game_confirm", { game: gameName(g.game), date: g.date.slice(0, 10) }))) return;
    request("DELETE", "history/" + g.id)
      .then(function () { historyError = ""; load("history"); })
      .catch(function (e) { historyError = e.message; load("history"); render(); });
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
      closeLater("lugvanion", function () {
        request("POST", "lugvanion/close", {})
          .then(function () { ending.error = ""; render(); resync(); })
          .catch(function (e) { ending.error = e.message; render(); });
      });
    });
    b.id = "lugvanion-close";
    box.appendChild(el("div", "actions")).appendChild(b);
    if (ending.error) box.appendChild(el("p", "error", t("error", { message: ending.error })));
  }

  function render() { shared.keepFocus(draw); }

  function draw() {
    renderPicker();
    if (current === "lugvanion") renderLugvanionEnd();
    if (current === "covenia") renderCovenia();
    if (current === "coverta") renderCoverta();
    if (current === "vengeance") renderVengeance();
    if (current === "history") renderHistory();
    if (OWN[current]) renderOwn(current);
  }

  function listen(source) {
    // The games are read once the stream is open: what changes after reaches the page
    // on it, and a reconnection reads them again.
    source.addEventListener("open", resync);
    // The stream may have opened while this script was still on its way (app.js opens it
    // first): then no "open" comes, and the games are read now.
    if (source.readyState === 1) resync();
    source.addEventListener("covenia", function (e) { got("covenia", JSON.parse(e.data)); });
    source.addEventListener("coverta", function (e) { got("coverta", JSON.parse(e.data)); });
    source.addEventListener("history", function (e) {
      var m = JSON.parse(e.data);
      if (m.closed) ended(m.closed.game);
      load("history");
    });
    source.addEventListener("players", function (e) {
      // an event may not carry what the table named at its start: kept from the last read
      data.players = Object.assign({ named: (data.players || {}).named || [] }, JSON.parse(e.data));
      render();
    });
    // A turn resolved on any phone is shown on every phone.
    source.addEventListener("vengeance", function (e) {
      var m = JSON.parse(e.data);
      turn.answer = m.answer; turn.asked = m.asked; turn.error = "";
      render();
    });
    source.addEventListener("own", function (e) {
      var d = JSON.parse(e.data);
      if (!OWN[d.game]) return;
      data.own[d.game] = d;
      ownFollow(d.game);
      render();
    });
    source.addEventListener("closed", function () { ending.error = ""; render(); });
  }

  // Each designer's game gets its page, before the history's.
  Object.keys(OWN).forEach(function (id) {
    var page = document.createElement("main");
    page.id = "game-" + id;
    page.hidden = true;
    document.body.insertBefore(page, document.getElementById("game-history"));
  });
  if (window.tableSource) listen(window.tableSource);
  document.addEventListener("table-source", function (e) { listen(e.detail); });
  document.addEventListener("table-lang", render);
  // Phones drop live streams when the screen locks: catch up when it wakes.
  document.addEventListener("visibilitychange", function () { if (!document.hidden) resync(); });
  render();
})();
