/* efuda's outbox on an entry page: a deal saved at the table is never lost, never counted
   twice, and never sent or shown as anyone's but its author's.

   The logic (items, their states and authors, sending) is static/js/outbox-core.js, a plain
   module tested in Node (tests/js/), imported from the address the page gives (data-core)
   only where an outbox can work. This file joins it to the page, with two modules of its own:
   static/js/outbox-list.js (the badge, the status line and the attention list, as shown) and
   static/js/outbox-form.js (the entry form's id, contents, next deal and draft).

   - Save: the deal is kept on the phone (IndexedDB) under its form's id and its author (the
     page's data-author: who the page was served to), then sent with the header
     "X-Efuda-Outbox: live". Recorded: the next entry form opens. Refused: the form shows
     efuda's messages beside the fields, and nothing stays in the outbox. No connection, a
     timeout, a server that is down, an expired login: the deal waits ("未送信 n件"), the form
     is cleared for the next deal. A Save of an untouched form is never kept (a double tap).
   - Waiting deals are sent, oldest first, on the "online" event, on page load, when the page
     becomes visible and every 15 s while something waits. One tab sends at a time.
   - Each waiting deal is listed with its points as the phone scores them (the club's own
     rule set, which the page gives and the deal keeps: static/js/outbox-points.js), and the
     page's running totals include them, marked, as does the points panel of the form while
     the connection is gone (static/js/outbox-totals.js). When efuda's answer comes, its
     points are held against the phone's: where they differ, efuda's count and the phone
     says so.
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

import { FORM, body, createDealForm, entryForm, idField, newId, replaceForm, summary } from "./outbox-form.js";
import { createList } from "./outbox-list.js";
import { differences, nextPrevious, pointsLine, scoreItems } from "./outbox-points.js";
import { localPreview, pageContext } from "./outbox-totals.js";

const RETRY = 15000; // ms between attempts while deals wait

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

  let stopped = null; // why the last round of sending stopped early
  const ctx = { box, core, outbox, transport, author, page, kv, stopped: () => stopped };
  const list = createList(ctx);
  const deal = createDealForm(ctx);
  const { text, say, render } = list;
  const reopened = box.querySelector("[data-outbox=reopened]");

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
    const before = (await outbox.items(author)).filter((r) => r.state === core.WAITING);
    if (before.some((r) => r.id !== liveId)) say(text("sending"));
    const mine = scoredSafely(before);
    let result;
    try {
      result = await outbox.flush(author, liveId);
    } catch (e) {
      result = { outcome: {}, sent: 0, stop: "server" };
    }
    try {
      compare(before.filter((r) => r.id !== liveId), mine, result.outcome);
    } catch (e) {
      /* only a view: the totals are efuda's anyway once read again */
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
      else if (list.saying() !== text("sent", { n: lastSent })) say(""); // keep "sent"
    }
    if (result.sent) lastSent = result.sent;
    await render();
    const background = Object.keys(result.outcome).some((id) => id !== liveId &&
      result.outcome[id].kind === "sent");
    if (background) refreshLists();
    return result;
  }

  /* The phone's points of the waiting deals; none where scoring them fails (a view only: it
     never stops a deal from being sent). */
  function scoredSafely(items) {
    try {
      return scoreItems(items, { page, context: pageContext() });
    } catch (e) {
      return new Map();
    }
  }

  /* efuda's points against the phone's, for each deal sent: where they differ, efuda's count
     (the lists are read again from efuda) and the phone shows both. */
  function compare(items, mine, outcome) {
    for (const item of items) {
      const sent = outcome[item.id];
      const answer = mine.get(item.id);
      if (!sent || sent.kind !== "sent" || !answer || !answer.points || !sent.reply.points) continue;
      if (!differences(answer.points, sent.reply.points).length) continue;
      const names = item.scoring.names;
      const order = answer.order.concat(Object.keys(sent.reply.points).filter((id) => answer.order.indexOf(id) < 0));
      list.differ({
        seq: sent.reply.seq, time: list.timeOf(item.created), what: item.summary || "",
        efuda: pointsLine(sent.reply.points, order, names), mine: pointsLine(answer.points, answer.order, names)
      });
    }
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
      await render(); // the deals still waiting, added to the fresh totals
    } catch (e) {
      /* offline again: the lists catch up with the next page load */
    }
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
    if (deal.untouched(form)) {
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
    await outbox.save({ id, author, page, url, body: values, summary: summary(form), scoring: pageContext() });
    say("");
    const result = await flush(id);
    const outcome = result.outcome[id];
    if (outcome && outcome.kind === "sent") {
      deal.markUsed(id);
      deal.dropDraft(id);
      window.location.replace(outcome.reply.next || page);
      return;
    }
    if (outcome && outcome.kind === "refused" && !outcome.late) {
      // Back into its form with efuda's messages beside the fields; not in the outbox.
      if (outcome.reply.form && replaceForm(form, outcome.reply.form)) {
        idField(form).value = id;
        if (editing) form.dataset.editing = editing;
        form.dispatchEvent(new CustomEvent("efuda:form-loaded", { bubbles: true }));
      }
      deal.keepDraft();
      await render();
      return;
    }
    deal.markUsed(id);
    const kept = (await outbox.items(author)).find((r) => r.id === id);
    if (!kept && !outcome) { // sent meanwhile by another tab
      deal.dropDraft(id);
      window.location.replace(page);
      return;
    }
    deal.dropDraft(id);
    deal.nextDeal(form);
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
      if (event.target.closest && event.target.closest(FORM)) deal.keepDraft();
    });
  });

  // ---- The attention list -----------------------------------------------------------------

  /* Open a refused deal in the form (rendered by the server, its problems beside their
     fields); Save sends it again with the same id. */
  async function reopen(id) {
    const form = entryForm();
    const record = await outbox.correct(id, author);
    if (!record || !form) return;
    if (!(await deal.loadForm(form, record.body.filter((pair) => pair[0] !== "action"), "preview"))) {
      await outbox.release(author, id); // offline: back in the list; works once online
      say(text("offlineCorrect"));
      await render();
      return;
    }
    idField(form).value = record.id;
    form.dataset.editing = record.id;
    reopened.querySelector("[data-outbox=reopened-what]").textContent =
      text("reopened", { time: list.timeOf(record.created) });
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
      if (form && idField(form).value === gone) deal.nextDeal(form);
      await render();
    } else if (action === "already") {
      await outbox.discard(id, author); // the deal efuda has is this one: nothing to send
      say(text("discarded"));
      await render();
    } else if (action === "send-anyway") {
      await outbox.resend(id, author, { duplicateOk: true });
      await flush();
    } else if (action === "late") {
      // The staff, logged in on this phone, count its player's deal: sent once, as late.
      const owner = b.dataset.author;
      await outbox.resend(id, owner, { late: true });
      const result = await outbox.flush(owner);
      if (result.outcome[id] && result.outcome[id].kind === "sent") window.location.reload();
      else await render();
    } else if (action === "claim") {
      await outbox.claim(id, author);
      await flush();
    } else if (action === "differ-seen") {
      await list.differSeen();
    }
  });

  // ---- The points panel without a connection ------------------------------------------------

  /* The preview could not be asked (no connection): the panel shows the deal as the phone
     scores it, after the rounds waiting here. */
  document.addEventListener("efuda:preview-failed", async (event) => {
    const form = event.target.closest && event.target.closest(FORM);
    if (!form) return;
    const waiting = (await outbox.items(author)).filter((r) => r.state === core.WAITING);
    const context = pageContext();
    try {
      localPreview(form, context, body(form), nextPrevious(waiting, scoredSafely(waiting), page, context), text);
    } catch (e) {
      /* the panel keeps efuda's own text: the points come when the deal arrives */
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
    if (form) await deal.open(form);
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
