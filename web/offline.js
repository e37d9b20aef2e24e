// Offline use: registers the service worker (sw.js) once the solver is ready — not before, so
// its first caching does not compete with the first load, and what the page has downloaded is
// revalidated (a 304) rather than fetched twice — and names the lexicons and leave tables the
// page has loaded so far, so that they are kept for offline use too.

const supported = "serviceWorker" in navigator && window.isSecureContext;
const kept = new Set(); // paths the service worker has confirmed, or a cache of the site holds
const waiting = new Set(); // paths named, not yet confirmed
let registration = null;
let nextId = 1;
let settled = null; // resolves when nothing is waiting
let settle = () => {};

function idle() {
  if (!settled) settled = new Promise((resolve) => (settle = resolve));
  if (registration && waiting.size === 0) {
    settle();
    settled = null;
  }
}

/**
 * Name the waiting files to the service worker, but those a cache of the site already holds
 * (fetched through the service worker, which keeps what it serves) are kept as they are. Not
 * messaging the active worker matters beyond the message saved: Chromium lets an update that
 * has installed take over only once the old worker is idle, and a page that messaged the old
 * one kept it from that for minutes (docs/offline.md).
 */
async function post() {
  const target = registration?.active;
  for (const path of target ? [...waiting] : []) {
    const held = await caches.match(new URL(path, import.meta.url).href).catch(() => undefined);
    if (held) {
      waiting.delete(path);
      kept.add(path);
    }
  }
  idle();
  const paths = [...waiting];
  if (target && paths.length) target.postMessage({ type: "keep", id: nextId++, paths });
}

if (supported) {
  navigator.serviceWorker.addEventListener("message", (event) => {
    const message = event.data || {};
    if (message.type !== "kept") return;
    for (const path of message.paths || []) {
      waiting.delete(path);
      if (!(message.failed || []).includes(path)) kept.add(path);
    }
    idle();
  });
}

/** Start offline use (call once the solver is ready). */
export async function enableOffline() {
  if (!supported || registration) return;
  try {
    await navigator.serviceWorker.register(new URL("sw.js", import.meta.url), { scope: "./" });
    registration = await navigator.serviceWorker.ready;
    await post();
  } catch (error) {
    console.warn(`offline use is not available: ${error.message || error}`);
  }
}

/** A file of the site (e.g. "lexicons/enable.gaddag") the page has loaded: keep it offline. */
export function keepOffline(path) {
  if (!supported || kept.has(path)) return;
  waiting.add(path);
  post();
}

/** Which of these files of the site (e.g. "lexicons/enable.gaddag") a cache of the site holds,
 * so that they can be had offline: a Set of those paths. */
export async function heldOffline(paths) {
  if (!supported) return new Set();
  const held = await Promise.all(
    paths.map((path) => caches.match(new URL(path, import.meta.url).href).then(Boolean, () => false)),
  );
  return new Set(paths.filter((_path, i) => held[i]));
}

/** Resolves once the service worker is active and holds every file named so far (tests and
 * tests/web_figures.py wait on it); resolves at once where there is no service worker. */
export function offlineReady() {
  if (!supported) return Promise.resolve({ supported: false });
  if (!settled) idle();
  return (settled || Promise.resolve()).then(() => ({ supported: true, kept: [...kept] }));
}
