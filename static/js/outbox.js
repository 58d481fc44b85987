/* efuda's outbox on an entry page: a deal saved at the table is never lost, never counted
   twice, and never sent or shown as anyone's but its author's.

   The logic (items, their states and authors, sending) is static/js/outbox-core.js, a plain
   module tested in Node (tests/js/); this file joins it to the page:

   - Save: the deal is kept on the phone (IndexedDB) under its form's id and its author (the
     page's data-author: who the page was served to), then sent with the header
     "X-Efuda-Outbox: live". Recorded: the next entry form opens. Refused: the form shows
     efuda's messages beside the fields, and nothing stays in the outbox. No connection, a
     timeout, a server that is down, an expired login: the deal waits ("未送信 n件"), the form
     is cleared for the next deal. A Save of an untouched form is never kept (a double tap).
   - Waiting deals are sent, oldest first, on the "online" event, on page load, when the page
     becomes visible and every 15 s while something waits. One tab sends at a time.
   - "Needs attention": deals efuda refused when they were sent from the outbox (its messages
     stored as codes, shown in the reader's language), or that efuda found already recorded in
     the same form since (a deal with the same content: both are shown, the scorekeeper says
     "send anyway" or "already recorded: discard").
   - A draft of the form being filled in is kept per person and page, so a reload keeps the
     taps; dropped once the deal is saved or discarded.
   - Logging out goes through the logout page (static/js/logout.js), which asks what to do
     with waiting deals; a tab of the person who logged out reloads.

   Markup: #outbox (templates/components/outbox.html) outside the entry form holds the
   addresses and the texts (data-*). The form is static/js/entry.js's (form[data-live-url]);
   its hooks "efuda:form-reset" and "efuda:form-loaded" are used. No inline code. */

const FORM = window.efudaEntry ? window.efudaEntry.FORM : "form[data-live-url]"; // entry.js's
const RETRY = 15000; // ms between attempts while deals wait
const DRAFT_DELAY = 300; // ms after the last change before the draft is written

const box = document.getElementById("outbox");
if (box && window.indexedDB && window.fetch) {
  import(box.dataset.core).then(start, () => null);
}

function start(core) {
  const cfg = box.dataset;
  const author = cfg.author || "";
  const page = cfg.page;
  const channel = window.BroadcastChannel ? new BroadcastChannel("efuda-outbox") : null;
  const kv = window.localStorage;
  const transport = core.fetchTransport({
    fetch: window.fetch.bind(window), tokenUrl: cfg.tokenUrl,
    timeout: parseInt(cfg.timeout || "15000", 10)
  });
  const outbox = core.createOutbox({
    store: core.indexedDbStore(window.indexedDB),
    transport,
    lock: core.webLock(navigator.locks),
    onChange: () => { if (channel) channel.postMessage({ changed: true }); }
  });

  const badge = box.querySelector("[data-outbox=badge]");
  const status = box.querySelector("[data-outbox=status]");
  const login = box.querySelector("[data-outbox=login]");
  const attention = box.querySelector("[data-outbox=attention]");
  const list = attention.querySelector("ul");
  const reopened = box.querySelector("[data-outbox=reopened]");
  let stopped = null; // why the last round of sending stopped early
  let initialForm = null;
  let pristine = null; // the form's state as served or cleared: nothing entered yet
  const texts = new Map(); // a stored problem → its text in this page's language

  function text(key, values) {
    let t = cfg["t" + key[0].toUpperCase() + key.slice(1)] || key;
    for (const [name, value] of Object.entries(values || {})) {
      t = t.split("{" + name + "}").join(String(value));
    }
    return t;
  }

  function entryForm() {
    return document.querySelector(FORM);
  }

  function idField(form) {
    return form ? form.querySelector("input[name=client_id]") : null;
  }

  // ---- Ids --------------------------------------------------------------------------------

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return [h.slice(0, 8), h.slice(8, 12), h.slice(12, 16), h.slice(16, 20), h.slice(20)].join("-");
  }

  const USED = "efuda-outbox-used";

  function usedIds() {
    try {
      return JSON.parse(kv.getItem(USED) || "[]");
    } catch (e) {
      return [];
    }
  }

  function markUsed(id) {
    const ids = usedIds().filter((x) => x !== id);
    ids.push(id);
    try {
      kv.setItem(USED, JSON.stringify(ids.slice(-500)));
    } catch (e) { /* private mode: the outbox itself still knows its ids */ }
  }

  // ---- What the form holds ----------------------------------------------------------------

  /* Every field Save sends (bar the CSRF token and a name being typed), as [name, value]. */
  function body(form, submitter) {
    const data = new FormData(form, submitter);
    data.delete("csrfmiddlewaretoken");
    data.delete("new_player");
    data.delete("action");
    return Array.from(data.entries()).filter((pair) => typeof pair[1] === "string");
  }

  function stateOf(form) {
    return new URLSearchParams(body(form).filter((pair) => pair[0] !== "client_id")).toString();
  }

  /* What the deal looks like in the list: the faces of the tapped buttons as shown (the
     words only a screen reader hears are left out), then the finishing order. */
  function summary(form) {
    const parts = [];
    form.querySelectorAll("label.tap input:checked").forEach((input) => {
      if (input.name === "seats") return;
      const face = input.nextElementSibling;
      if (!face) return;
      const shown = face.cloneNode(true);
      shown.querySelectorAll(".sr-only, .n, .note").forEach((n) => n.remove());
      const label = shown.textContent.trim();
      if (label && parts.indexOf(label) < 0) parts.push(label);
    });
    form.querySelectorAll("input[type=number]").forEach((input) => {
      if (input.value !== "") parts.push(input.value);
    });
    const order = Array.from(form.querySelectorAll("ol.order-list li:not(.empty) bdi"))
      .map((b) => b.textContent.trim());
    if (order.length) parts.push(order.join(" → "));
    return parts.join(" ").slice(0, 120);
  }

  function timeOf(ms) {
    return new Date(ms).toLocaleTimeString(document.documentElement.lang || [], {
      hour: "2-digit", minute: "2-digit"
    });
  }

  // ---- The badge, the status line, the prompts, the attention list ------------------------

  function say(message) {
    status.textContent = message || "";
    status.hidden = !message;
  }

  /* The stored problems rendered by efuda in this page's language (one request for all);
     without a connection, the message as efuda first wrote it (English). */
  async function renderTexts(problems) {
    const lang = document.documentElement.lang;
    const wanted = problems.filter((p) => !texts.has(lang + JSON.stringify(p)));
    if (wanted.length && cfg.textsUrl) {
      try {
        const token = await transport.freshToken();
        const response = await fetch(cfg.textsUrl, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": token || "" },
          body: JSON.stringify({ problems: wanted })
        });
        const reply = await response.json();
        wanted.forEach((p, i) => texts.set(lang + JSON.stringify(p), reply.texts[i]));
      } catch (e) {
        /* offline: below */
      }
    }
    return problems.map((p) => texts.get(lang + JSON.stringify(p)) || plain(p));
  }

  function plain(problem) {
    let message = (problem.message && (problem.message.msgid || problem.message.text)) || "";
    for (const [name, value] of Object.entries(problem.params || {})) {
      message = message.split("%(" + name + ")s").join(String(value)).split("%(" + name + ")d").join(String(value));
    }
    return message;
  }

  async function render() {
    const own = await outbox.items(author);
    const orphans = author ? await outbox.unclaimed() : [];
    const waiting = own.filter((r) => r.state === core.WAITING);
    const refused = own.filter((r) => r.state === core.ATTENTION).concat(orphans);
    badge.textContent = text("waiting", { n: waiting.length });
    badge.hidden = waiting.length === 0;
    box.classList.toggle("has-waiting", waiting.length > 0);
    login.hidden = !((stopped === "login" || stopped === "author") && (waiting.length || refused.length));
    login.querySelector("[data-outbox=login-why]").textContent =
      stopped === "author" ? text("author") : text("login");
    const problems = [];
    refused.forEach((r) => { (r.problems || []).forEach((p) => problems.push(p)); });
    const rendered = await renderTexts(problems);
    let at = 0;
    const nodes = refused.map((r) => {
      const mine = rendered.slice(at, at + (r.problems || []).length);
      at += (r.problems || []).length;
      return item(r, mine);
    });
    list.replaceChildren(...nodes);
    attention.hidden = refused.length === 0;
    box.hidden = !(waiting.length || refused.length || !status.hidden || !reopened.hidden ||
      !login.hidden);
    return own;
  }

  function paragraph(className, content) {
    const p = document.createElement("p");
    p.className = className;
    p.textContent = content;
    return p;
  }

  function button(label, action, id) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.dataset.outboxAction = action;
    b.dataset.id = id;
    return b;
  }

  function item(record, messages) {
    const li = document.createElement("li");
    li.dataset.id = record.id;
    li.append(paragraph("outbox-what", timeOf(record.created) + " " + (record.summary || "")));
    const actions = document.createElement("p");
    actions.className = "row";
    if (!record.author) {
      messages.forEach((m) => li.append(paragraph("outbox-why", m)));
      actions.append(button(text("claim"), "claim", record.id));
    } else if (record.similar) {
      li.append(paragraph("outbox-why", text("similar")));
      li.append(paragraph("outbox-mine", text("mine", { points: record.mine })));
      record.similar.forEach((s) => {
        li.append(paragraph("outbox-theirs", text("theirs", s)));
      });
      actions.append(button(text("sendAnyway"), "send-anyway", record.id));
      actions.append(button(text("alreadyRecorded"), "already", record.id));
    } else {
      messages.forEach((m) => li.append(paragraph("outbox-why", m)));
      if (record.page === page) {
        actions.append(button(text("correct"), "correct", record.id));
      } else {
        const a = document.createElement("a");
        a.href = record.page;
        a.textContent = text("otherPage");
        actions.append(a);
      }
    }
    if (!record.similar) actions.append(button(text("discard"), "discard", record.id));
    li.append(actions);
    return li;
  }

  // ---- Sending ----------------------------------------------------------------------------

  let backoff = 1000; // ms: a server that answered with an error is asked again soon, then less
  let soonTimer = 0;
  let chain = Promise.resolve();
  let queued = false; // a background round is already waiting its turn
  let lastSent = 0; // how many the last round that sent something sent (its status stays)

  function soon() {
    clearTimeout(soonTimer);
    soonTimer = setTimeout(() => flush(), backoff);
    backoff = Math.min(backoff * 2, RETRY);
  }

  /* Send what waits for this page's author, one round after the other in this tab (the
     core's lock keeps other tabs out). Resolves to the core's {outcome, sent, stop}. */
  function flush(liveId) {
    if (!author) return Promise.resolve({ outcome: {}, sent: 0, stop: null });
    if (!liveId && queued) return chain;
    if (!liveId) queued = true;
    const round = chain.then(() => {
      if (!liveId) queued = false;
      return send(liveId);
    });
    chain = round.catch(() => null);
    return round;
  }

  async function send(liveId) {
    const others = (await outbox.items(author)).some((r) => r.state === core.WAITING && r.id !== liveId);
    if (others) say(text("sending"));
    let result;
    try {
      result = await outbox.flush(author, liveId);
    } catch (e) {
      result = { outcome: {}, sent: 0, stop: "server" };
    }
    stopped = result.stop;
    if (result.stop === "author") checkWho();
    if (result.stop === "server" || (result.stop === "offline" && navigator.onLine)) soon();
    else backoff = 1000;
    const waiting = (await outbox.items(author)).filter((r) => r.state === core.WAITING).length;
    const live = liveId ? result.outcome[liveId] : undefined;
    if (!live || live.kind !== "sent") {
      if (result.stop === "login") say(text("login"));
      else if (result.stop === "author") say(text("author"));
      else if (result.sent && !waiting) say(text("sent", { n: result.sent }));
      else if (waiting) say(text("kept"));
      else if (status.textContent !== text("sent", { n: lastSent })) say(""); // keep "sent"
    }
    if (result.sent) lastSent = result.sent;
    await render();
    const background = Object.keys(result.outcome).some((id) => id !== liveId &&
      result.outcome[id].kind === "sent");
    if (background) refreshLists();
    return result;
  }

  /* Deals sent in the background are now on the server: show them in the page's lists
     (the running totals, a table's deals) without touching the form being filled in. */
  async function refreshLists() {
    const regions = document.querySelectorAll("[data-outbox-refresh][id]");
    if (!regions.length) return;
    try {
      const response = await fetch(location.href, { cache: "no-store", credentials: "same-origin" });
      if (!response.ok) return;
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
      regions.forEach((region) => {
        const twin = fresh.getElementById(region.id);
        if (twin) region.replaceWith(document.adoptNode(twin));
      });
    } catch (e) {
      /* offline again: the lists catch up with the next page load */
    }
  }

  // ---- The form: next deal, server-rendered form, drafts -----------------------------------

  /* The form as the page first showed it, with a new id: the next deal. */
  function nextDeal(form) {
    if (initialForm !== null) form.innerHTML = initialForm;
    idField(form).value = newId();
    delete form.dataset.editing;
    reopened.hidden = true;
    pristine = stateOf(form);
    form.dispatchEvent(new CustomEvent("efuda:form-reset", { bubbles: true }));
  }

  /* Put a form the server rendered (errors beside the fields, or a draft) into ours. */
  function replaceForm(form, html) {
    const holder = document.createElement("template");
    holder.innerHTML = html;
    const fresh = holder.content.querySelector("#deal-form") || holder.content.querySelector("form");
    if (!fresh) return false;
    form.replaceChildren(...fresh.childNodes);
    return true;
  }

  /* Ask the server to render the form from kept values: action "preview" shows the problems
     beside their fields, "live" the form in progress. Never saves. */
  async function loadForm(form, values, action) {
    const data = new URLSearchParams(values);
    data.set("action", action);
    const token = await transport.freshToken();
    if (token === null) return false;
    try {
      const response = await fetch(cfg.reopenUrl || form.getAttribute("data-live-url"), {
        method: "POST", body: data, credentials: "same-origin",
        headers: { "X-CSRFToken": token }
      });
      return response.ok || response.status === 400 ? replaceForm(form, await response.text()) : false;
    } catch (e) {
      return false;
    }
  }

  /* Without a connection a draft is put back by hand: each kept value into its control. */
  function applyValues(form, values) {
    form.querySelectorAll("input[type=checkbox], input[type=radio]").forEach((input) => {
      input.checked = values.some((pair) => pair[0] === input.name && pair[1] === input.value);
    });
    const byName = {};
    values.forEach((pair) => { (byName[pair[0]] = byName[pair[0]] || []).push(pair[1]); });
    form.querySelectorAll("input[type=number], input[type=text], select").forEach((field) => {
      const kept = byName[field.name];
      if (kept && kept.length) field.value = kept.shift();
    });
    const seats = values.filter((pair) => pair[0] === "seats").map((pair) => pair[1]);
    if (seats.length) form.setAttribute("data-tap-order", seats.join(","));
  }

  let draftTimer = 0;

  function keepDraft() {
    clearTimeout(draftTimer);
    draftTimer = setTimeout(() => {
      const form = entryForm();
      if (!form || !author || !idField(form)) return;
      if (stateOf(form) === pristine && !form.dataset.editing) {
        core.draftDrop(kv, author, page, idField(form).value);
        return;
      }
      core.draftSave(kv, author, page, idField(form).value, body(form), Date.now());
    }, DRAFT_DELAY);
  }

  /* The newest draft of this person on this page comes back into the form; drafts of forms
     saved meanwhile are dropped. */
  async function restoreDraft(form) {
    if (!author) return;
    const kept = (await outbox.items(author)).map((r) => r.id);
    let draft = core.draftLoad(kv, author, page);
    while (draft && (usedIds().indexOf(draft.id) >= 0 || kept.indexOf(draft.id) >= 0)) {
      core.draftDrop(kv, author, page, draft.id);
      draft = core.draftLoad(kv, author, page);
    }
    if (!draft) return;
    const values = draft.body.filter((pair) => pair[0] !== "client_id");
    if (!(await loadForm(form, values, "live"))) {
      applyValues(form, values);
      form.dispatchEvent(new CustomEvent("efuda:form-reset", { bubbles: true }));
    } else {
      form.dispatchEvent(new CustomEvent("efuda:form-loaded", { bubbles: true }));
      window.efudaEntry.preview(form);
    }
    idField(form).value = draft.id;
  }

  // ---- Save -------------------------------------------------------------------------------

  async function save(form, submitter) {
    const values = body(form, submitter);
    let id = idField(form).value;
    if (!id) {
      id = newId();
      idField(form).value = id;
    }
    values.forEach((pair) => { if (pair[0] === "client_id") pair[1] = id; });
    values.push(["action", "save"]);
    const url = form.getAttribute("action");
    if (stateOf(form) === pristine && !form.dataset.editing) {
      // Nothing entered yet (a second tap after the form was cleared): never kept. Online,
      // efuda says what is missing beside the fields.
      const result = await transport.begin()
        ? await transport.send({ id, author, url, body: values, refusals: 0 }, { live: true })
        : { kind: "offline" };
      if (result.kind === "refused" && result.reply.form && replaceForm(form, result.reply.form)) {
        form.dispatchEvent(new CustomEvent("efuda:form-loaded", { bubbles: true }));
      } else if (result.kind === "sent") {
        window.location.replace(result.reply.next || page);
      } else {
        say(text("nothing"));
        form.dispatchEvent(new CustomEvent("efuda:form-reset", { bubbles: true }));
      }
      return;
    }
    const editing = form.dataset.editing;
    await outbox.save({ id, author, page, url, body: values, summary: summary(form) });
    say("");
    const result = await flush(id);
    const outcome = result.outcome[id];
    if (outcome && outcome.kind === "sent") {
      markUsed(id);
      core.draftDrop(kv, author, page, id);
      window.location.replace(outcome.reply.next || page);
      return;
    }
    if (outcome && outcome.kind === "refused") {
      // Back into its form with efuda's messages beside the fields; not in the outbox.
      if (outcome.reply.form && replaceForm(form, outcome.reply.form)) {
        idField(form).value = id;
        if (editing) form.dataset.editing = editing;
        form.dispatchEvent(new CustomEvent("efuda:form-loaded", { bubbles: true }));
      }
      keepDraft();
      await render();
      return;
    }
    markUsed(id);
    const kept = (await outbox.items(author)).find((r) => r.id === id);
    if (!kept && !outcome) { // sent meanwhile by another tab
      core.draftDrop(kv, author, page, id);
      window.location.replace(page);
      return;
    }
    core.draftDrop(kv, author, page, id);
    nextDeal(form);
    await render();
  }

  document.addEventListener("submit", (event) => {
    const form = event.target.closest && event.target.closest(FORM);
    if (!form || !idField(form) || !author) return;
    if (!event.submitter || event.submitter.value !== "save" || event.defaultPrevented) return;
    event.preventDefault();
    save(form, event.submitter).catch(() => {
      // IndexedDB failed (a full disk, a private window): post as the page did before.
      const action = document.createElement("input");
      action.type = "hidden";
      action.name = "action";
      action.value = "save";
      form.appendChild(action);
      form.submit();
    });
  }, true);

  ["input", "change", "click"].forEach((type) => {
    document.addEventListener(type, (event) => {
      if (event.target.closest && event.target.closest(FORM)) keepDraft();
    });
  });

  // ---- The attention list -----------------------------------------------------------------

  /* Open a refused deal in the form (rendered by the server, its problems beside their
     fields); Save sends it again with the same id. */
  async function reopen(id) {
    const form = entryForm();
    const record = await outbox.correct(id, author);
    if (!record || !form) return;
    if (!(await loadForm(form, record.body.filter((pair) => pair[0] !== "action"), "preview"))) {
      await outbox.release(author, id); // offline: back in the list; works once online
      say(text("offlineCorrect"));
      await render();
      return;
    }
    idField(form).value = record.id;
    form.dataset.editing = record.id;
    reopened.querySelector("[data-outbox=reopened-what]").textContent =
      text("reopened", { time: timeOf(record.created) });
    reopened.hidden = false;
    say("");
    await render();
    reopened.scrollIntoView({ block: "start" });
    form.dispatchEvent(new CustomEvent("efuda:form-loaded", { bubbles: true }));
  }

  box.addEventListener("click", async (event) => {
    const b = event.target.closest("[data-outbox-action]");
    if (!b) return;
    const id = b.dataset.id;
    const action = b.dataset.outboxAction;
    const form = entryForm();
    if (action === "correct") {
      await reopen(id);
    } else if (action === "discard" || action === "discard-open") {
      if (!window.confirm(text("discardConfirm"))) return;
      const gone = action === "discard-open" && form ? form.dataset.editing : id;
      await outbox.discard(gone, author);
      if (form && idField(form).value === gone) nextDeal(form);
      await render();
    } else if (action === "already") {
      await outbox.discard(id, author); // the deal efuda has is this one: nothing to send
      say(text("discarded"));
      await render();
    } else if (action === "send-anyway") {
      await outbox.resend(id, author, { duplicateOk: true });
      await flush();
    } else if (action === "claim") {
      await outbox.claim(id, author);
      await flush();
    }
  });

  // ---- Leaving a tournament table (forgetting the PIN) --------------------------------------

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.matches || !form.matches("form[data-pin-leave]") || form.dataset.confirmed) return;
    event.preventDefault();
    const n = await outbox.counts(author);
    const waiting = n.waiting + n.attention + n.editing;
    if (waiting && !window.confirm(text("leaveConfirm", { n: waiting }))) return;
    core.draftsForget(kv, author);
    if (channel) channel.postMessage({ logout: author });
    form.dataset.confirmed = "1";
    form.submit();
  });

  // ---- Start ------------------------------------------------------------------------------

  async function begin() {
    const form = entryForm();
    if (form) {
      initialForm = form.innerHTML;
      const field = idField(form);
      // A page opened from the phone's cache carries an id that may be used already.
      if (field && (!field.value || usedIds().indexOf(field.value) >= 0)) field.value = newId();
      if (field && (await outbox.items(author)).some((r) => r.id === field.value)) field.value = newId();
      pristine = stateOf(form);
      await restoreDraft(form);
    }
    await outbox.release(author);
    await render();
    flush();
  }

  /* Someone else logged in on this phone since this page was served (a login that expired,
     then another person's): the page reloads as theirs. Its entries stay for its author. */
  async function checkWho() {
    if (!author) return;
    try {
      const response = await fetch(cfg.tokenUrl, { cache: "no-store", credentials: "same-origin" });
      const who = (await response.json()).who;
      if (typeof who === "string" && who && who.split(" ").indexOf(author) < 0) {
        window.location.reload();
      }
    } catch (e) {
      /* offline: nobody else can have logged in from here meanwhile */
    }
  }

  window.addEventListener("online", () => flush());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    checkWho();
    flush();
  });
  setInterval(() => {
    outbox.items(author).then((records) => {
      if (records.some((r) => r.state === core.WAITING)) flush();
    });
  }, RETRY);
  if (channel) {
    channel.onmessage = (event) => {
      const data = event.data || {};
      if (data.logout && data.logout === author) window.location.reload(); // not this person's any more
      else render();
    };
  }
  if ("serviceWorker" in navigator && cfg.sw) {
    navigator.serviceWorker.register(cfg.sw, { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then((registration) => {
        if (registration.active) registration.active.postMessage({ keep: page });
      })
      .catch(() => null);
  }
  begin();
}
