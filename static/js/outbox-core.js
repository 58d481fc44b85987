/* efuda's outbox, the logic: what the phone keeps until efuda has it, and for whom.

   Plain JavaScript with no page behind it: it runs in Node for its tests (tests/js/), and in
   the browser through static/js/outbox.js (the entry pages) and static/js/logout.js (the
   logout page). Everything it touches is given to it: a store of items, a way to send one, a
   lock shared by the tabs, a clock.

   An item is one deal saved on the phone:
     {id, author, page, url, body, summary, scoring, created, order, state, refusals,
      problems, similar, mine, duplicateOk, late}
   - id: the client_id its form was shown with; the server records a deal once per id, so
     sending an item again is always safe, and saving the same id twice (a double tap) never
     makes a second item.
   - author: who entered it ("u:<user id>", or "pin:<entry id>" at a tournament table). An item
     is shown and sent only on a page of its author; the server refuses one whose author is not
     who the phone is logged in as ("author"), and the item stays for its author.
   - scoring: what its page gave to score it on the phone (the rule set, the players' names;
     static/js/outbox-points.js), or null: kept with the deal, so its points show on any page.
   - created: when the phone made it, sent with every post (X-Efuda-Made).
   - late: the staff, logged in on this phone, send it as a late deal (X-Efuda-Late).
   - state: WAITING (to be sent, oldest first), ATTENTION (efuda refused it when it was sent
     from the outbox, or its round was finished before it arrived, or found a deal with the same content recorded since it was made: the
     scorekeeper decides), EDITING (open in the form to be corrected).
   An online Save that efuda refuses never becomes an item: it goes back into its form. */

export const WAITING = "waiting";
export const ATTENTION = "attention";
export const EDITING = "editing";

/* A stored problem for items saved before items had authors ("u:…"/"pin:…"). */
export const UNKNOWN_AUTHOR = {
  field: "__all__",
  code: "author_unknown",
  label: null,
  message: {
    msgid: "This entry was kept on this phone before efuda noted who entered it. " +
      "Send it as yourself only if you entered it; otherwise discard it."
  },
  params: {}
};

function byOrder(a, b) {
  return a.order - b.order;
}

/* One queue per page: a stand-in for navigator.locks where there is none (and in Node). */
export function serialLock() {
  let tail = Promise.resolve();
  return (work) => {
    const run = tail.then(work, work);
    tail = run.then(() => undefined, () => undefined);
    return run;
  };
}

/* A store in memory with the interface of the IndexedDB one (tests, private windows). */
export function memoryStore() {
  const items = new Map();
  const copy = (item) => (item ? JSON.parse(JSON.stringify(item)) : undefined);
  return {
    all: async () => Array.from(items.values(), copy).sort(byOrder),
    get: async (id) => copy(items.get(id)),
    put: async (item) => { items.set(item.id, copy(item)); },
    remove: async (id) => { items.delete(id); }
  };
}

/* The outbox of one page (one tab). Several tabs share one store and one lock.
   deps: {store, transport: {begin(), send(item, {live})}, lock, now, onChange} */
export function createOutbox(deps) {
  const store = deps.store;
  const transport = deps.transport;
  const lock = deps.lock || serialLock();
  const now = deps.now || (() => Date.now());
  const onChange = deps.onChange || (() => undefined);
  const saving = new Map(); // id → the save under way in this tab (a double tap joins it)
  let seq = 0;

  async function put(item) {
    await store.put(item);
    onChange(item.id);
  }

  async function remove(id) {
    await store.remove(id);
    onChange(id);
  }

  async function items(author) {
    return (await store.all()).filter((item) => item.author === author).sort(byOrder);
  }

  /* Keep a deal saved in the form. The same id again (a double tap, a second Save of the
     same form) is the same item: a waiting one is left as it is; one that was refused or
     was being corrected is updated and waits again, keeping when it was made. */
  function save(entry) {
    if (!entry || !entry.id || !entry.author) {
      return Promise.reject(new Error("an item needs an id and an author"));
    }
    if (saving.has(entry.id)) return saving.get(entry.id);
    const work = (async () => {
      const before = await store.get(entry.id);
      if (before && before.author !== entry.author) {
        throw new Error("this id belongs to another person's item");
      }
      if (before && before.state === WAITING) return before;
      const item = {
        id: entry.id,
        author: entry.author,
        page: entry.page,
        url: entry.url,
        body: entry.body,
        summary: entry.summary || "",
        scoring: entry.scoring || null,
        created: before ? before.created : now(),
        order: before ? before.order : now() * 1000 + (seq++ % 1000),
        state: WAITING,
        refusals: before ? before.refusals : 0,
        problems: [],
        similar: null,
        mine: "",
        duplicateOk: before ? Boolean(before.duplicateOk) : false
      };
      await put(item);
      return item;
    })();
    saving.set(entry.id, work);
    const clear = () => { saving.delete(entry.id); };
    work.then(clear, clear);
    return work;
  }

  /* Send what waits for `author`, oldest first, one tab at a time. `liveId`: the item just
     saved in this tab's form; a refusal of it goes back to the form (returned in `outcome`),
     not to the list. Resolves to {outcome: {id: result}, sent, stop} where stop says why
     sending stopped early: "offline", "server", "login" or "author". */
  function flush(author, liveId) {
    return lock(async () => {
      const outcome = {};
      let sent = 0;
      let stop = null;
      let begun = false;
      for (;;) {
        const next = (await items(author)).find((item) => item.state === WAITING);
        if (!next) break;
        if (!begun) {
          if (!(await transport.begin())) {
            stop = "offline";
            break;
          }
          begun = true;
        }
        const live = next.id === liveId;
        const result = await transport.send(next, { live });
        outcome[next.id] = result;
        if (result.kind === "sent") {
          sent += 1;
          await remove(next.id);
        } else if (result.kind === "refused") {
          result.late = lateRefusal(result.problems);
          if (live && !next.refusals && !result.late) {
            await remove(next.id); // an online Save: it stays in its form, not in the outbox
          } else {
            await put(Object.assign({}, next, {
              state: live && !result.late ? EDITING : ATTENTION,
              late: false,
              refusals: next.refusals + 1,
              problems: result.problems || [],
              similar: null,
              mine: "",
              duplicateOk: false
            }));
          }
        } else if (result.kind === "similar") {
          await put(Object.assign({}, next, {
            state: ATTENTION,
            problems: [],
            similar: result.similar || [],
            mine: result.mine || ""
          }));
        } else {
          stop = result.kind; // "offline", "server", "login", "author": the item stays
          break;
        }
      }
      return { outcome, sent, stop };
    });
  }

  async function mineOnly(id, author) {
    const item = await store.get(id);
    return item && item.author === author ? item : null;
  }

  /* The scorekeeper opens a refused item in the form: hidden from the list meanwhile. */
  async function correct(id, author) {
    const item = await mineOnly(id, author);
    if (!item || item.state === WAITING) return null;
    const open = Object.assign({}, item, { state: EDITING });
    await put(open);
    return open;
  }

  /* Items left open in a form (a page closed meanwhile) come back to the list. */
  async function release(author, id) {
    for (const item of await items(author)) {
      if (item.state === EDITING && (id === undefined || item.id === id)) {
        await put(Object.assign({}, item, { state: ATTENTION }));
      }
    }
  }

  /* "Send anyway" (duplicateOk: the similar deal is another deal) or send as it is again. */
  async function resend(id, author, options) {
    const item = await mineOnly(id, author);
    if (!item || item.state === WAITING) return null;
    const again = Object.assign({}, item, {
      state: WAITING,
      similar: null,
      mine: "",
      duplicateOk: Boolean(options && options.duplicateOk),
      late: Boolean(options && options.late)
    });
    await put(again);
    return again;
  }

  async function discard(id, author) {
    const item = await mineOnly(id, author);
    if (!item) return false;
    await remove(id);
    return true;
  }

  /* An item kept before items had authors, claimed by the person who entered it. */
  async function claim(id, author) {
    const item = await store.get(id);
    if (!item || item.author || !author) return null;
    const mine = Object.assign({}, item, { author, state: WAITING, problems: [] });
    await put(mine);
    return mine;
  }

  async function unclaimed() {
    return (await store.all()).filter((item) => !item.author);
  }

  /* At logout, "discard": every item of `author` goes. */
  async function forget(author) {
    let n = 0;
    for (const item of await items(author)) {
      await remove(item.id);
      n += 1;
    }
    return n;
  }

  async function counts(author) {
    const all = await store.all();
    const own = all.filter((item) => item.author === author);
    return {
      waiting: own.filter((item) => item.state === WAITING).length,
      attention: own.filter((item) => item.state === ATTENTION).length,
      editing: own.filter((item) => item.state === EDITING).length,
      others: all.filter((item) => item.author && item.author !== author).length,
      unclaimed: all.filter((item) => !item.author).length
    };
  }

  return {
    save, flush, items, correct, release, resend, discard, claim, unclaimed, forget, counts
  };
}

/* efuda refused it because its round was finished before it arrived: it stays on the phone
   for the staff to count as a late deal (they log in on this phone: "late"). */
export function lateRefusal(problems) {
  return (problems || []).some((p) => p && p.code === "round_finished_late");
}

/* When an item was made, for the server's check of a deal with the same content recorded
   since: sent only when the item is sent again after a refusal, and not once the scorekeeper
   said "send anyway". */
export function sinceOf(item) {
  return item.refusals > 0 && !item.duplicateOk ? String(item.created) : "";
}

// ---- Drafts: the taps of a form not saved yet, kept across a reload --------------------------
// A draft belongs to one person and one page (so one session or table), under the id of its
// form; two tabs filling two forms keep two drafts. It is dropped when its form is saved or
// discarded, and all of a person's drafts at logout. kv: localStorage (getItem, setItem,
// removeItem, key, length).

const DRAFT = "efuda-draft|";

export function draftKey(author, page, id) {
  return DRAFT + author + "|" + page + "|" + id;
}

function keysOf(kv, prefix) {
  const keys = [];
  for (let i = 0; i < kv.length; i += 1) {
    const key = kv.key(i);
    if (key && key.indexOf(prefix) === 0) keys.push(key);
  }
  return keys;
}

export function draftSave(kv, author, page, id, body, at) {
  try {
    kv.setItem(draftKey(author, page, id), JSON.stringify({ id, body, at }));
  } catch (e) {
    /* a full or private storage: the draft is only a convenience */
  }
}

/* The newest draft of `author` on `page`, leaving out the ids in `skip`. */
export function draftLoad(kv, author, page, skip) {
  let newest = null;
  for (const key of keysOf(kv, DRAFT + author + "|" + page + "|")) {
    let draft = null;
    try {
      draft = JSON.parse(kv.getItem(key) || "null");
    } catch (e) {
      draft = null;
    }
    if (!draft || !draft.id || !Array.isArray(draft.body)) continue;
    if (skip && skip.indexOf(draft.id) >= 0) continue;
    if (!newest || draft.at > newest.at) newest = draft;
  }
  return newest;
}

export function draftDrop(kv, author, page, id) {
  kv.removeItem(draftKey(author, page, id));
}

/* Every draft of `author` (at logout). */
export function draftsForget(kv, author) {
  const keys = keysOf(kv, DRAFT + author + "|");
  keys.forEach((key) => kv.removeItem(key));
  return keys.length;
}

// ---- The browser's parts, given their browser objects -----------------------------------------

/* The items in IndexedDB (database "efuda-outbox", store "deals"). Version 2 added authors:
   an item kept by an older version has none and waits for its author to claim it. */
export function indexedDbStore(idb) {
  let opened = null;

  function db() {
    if (!opened) {
      opened = new Promise((resolve, reject) => {
        const open = idb.open("efuda-outbox", 2);
        open.onupgradeneeded = (event) => {
          const d = open.result;
          const deals = event.oldVersion < 1
            ? d.createObjectStore("deals", { keyPath: "id" })
            : open.transaction.objectStore("deals");
          if (event.oldVersion < 1) deals.createIndex("order", "order");
          if (event.oldVersion >= 1) {
            deals.openCursor().onsuccess = (e) => {
              const cursor = e.target.result;
              if (!cursor) return;
              const item = cursor.value;
              if (!item.author) {
                cursor.update(Object.assign(item, {
                  author: "", state: ATTENTION, refusals: 0, problems: [UNKNOWN_AUTHOR]
                }));
              }
              cursor.continue();
            };
          }
        };
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
    }
    return opened;
  }

  function run(mode, work) {
    return db().then((d) => new Promise((resolve, reject) => {
      const tx = d.transaction("deals", mode);
      const request = work(tx.objectStore("deals"));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    }));
  }

  return {
    all: () => run("readonly", (s) => s.index("order").getAll()),
    get: (id) => run("readonly", (s) => s.get(id)),
    put: (item) => run("readwrite", (s) => s.put(item)),
    remove: (id) => run("readwrite", (s) => s.delete(id))
  };
}

/* One lock for every tab of the site (navigator.locks), or one per page without it. */
export function webLock(locks) {
  if (!locks) return serialLock();
  return (work) => locks.request("efuda-outbox", work);
}

/* Sending an item as the entry form would post it. cfg: {fetch, tokenUrl, timeout}.
   Results: {kind: "sent", reply} | {kind: "refused", reply, problems}
   | {kind: "similar", similar, mine} | {kind: "author"} | {kind: "login"}
   | {kind: "offline"} | {kind: "server"}. */
export function fetchTransport(cfg) {
  const fetchFn = cfg.fetch;
  const timeout = cfg.timeout || 15000;
  let token = null;

  function timed(url, options) {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), timeout);
    return fetchFn(url, Object.assign({ signal: stop.signal, credentials: "same-origin" }, options))
      .finally(() => clearTimeout(timer));
  }

  async function freshToken() {
    try {
      const response = await timed(cfg.tokenUrl, {
        cache: "no-store", headers: { Accept: "application/json" }
      });
      const data = response.ok ? await response.json() : null;
      return data ? data.csrf : null;
    } catch (e) {
      return null;
    }
  }

  async function begin() {
    token = await freshToken();
    return token !== null;
  }

  async function send(item, options, retried) {
    const live = Boolean(options && options.live);
    const headers = {
      "X-CSRFToken": token || "",
      "X-Efuda-Outbox": live ? "live" : "queued",
      "X-Efuda-Author": item.author,
      Accept: "application/json"
    };
    const since = sinceOf(item);
    if (since) headers["X-Efuda-Since"] = since;
    if (item.duplicateOk) headers["X-Efuda-Duplicate-Ok"] = "1";
    if (item.created) headers["X-Efuda-Made"] = String(item.created);
    if (item.late) headers["X-Efuda-Late"] = "1";
    let response;
    try {
      response = await timed(item.url, {
        method: "POST", body: new URLSearchParams(item.body), redirect: "manual", headers
      });
    } catch (e) {
      return { kind: "offline" };
    }
    if (response.type === "opaqueredirect" || response.status === 401) return { kind: "login" };
    if (response.status === 403 || response.status === 404) {
      if (retried) return { kind: "login" };
      token = await freshToken();
      if (token === null) return { kind: "offline" };
      return send(item, options, true);
    }
    const json = /json/.test(response.headers.get("Content-Type") || "")
      ? await response.json().catch(() => null)
      : null;
    if (json && json.ok && response.ok) return { kind: "sent", reply: json };
    if (json && response.status === 409 && json.code === "author") return { kind: "author", reply: json };
    if (json && response.status === 409 && json.code === "similar") {
      return { kind: "similar", similar: json.similar, mine: json.mine, reply: json };
    }
    if (json && !json.ok && (response.status === 422 || response.status === 400)) {
      return { kind: "refused", reply: json, problems: json.problems || [] };
    }
    return { kind: "server" }; // a server error or a captive portal: again soon
  }

  return { begin, send, freshToken };
}
