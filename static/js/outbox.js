/* efuda's outbox: a deal saved at the table is never lost and never counted twice.

   Every Save of a new deal is first kept on the phone (IndexedDB, with the id its form was shown
   with: client_id), then sent. The server records a deal once per id (a repeat is answered
   "already recorded"), so sending again is always safe.

   - Sent and recorded: the deal leaves the outbox; a deal just saved opens the next entry form
     (as the page did before), one sent in the background is counted as sent.
   - No connection, a timeout, a server that is down: the deal stays, the badge 「未送信 n件」 says
     how many wait, and the form is cleared for the next deal (with a new id). Waiting deals are
     sent in the order they were saved when the connection returns: on the "online" event, on
     page load, when the page becomes visible again and every 15 s while something waits.
   - Refused (the server's message): the deal moves to "needs attention", where it can be opened
     in the form again with that message, corrected and saved (with the same id), or discarded.
   - Logged out / PIN expired / CSRF token stale: the deal stays and the page asks to log in
     again; a fresh CSRF token is fetched before every round of sending (/outbox/token/).
   - One tab sends at a time (navigator.locks); the others follow through a BroadcastChannel.

   Markup: the element #outbox (templates/components/outbox.html) outside the entry form holds
   the addresses and the texts (data-*). The form is static/js/entry.js's (form[data-live-url]);
   this script uses its hooks "efuda:form-reset" and "efuda:form-loaded". No inline code. */
(function () {
  "use strict";

  const FORM = "form[data-live-url]";
  const box = document.getElementById("outbox");
  if (!box || !window.indexedDB || !window.fetch) return; // the form posts as it always did

  const cfg = box.dataset;
  const TIMEOUT = parseInt(cfg.timeout || "15000", 10); // ms before a send counts as failed
  const RETRY = 15000; // ms between attempts while deals wait
  const DB_NAME = "efuda-outbox";
  const STORE = "deals";
  const USED = "efuda-outbox-used";
  const channel = window.BroadcastChannel ? new BroadcastChannel("efuda-outbox") : null;

  function text(key, n) {
    return (cfg["t" + key[0].toUpperCase() + key.slice(1)] || key).replace("{n}", String(n));
  }

  function entryForm() {
    return document.querySelector(FORM);
  }

  // ---- Ids --------------------------------------------------------------------------------

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" +
      h.slice(16, 20) + "-" + h.slice(20);
  }

  function usedIds() {
    try {
      return JSON.parse(localStorage.getItem(USED) || "[]");
    } catch (e) {
      return [];
    }
  }

  function markUsed(id) {
    const ids = usedIds().filter((x) => x !== id);
    ids.push(id);
    try {
      localStorage.setItem(USED, JSON.stringify(ids.slice(-500)));
    } catch (e) { /* private mode: the outbox itself still knows its ids */ }
  }

  function idField(form) {
    return form.querySelector("input[name=client_id]");
  }

  // ---- IndexedDB (plain) ------------------------------------------------------------------

  let dbPromise = null;

  function db() {
    if (!dbPromise) {
      dbPromise = new Promise((resolve, reject) => {
        const open = indexedDB.open(DB_NAME, 1);
        open.onupgradeneeded = () => {
          open.result.createObjectStore(STORE, { keyPath: "id" }).createIndex("order", "order");
        };
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
    }
    return dbPromise;
  }

  function run(mode, work) {
    return db().then((d) => new Promise((resolve, reject) => {
      const tx = d.transaction(STORE, mode);
      const request = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    }));
  }

  function all() {
    return run("readonly", (s) => s.index("order").getAll());
  }

  function get(id) {
    return run("readonly", (s) => s.get(id));
  }

  function put(record) {
    return run("readwrite", (s) => s.put(record)).then(changed);
  }

  function remove(id) {
    return run("readwrite", (s) => s.delete(id)).then(changed);
  }

  function changed() {
    if (channel) channel.postMessage("changed");
    return render();
  }

  // ---- What a deal looks like in the lists ------------------------------------------------

  function summary(form) {
    const parts = [];
    form.querySelectorAll("label.tap input:checked, label.tap.selected input").forEach((input) => {
      const face = input.parentNode.querySelector("bdi, span");
      const label = face ? face.textContent.trim() : "";
      if (label && input.name !== "seats" && parts.indexOf(label) < 0) parts.push(label);
    });
    const order = Array.from(form.querySelectorAll("ol.order-list li:not(.empty) bdi"))
      .map((b) => b.textContent.trim());
    if (order.length) parts.push(order.join(" → "));
    return parts.join(" ").slice(0, 120);
  }

  function timeOf(record) {
    return new Date(record.created).toLocaleTimeString(document.documentElement.lang || [], {
      hour: "2-digit", minute: "2-digit"
    });
  }

  // ---- The badge, the status line, the login prompt, the attention list -------------------

  const badge = box.querySelector("[data-outbox=badge]");
  const status = box.querySelector("[data-outbox=status]");
  const login = box.querySelector("[data-outbox=login]");
  const attention = box.querySelector("[data-outbox=attention]");
  const list = attention.querySelector("ul");
  const reopened = box.querySelector("[data-outbox=reopened]");
  let needLogin = false;

  function say(message) {
    status.textContent = message || "";
    status.hidden = !message;
  }

  function render() {
    return all().then((records) => {
      const waiting = records.filter((r) => r.state === "waiting");
      const refused = records.filter((r) => r.state === "attention");
      badge.textContent = text("waiting", waiting.length);
      badge.hidden = waiting.length === 0;
      box.classList.toggle("has-waiting", waiting.length > 0);
      login.hidden = !(needLogin && waiting.length);
      attention.hidden = refused.length === 0;
      list.replaceChildren(...refused.map(item));
      box.hidden = !(waiting.length || refused.length || !status.hidden || !reopened.hidden);
      return records;
    });
  }

  function item(record) {
    const li = document.createElement("li");
    li.dataset.id = record.id;
    const what = document.createElement("p");
    what.className = "outbox-what";
    what.textContent = timeOf(record) + " " + (record.summary || "");
    const why = document.createElement("p");
    why.className = "outbox-why";
    why.textContent = record.message || "";
    const actions = document.createElement("p");
    actions.className = "row";
    if (record.page === cfg.page) {
      actions.appendChild(button(text("correct"), "correct", record.id));
    } else {
      const a = document.createElement("a");
      a.href = record.page;
      a.textContent = text("otherPage");
      actions.appendChild(a);
    }
    actions.appendChild(button(text("discard"), "discard", record.id));
    li.append(what, why, actions);
    return li;
  }

  function button(label, action, id) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.dataset.outboxAction = action;
    b.dataset.id = id;
    return b;
  }

  // ---- Sending ----------------------------------------------------------------------------

  let token = null;

  function timed(url, options) {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), TIMEOUT);
    return fetch(url, Object.assign({ signal: stop.signal, credentials: "same-origin" }, options))
      .finally(() => clearTimeout(timer));
  }

  /* A fresh CSRF token (after a login the old one is refused); null without a connection. */
  function freshToken() {
    return timed(cfg.tokenUrl, { cache: "no-store", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null))
      .then((data) => (data ? data.csrf : null), () => null);
  }

  /* One attempt: "sent" (with the reply), "refused", "login", or "offline". */
  async function attempt(record, live, retried) {
    let response;
    try {
      response = await timed(record.url, {
        method: "POST",
        body: new URLSearchParams(record.body),
        redirect: "manual",
        headers: {
          "X-CSRFToken": token || "",
          "X-Efuda-Outbox": live ? "live" : "queued",
          Accept: "application/json"
        }
      });
    } catch (e) {
      return { kind: "offline" };
    }
    if (response.type === "opaqueredirect" || response.status === 401) return { kind: "login" };
    if (response.status === 403 || response.status === 404) {
      if (!retried) {
        token = await freshToken();
        if (token === null) return { kind: "offline" };
        return attempt(record, live, true);
      }
      return { kind: "login" };
    }
    const json = /json/.test(response.headers.get("Content-Type") || "")
      ? await response.json().catch(() => null)
      : null;
    if (json && json.ok && response.ok) return { kind: "sent", reply: json };
    if (json && !json.ok && (response.status === 422 || response.status === 400)) {
      return { kind: "refused", reply: json };
    }
    return { kind: "offline", server: true }; // a server error or a captive portal: again soon
  }

  let running = null;
  let again = false;
  let backoff = 1000; // ms: a server that answered with an error is asked again soon, then less often
  let soonTimer = 0;

  function soon() {
    clearTimeout(soonTimer);
    soonTimer = setTimeout(() => flush(), backoff);
    backoff = Math.min(backoff * 2, RETRY);
  }

  /* Send what waits, oldest first, one tab at a time. Resolves to {liveId: outcome}. */
  function flush(liveId) {
    if (running) {
      if (liveId) return running.then(() => flush(liveId));
      again = true;
      return running;
    }
    const work = () => sendAll(liveId);
    running = (navigator.locks ? navigator.locks.request("efuda-outbox", work) : work())
      .catch(() => ({}))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          flush();
        }
      });
    return running;
  }

  async function sendAll(liveId) {
    const outcome = {};
    let sent = 0;
    token = null;
    for (;;) {
      const records = (await all()).filter((r) => r.state === "waiting");
      if (!records.length) break;
      if (token === null) {
        token = await freshToken();
        if (token === null) { // no connection, or the server is not answering
          if (navigator.onLine) soon();
          break;
        }
      }
      const record = records[0];
      const live = record.id === liveId;
      if (!live) say(text("sending"));
      const result = await attempt(record, live, false);
      outcome[record.id] = result;
      if (result.kind === "sent") {
        sent += 1;
        needLogin = false;
        await remove(record.id);
      } else if (result.kind === "refused") {
        record.state = "attention";
        record.message = result.reply.message;
        await put(record);
      } else {
        needLogin = result.kind === "login";
        if (result.server) soon();
        break;
      }
    }
    if (!Object.values(outcome).some((r) => r.server)) backoff = 1000;
    const waiting = (await all()).filter((r) => r.state === "waiting").length;
    if (!liveId || outcome[liveId] === undefined || outcome[liveId].kind !== "sent") {
      if (needLogin) say(text("login"));
      else if (sent && !waiting) say(text("sent", sent));
      else if (waiting) say(text("kept"));
      else say("");
    }
    await render();
    if (sent && (!liveId || Object.keys(outcome).some((id) => id !== liveId))) refreshLists();
    return outcome;
  }

  /* Deals sent in the background are now on the server: show them in the page's lists
     (the running totals, a table's deals) without touching the form being filled in. */
  async function refreshLists() {
    const regions = document.querySelectorAll("[data-outbox-refresh][id]");
    if (!regions.length) return;
    try {
      const response = await timed(location.href, { cache: "no-store" });
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

  // ---- Save -------------------------------------------------------------------------------

  let initialForm = null;
  let seq = 0;

  /* The form as the page first showed it, with a new id: the next deal. */
  function nextDeal(form) {
    if (initialForm !== null) form.innerHTML = initialForm;
    idField(form).value = newId();
    form.dispatchEvent(new CustomEvent("efuda:form-reset", { bubbles: true }));
  }

  async function save(form, submitter) {
    const data = new FormData(form, submitter);
    data.delete("csrfmiddlewaretoken");
    data.delete("new_player");
    data.set("action", "save");
    let id = String(data.get("client_id") || "");
    if (!id) {
      id = newId();
      data.set("client_id", id);
    }
    const before = await get(id);
    const record = {
      id: id,
      url: form.getAttribute("action"),
      page: cfg.page,
      body: Array.from(data.entries()).filter((pair) => typeof pair[1] === "string"),
      state: "waiting",
      message: "",
      summary: summary(form),
      created: before ? before.created : Date.now(),
      order: before && before.state === "waiting" ? before.order : Date.now() * 1000 + (seq++ % 1000)
    };
    markUsed(id);
    await put(record); // kept before anything is sent: a closed tab loses nothing
    reopened.hidden = true;
    const outcome = (await flush(id))[id];
    if (outcome && outcome.kind === "sent") {
      window.location.replace(outcome.reply.next || cfg.page);
      return;
    }
    if (outcome && outcome.kind === "refused") {
      await reopen(id);
      return;
    }
    say(needLogin ? text("login") : text("kept"));
    nextDeal(form);
    await render();
  }

  document.addEventListener("submit", (event) => {
    const form = event.target.closest && event.target.closest(FORM);
    if (!form || !idField(form)) return;
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

  // ---- Correcting a refused deal ----------------------------------------------------------

  /* Put a refused deal back into the form (the server renders it from the kept values) with
     the server's message above it; Save sends it again with the same id. */
  async function reopen(id) {
    const record = await get(id);
    const form = entryForm();
    if (!record || !form) return;
    const body = new URLSearchParams(record.body);
    body.set("action", "preview"); // scored and checked, never saved: errors beside their fields
    if (token === null) token = await freshToken();
    try {
      const response = await timed(cfg.reopenUrl || form.getAttribute("data-live-url"), {
        method: "POST",
        body: body,
        headers: { "X-CSRFToken": token || "" }
      });
      const holder = document.createElement("template");
      holder.innerHTML = await response.text();
      const fresh = holder.content.querySelector("#deal-form") || holder.content.querySelector("form");
      if (!fresh) throw new Error("no form");
      form.replaceChildren(...fresh.childNodes);
    } catch (e) {
      return; // offline: the deal stays in the list; "Correct" works once the connection returns
    }
    idField(form).value = record.id;
    reopened.querySelector("[data-outbox=message]").textContent = record.message || "";
    reopened.hidden = false;
    say("");
    await render();
    reopened.scrollIntoView({ block: "start" });
    // entry.js takes it as a form just served: Save guard released, first problem focused.
    form.dispatchEvent(new CustomEvent("efuda:form-loaded", { bubbles: true }));
  }

  box.addEventListener("click", (event) => {
    const b = event.target.closest("[data-outbox-action]");
    if (!b) return;
    if (b.dataset.outboxAction === "correct") reopen(b.dataset.id);
    if (b.dataset.outboxAction === "discard" && window.confirm(text("discardConfirm"))) {
      remove(b.dataset.id);
      if (idField(entryForm()) && idField(entryForm()).value === b.dataset.id) {
        reopened.hidden = true;
        nextDeal(entryForm());
      }
    }
  });

  // ---- Start ------------------------------------------------------------------------------

  function start() {
    const form = entryForm();
    if (form) {
      initialForm = form.innerHTML;
      // A page opened from the phone's cache carries an id that may be used already.
      const field = idField(form);
      if (field && (!field.value || usedIds().indexOf(field.value) >= 0)) field.value = newId();
      get(field ? field.value : "").then((r) => { if (r && field) field.value = newId(); }, () => null);
    }
    render().then(() => flush());
    window.addEventListener("online", () => flush());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") flush();
    });
    setInterval(() => {
      all().then((records) => {
        if (records.some((r) => r.state === "waiting")) flush();
      });
    }, RETRY);
    if (channel) channel.onmessage = () => render();
    if ("serviceWorker" in navigator && cfg.sw) {
      navigator.serviceWorker.register(cfg.sw, { scope: "/" }).then(() => navigator.serviceWorker.ready)
        .then((registration) => {
          if (registration.active) registration.active.postMessage({ keep: cfg.page });
        })
        .catch(() => null);
    }
  }

  start();
})();
