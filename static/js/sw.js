/* efuda's service worker: the entry page of the open session opens without a connection, for
   the person it was served to and nobody else.

   Served by Django at /sw.js (tournaments/views/offline.py) so its scope is the whole site; the
   view puts the list of static files and a version on the first line (self.EFUDA). A classic
   worker script (the browsers that run efuda's phones do not all start module workers).

   - Static files (CSS, scripts, icons): kept at install; answered from the cache and refreshed
     in the background (stale-while-revalidate).
   - Pages: always asked from the network first. Every page efuda serves says who the browser is
     (the header X-Efuda-Who: the account and the tournament PINs it holds; empty for nobody).
     The worker remembers the last one it saw. When it changes (a logout, another login, a PIN
     left or entered), every kept page is forgotten at once. An entry page that asked to be kept
     (static/js/outbox.js) is stored with that header each time it arrives, and answered from
     the cache when the network fails or is too slow, only while the browser is still the same
     person: a kept page is never shown to someone else.
   - Everything else (saving a deal, the live preview, the outbox's token) goes to the network
     untouched: the outbox on the page keeps what could not be sent. */
"use strict";

const CONFIG = self.EFUDA || { version: "dev", assets: [] };
const STATIC_CACHE = "efuda-static-" + CONFIG.version;
const PAGES_CACHE = "efuda-pages-v2";
const WHO_CACHE = "efuda-who";
const WHO_KEY = "/__efuda_who__";
const NETWORK_WAIT = 6000; // ms before a page is answered from the cache on a slow connection

let who = null; // the last X-Efuda-Who seen (null: not read yet from WHO_CACHE)

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC_CACHE)
      .then((cache) => Promise.all(CONFIG.assets.map(
        (url) => cache.add(url).catch(() => null) // one missing file is no reason to fail
      )))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names
        .filter((name) => (name.indexOf("efuda-static-") === 0 && name !== STATIC_CACHE) ||
          name === "efuda-pages-v1") // kept before pages were kept per person
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

function isStatic(url) {
  return url.pathname.indexOf(CONFIG.staticUrl || "/static/") === 0;
}

function fromStatic(request) {
  return caches.open(STATIC_CACHE).then((cache) => cache.match(request).then((cached) => {
    const fresh = fetch(request).then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    });
    if (cached) {
      fresh.catch(() => null);
      return cached;
    }
    return fresh;
  }));
}

// ---- Who the browser is -------------------------------------------------------------------

async function currentWho() {
  if (who === null) {
    const kept = await (await caches.open(WHO_CACHE)).match(WHO_KEY);
    who = kept ? await kept.text() : "";
  }
  return who;
}

/* A response from efuda says who the browser is now: someone else than before forgets every
   kept page. */
async function learnWho(response) {
  const said = response.headers.get("X-Efuda-Who");
  if (said === null) return; // not a page of efuda's (a redirect hop, a file)
  if (said === (await currentWho())) return;
  who = said;
  await caches.delete(PAGES_CACHE);
  await (await caches.open(WHO_CACHE)).put(WHO_KEY, new Response(said));
}

/* A kept page, if it was kept for the person the browser is now. */
async function keptFor(request) {
  const kept = await (await caches.open(PAGES_CACHE)).match(request, { ignoreVary: true });
  if (!kept) return null;
  const mine = kept.headers.get("X-Efuda-Who");
  return mine && mine === (await currentWho()) ? kept : null;
}

async function keep(request, response) {
  const mine = response.headers.get("X-Efuda-Who");
  if (!mine || mine !== (await currentWho())) return; // nobody's page, or not the current person's
  await (await caches.open(PAGES_CACHE)).put(request, response);
}

/* Network first; the kept copy when the network fails or does not answer in time. */
async function page(request) {
  const kept = await keptFor(request);
  const network = fetch(request).then(async (response) => {
    if (response.type === "basic" && !response.redirected) await learnWho(response);
    if (kept && response.ok && response.type === "basic" && !response.redirected) {
      await keep(request, response.clone());
    }
    return response;
  });
  if (!kept) return network;
  return new Promise((resolve) => {
    let done = false;
    const timer = setTimeout(() => {
      if (!done) {
        done = true;
        keptFor(request).then((still) => resolve(still || network));
      }
    }, NETWORK_WAIT);
    network.then((response) => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        resolve(response);
      }
    }, () => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        keptFor(request).then((still) => resolve(still || Response.error()));
      }
    });
  });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (isStatic(url)) {
    event.respondWith(fromStatic(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  }
});

/* A page asks to be kept ({keep: "/url/"}) or forgotten ({forget: "/url/"}); the logout page
   says who logged out ({logout: "u:12"}): every kept page goes. */
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.keep) {
    event.waitUntil((async () => {
      const cache = await caches.open(PAGES_CACHE);
      if (await cache.match(data.keep, { ignoreVary: true })) return;
      const response = await fetch(new Request(data.keep, { credentials: "same-origin" }));
      if (response.ok && !response.redirected) {
        await learnWho(response);
        await keep(new Request(data.keep), response);
      }
    })().catch(() => null));
  }
  if (data.forget) {
    event.waitUntil(caches.open(PAGES_CACHE).then((cache) => cache.delete(data.forget)));
  }
  if (data.logout) {
    event.waitUntil((async () => {
      who = "";
      await caches.delete(PAGES_CACHE);
      await (await caches.open(WHO_CACHE)).put(WHO_KEY, new Response(""));
    })());
  }
});
