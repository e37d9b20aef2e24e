// The service worker: the page works offline and starts from local files on a repeat visit.
//
// One cache per site version ("gaddag-solver-" + VERSION; scripts/build_site.py writes VERSION,
// a hash of every file it ships, so a rebuilt site is a new version):
// - install: the site's shell (site.json's `shell`: the page, its modules, the data files,
//   Pyodide's runtime, Python's snapshot, kept unpacked, and our wheel), asked with
//   `cache: "no-cache"` so that what the page has just downloaded comes back as a 304 from the
//   server rather than a second download; and every lexicon or leave table the previous version
//   had kept, revalidated the same way;
// - activate: the other versions' caches are deleted (and the Python snapshot earlier versions
//   kept in a cache of their own);
// - fetch: our own files are answered from the cache, else from the network, and a lexicon or
//   leave table fetched is kept (what the page fetched before this service worker controlled
//   it, or what a dedicated worker it does not control fetched, the page names in a "keep"
//   message: web/offline.js, only files no cache holds).
// A request the cache cannot answer while offline fails as it would without a service worker;
// the solver's worker turns that into a message saying what is missing.

const VERSION = "dev"; // replaced by scripts/build_site.py
const PREFIX = "gaddag-solver-";
const CACHE = PREFIX + VERSION;
const base = new URL("./", self.location.href);
const KEPT = /^lexicons\/[^/]+\.(gaddag|leaves)$/; // kept once fetched, relative to base

function relative(url) {
  const href = new URL(url, base).href;
  return href.startsWith(base.href) ? href.slice(base.href.length).split(/[?#]/)[0] : null;
}

/**
 * Fetch `path` past the HTTP cache's freshness (a 304 when unchanged) and store it. `unpack`
 * (Python's snapshot): store it gunzipped, 31 MB instead of 7, so that the worker reads it as
 * it is (0.06 s) instead of unpacking it at every start (0.18 s); the header tells the worker
 * (web/snapshot.js).
 */
async function store(cache, path, unpack = false) {
  const url = new URL(path, base).href;
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  if (unpack && typeof DecompressionStream !== "undefined") {
    const body = response.body.pipeThrough(new DecompressionStream("gzip"));
    const headers = { "Content-Type": "application/octet-stream", "X-Gaddag-Unpacked": "gzip" };
    await cache.put(url, new Response(body, { headers }));
    return;
  }
  await cache.put(url, response);
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const response = await fetch(new URL("site.json", base), { cache: "no-cache" });
      const site = await response.json();
      if (site.version !== VERSION) throw new Error(`site.json is version ${site.version}, not ${VERSION}`);
      const cache = await caches.open(CACHE);
      await Promise.all(site.shell.map((path) => store(cache, path, path === site.python_snapshot)));
      // the lexicons an earlier version kept stay available offline (when still shipped)
      for (const name of await caches.keys()) {
        if (!name.startsWith(PREFIX) || name === CACHE) continue;
        const old = await caches.open(name);
        for (const request of await old.keys()) {
          const path = relative(request.url);
          if (path && KEPT.test(path)) await store(cache, path).catch(() => {});
        }
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      // the 31 MB Python snapshot earlier versions made in the browser: it now ships with the site
      await caches.delete("gaddag-solver:python-snapshot");
      await self.clients.claim();
    })(),
  );
});

async function answer(request, path) {
  const cache = await caches.open(CACHE);
  const key = path === "" || path.endsWith("/") ? new URL("index.html", base).href : request;
  const hit = await cache.match(key, { ignoreSearch: true });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && KEPT.test(path)) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const path = relative(request.url);
  if (path === null || path === "sw.js") return;
  event.respondWith(answer(request, path));
});

// {type: "keep", paths: [...]} from the page: store those files (fetched before this service
// worker controlled the page) unless already kept; answered {type: "kept", id, paths, failed}.
self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type !== "keep") return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const failed = [];
      for (const path of message.paths || []) {
        if (!KEPT.test(path) || (await cache.match(new URL(path, base).href))) continue;
        await store(cache, path).catch(() => failed.push(path));
      }
      event.source?.postMessage({ type: "kept", id: message.id, paths: message.paths, failed, version: VERSION });
    })(),
  );
});
