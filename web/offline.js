// Offline use: registers the service worker (sw.js) once the solver is ready — not before, so
// its first caching does not compete with the first load, and what the page has downloaded is
// revalidated (a 304) rather than fetched twice — and names the lexicons and leave tables the
// page has loaded so far, so that they are kept for offline use too.

const supported = "serviceWorker" in navigator && window.isSecureContext;
const kept = new Set(); // paths the service worker has confirmed
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

function post() {
  const target = registration?.active;
  if (!target || waiting.size === 0) return;
  target.postMessage({ type: "keep", id: nextId++, paths: [...waiting] });
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
    post();
    idle();
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

/** Resolves once the service worker is active and holds every file named so far (tests and
 * tests/web_figures.py wait on it); resolves at once where there is no service worker. */
export function offlineReady() {
  if (!supported) return Promise.resolve({ supported: false });
  if (!settled) idle();
  return (settled || Promise.resolve()).then(() => ({ supported: true, kept: [...kept] }));
}
