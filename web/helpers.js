// Helper workers: more instances of the solver's worker (worker.js), made when a look-ahead asks
// for more than one core, so that a simulation is played on every core (docs/simulation.md,
// "Several workers in the page"). Each boots its own Python and loads the position's lexicon and
// table when the simulation starts there; they answer the same requests as the main worker.
// A helper that cannot start (no memory, a failed download) is left out: the run goes on with
// those that could.

const HELPER_URL = new URL("worker.js", import.meta.url);
export const MAX_WORKERS = 8;

/** The cores a look-ahead may use by default: every core the browser reports, at most MAX_WORKERS. */
export function defaultWorkers() {
  const cores = Number(globalThis.navigator?.hardwareConcurrency) || 1;
  return Math.max(1, Math.min(MAX_WORKERS, cores));
}

class Helper {
  constructor() {
    this.worker = new Worker(HELPER_URL, { type: "module" });
    this.pending = new Map();
    this.nextId = 1;
    this.failed = null;
    this.worker.onmessage = (event) => {
      const message = event.data;
      if (message.type === "progress") {
        if (message.stage === "failed") this.fail(new Error(message.message));
        return;
      }
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.ok) waiting.resolve({ result: message.result });
      else waiting.reject(Object.assign(new Error(message.error), { field: message.field }));
    };
    this.worker.onerror = (event) => this.fail(new Error(event.message || "a helper worker failed"));
  }

  fail(error) {
    this.failed = error;
    for (const [id, waiting] of this.pending) {
      this.pending.delete(id);
      waiting.reject(error);
    }
  }

  request(type, payload) {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...payload, id, type });
    });
  }
}

export class HelperPool {
  constructor() {
    this.helpers = [];
  }

  /** The first `count` helpers that have not failed, made as needed. */
  take(count) {
    this.helpers = this.helpers.filter((helper) => {
      if (helper.failed) helper.worker.terminate();
      return !helper.failed;
    });
    while (this.helpers.length < count) this.helpers.push(new Helper());
    return this.helpers.slice(0, count);
  }
}
