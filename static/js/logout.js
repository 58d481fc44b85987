/* The logout page: nothing of the person logging out stays to be shown or sent to the next.

   Before the logout is posted, the phone's outbox (static/js/outbox-core.js) is asked what
   still waits for this person (their account and the tournament PINs this browser holds). If
   anything does, the page says how many and offers: send them now, keep them for this person
   (they are shown and sent only when the same person logs in again on this phone), or discard
   them. Then the person's drafts are dropped, the service worker forgets every kept page, the
   person's other tabs reload, and the logout is posted. Without JavaScript the form posts as
   is (there is no outbox without JavaScript). */

const panel = document.getElementById("logout-outbox");
const form = document.getElementById("logout-form");
let ready = null; // the logout page's handlers, once the outbox's module is loaded
let chosen = false;

if (panel && form && window.indexedDB) {
  // Listening from the first moment: a tap before the module has loaded waits for it.
  form.addEventListener("submit", (event) => {
    if (chosen) return;
    event.preventDefault();
    (ready || Promise.reject(new Error("no outbox"))).then((page) => page.submit(), () => {
      chosen = true;
      form.submit();
    });
  });
  ready = import(panel.dataset.core).then(start);
}

function start(core) {
  const cfg = panel.dataset;
  const authors = (cfg.authors || "").split(" ").filter(Boolean);
  const kv = window.localStorage;
  const outbox = core.createOutbox({
    store: core.indexedDbStore(window.indexedDB),
    transport: core.fetchTransport({ fetch: window.fetch.bind(window), tokenUrl: cfg.tokenUrl }),
    lock: core.webLock(navigator.locks)
  });
  const count = panel.querySelector("[data-logout=count]");
  const status = panel.querySelector("[data-logout=status]");

  function text(key, n) {
    return (cfg["t" + key[0].toUpperCase() + key.slice(1)] || key).split("{n}").join(String(n));
  }

  async function left() {
    let n = 0;
    for (const author of authors) {
      const c = await outbox.counts(author);
      n += c.waiting + c.attention + c.editing;
    }
    return n;
  }

  async function show() {
    const n = await left();
    panel.hidden = n === 0;
    count.textContent = n ? text("count", n) : "";
    return n;
  }

  function leave() {
    authors.forEach((author) => core.draftsForget(kv, author));
    const channel = window.BroadcastChannel ? new BroadcastChannel("efuda-outbox") : null;
    authors.forEach((author) => { if (channel) channel.postMessage({ logout: author }); });
    const done = () => {
      chosen = true;
      form.submit();
    };
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ logout: authors.join(" ") });
    }
    // The kept pages go from here too (the worker may be asleep): nothing is left to open.
    (window.caches ? caches.delete("efuda-pages-v2") : Promise.resolve()).then(done, done);
  }

  panel.addEventListener("click", async (event) => {
    const b = event.target.closest("[data-logout-choice]");
    if (!b) return;
    const choice = b.dataset.logoutChoice;
    if (choice === "send") {
      status.textContent = text("sending", 0);
      for (const author of authors) await outbox.flush(author);
      const n = await show();
      if (n === 0) {
        panel.hidden = false;
        status.textContent = text("sent", 0);
        leave();
      } else {
        status.textContent = text("left", n);
      }
    } else if (choice === "keep") {
      leave();
    } else if (choice === "discard" && window.confirm(text("discardConfirm", 0))) {
      for (const author of authors) await outbox.forget(author);
      leave();
    }
  });

  /* Log out was tapped: what waits is said first, else the logout goes. */
  async function submit() {
    if ((await show()) > 0) {
      panel.scrollIntoView({ block: "start" });
      panel.querySelector("[data-logout-choice=send]").focus();
      return;
    }
    leave();
  }

  show();
  return { submit };
}
