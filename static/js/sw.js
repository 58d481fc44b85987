/* efuda's service worker: the entry page of the open session opens without a connection.

   Served by Django at /sw.js (tournaments/views/offline.py) so its scope is the whole site; the
   view puts the list of static files and a version on the first line (self.EFUDA).

   - Static files (CSS, scripts, icons): kept at install; answered from the cache and refreshed
     in the background (stale-while-revalidate).
   - Pages: always asked from the network first. An entry page that asked to be kept (the
     outbox's script does so, static/js/outbox.js) is stored each time it arrives, and answered
     from the cache when the network fails or is too slow.
   - Everything else (saving a deal, the live preview, the outbox's token) goes to the network
     untouched: the outbox on the page keeps what could not be sent. */
/* global self, caches, fetch, Request, URL */
"use strict";

var CONFIG = self.EFUDA || { version: "dev", assets: [] };
var STATIC_CACHE = "efuda-static-" + CONFIG.version;
var PAGES_CACHE = "efuda-pages-v1";
var NETWORK_WAIT = 6000; // ms before a page is answered from the cache on a slow connection

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC_CACHE).then(function (cache) {
      return Promise.all(CONFIG.assets.map(function (url) {
        return cache.add(url).catch(function () { return null; }); // one missing file is no reason to fail
      }));
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("efuda-static-") === 0 && name !== STATIC_CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function isStatic(url) {
  return url.pathname.indexOf(CONFIG.staticUrl || "/static/") === 0;
}

function fromStatic(request) {
  return caches.open(STATIC_CACHE).then(function (cache) {
    return cache.match(request).then(function (cached) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
      if (cached) {
        fresh.catch(function () { return null; });
        return cached;
      }
      return fresh;
    });
  });
}

/* Network first; the kept copy when the network fails or does not answer in time. */
function page(request) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.match(request, { ignoreVary: true }).then(function (kept) {
      var network = fetch(request).then(function (response) {
        if (kept && response.ok && response.type === "basic" && !response.redirected) {
          cache.put(request, response.clone());
        }
        return response;
      });
      if (!kept) return network;
      return new Promise(function (resolve) {
        var done = false;
        var timer = setTimeout(function () {
          if (!done) { done = true; resolve(kept); }
        }, NETWORK_WAIT);
        network.then(function (response) {
          if (!done) { done = true; clearTimeout(timer); resolve(response); }
        }, function () {
          if (!done) { done = true; clearTimeout(timer); resolve(kept); }
        });
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (isStatic(url)) {
    event.respondWith(fromStatic(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  }
});

/* A page asks to be kept (or forgotten): {keep: "/url/"} / {forget: "/url/"}. */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.keep) {
    event.waitUntil(caches.open(PAGES_CACHE).then(function (cache) {
      return cache.match(data.keep, { ignoreVary: true }).then(function (kept) {
        return kept ? null : cache.add(new Request(data.keep, { credentials: "same-origin" }));
      });
    }).catch(function () { return null; }));
  }
  if (data.forget) {
    event.waitUntil(caches.open(PAGES_CACHE).then(function (cache) {
      return cache.delete(data.forget);
    }));
  }
});
