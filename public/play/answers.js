// The learner's answers to one submission, and getting them to the server without losing any.
//
// Every edit of a question gets a fresh `seq` (the server's clock in milliseconds, and always
// above the question's last seq here, on the server or in another tab), is written to this
// device at once, and is sent with the one-answer write (PUT /v1/submissions/{id}/answers/{qid}
// { response, seq }) a second after the last change, or at once when the page is hidden or left
// (fetch keepalive). The server keeps the highest seq, so a late, repeated or concurrent write
// never undoes a newer one. Offline, edits wait on the device and are sent in seq order when the
// connection returns. On the device they live in localStorage under the submission's id, never
// with the token (which is in this tab's sessionStorage only), so a reload, a crash or a new tab
// finds them; a tab sees another tab's edits through the storage event.
import { ApiError, call, NetworkError, serverNow } from "./api.js";

const DEVICE_PREFIX = "quiz-player:attempt:";
/** Wait after the last change before saving: well inside the 2 s the player promises. */
const SAVE_DELAY_MS = 1000;
/** Offline or the server failing: try again this often (and at once when the browser is back online). */
const RETRY_MS = 5000;

const deviceKey = (submissionId) => `${DEVICE_PREFIX}${submissionId}`;

function readDevice(submissionId) {
  try {
    const record = JSON.parse(localStorage.getItem(deviceKey(submissionId)) ?? "null");
    return record && typeof record === "object" ? { answers: record.answers ?? {}, flags: record.flags ?? {} } : null;
  } catch {
    return null;
  }
}

/** The newer of two entries (by seq; at a tie the saved one). */
const newer = (a, b) => {
  if (!a) return b;
  if (!b) return a;
  if (a.seq !== b.seq) return a.seq > b.seq ? a : b;
  return a.saved ? a : b;
};

/** The device's record of a submission, dropped once it is graded. */
export const forgetDevice = (submissionId) => {
  try {
    localStorage.removeItem(deviceKey(submissionId));
  } catch {
    // Storage refused (a third-party frame): there is no device copy to forget.
  }
};

export class AnswerBook {
  /**
   * @param {string} submissionId
   * @param {{ onStatus: () => void, onAdopted: (questionId: string) => void, onClosed: (error: ApiError) => void,
   *   onSessionEnded: (error: ApiError) => void, onRejected: (questionId: string, message: string) => void }} hooks
   */
  constructor(submissionId, hooks) {
    this.submissionId = submissionId;
    this.hooks = hooks;
    /** question id → { response, seq, saved } */
    this.entries = new Map();
    /** question id → { on, at } */
    this.flags = new Map();
    /** Entries the server refused (400): question id → seq refused; not retried. */
    this.rejected = new Map();
    this.offline = !navigator.onLine;
    this.closed = false;
    /** The flush under way, if any. */
    this.running = null;
    this.timer = null;
    this.retryTimer = null;
    this.inFlight = 0;
  }

  /** The server's answers (with seq and saved_at) and the device's, the newer of each kept; device-only newer ones are sent. */
  load(serverAnswers) {
    // A cleared answer (response null) is listed too: its seq still outranks older edits on the device.
    for (const answer of serverAnswers ?? [])
      this.entries.set(answer.question_id, { response: answer.response ?? null, seq: answer.seq ?? 0, saved: true });
    this.mergeDevice(readDevice(this.submissionId));
    this.persist();
    window.addEventListener("storage", (event) => {
      if (this.closed || event.key !== deviceKey(this.submissionId) || event.newValue === null) return;
      const changed = this.mergeDevice(readDevice(this.submissionId));
      for (const questionId of changed) this.hooks.onAdopted(questionId);
      this.hooks.onStatus();
    });
    window.addEventListener("online", () => {
      this.offline = false;
      this.hooks.onStatus();
      this.flush();
    });
    window.addEventListener("offline", () => {
      this.offline = true;
      this.hooks.onStatus();
    });
    // Leaving or hiding the page: everything waiting goes now, in requests that outlive the page.
    window.addEventListener("pagehide", () => this.sendAllNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") this.sendAllNow();
    });
    if (this.pending().length > 0) this.flush();
  }

  /** Takes what the device holds where it is newer; answers the question ids whose answer changed. */
  mergeDevice(record) {
    const changed = [];
    if (!record) return changed;
    for (const [questionId, entry] of Object.entries(record.answers)) {
      if (!entry || typeof entry.seq !== "number") continue;
      const mine = this.entries.get(questionId);
      const chosen = newer(mine, { response: entry.response ?? null, seq: entry.seq, saved: entry.saved === true });
      if (chosen !== mine) {
        this.entries.set(questionId, chosen);
        if (!mine || mine.seq !== chosen.seq) changed.push(questionId);
      }
    }
    for (const [questionId, flag] of Object.entries(record.flags)) {
      const mine = this.flags.get(questionId);
      if (flag && typeof flag.at === "number" && (!mine || flag.at > mine.at)) {
        this.flags.set(questionId, { on: flag.on === true, at: flag.at });
        if (!changed.includes(questionId)) changed.push(questionId);
      }
    }
    return changed;
  }

  /** Writes this tab's view to the device, merged with what other tabs wrote since. */
  persist() {
    this.mergeDevice(readDevice(this.submissionId));
    const record = { answers: Object.fromEntries(this.entries), flags: Object.fromEntries(this.flags) };
    try {
      localStorage.setItem(deviceKey(this.submissionId), JSON.stringify(record));
    } catch {
      // Storage full or refused: the answers still go to the server; only the device copy is missing.
    }
  }

  response(questionId) {
    const response = this.entries.get(questionId)?.response;
    return response === undefined ? null : response;
  }

  isAnswered(questionId) {
    return this.response(questionId) !== null;
  }

  isFlagged(questionId) {
    return this.flags.get(questionId)?.on === true;
  }

  setFlag(questionId, on) {
    this.flags.set(questionId, { on, at: Date.now() });
    this.persist();
  }

  /** The learner changed an answer (null: cleared it). */
  edit(questionId, response) {
    if (this.closed) return;
    const device = readDevice(this.submissionId)?.answers?.[questionId];
    const seq = Math.max(Math.floor(serverNow()), (this.entries.get(questionId)?.seq ?? 0) + 1, (device?.seq ?? 0) + 1);
    this.entries.set(questionId, { response, seq, saved: false });
    this.rejected.delete(questionId);
    this.persist();
    this.hooks.onStatus();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }

  /** Entries waiting for the server, oldest edit first. */
  pending() {
    return [...this.entries]
      .filter(([questionId, entry]) => !entry.saved && this.rejected.get(questionId) !== entry.seq)
      .sort(([, a], [, b]) => a.seq - b.seq);
  }

  /** "saved" | "saving" | "offline", and how many answers wait. */
  status() {
    const waiting = this.pending().length;
    if (waiting > 0 && this.offline) return { state: "offline", waiting };
    if (waiting > 0 || this.inFlight > 0) return { state: "saving", waiting };
    return { state: "saved", waiting: 0 };
  }

  put(questionId, entry, keepalive) {
    return call("PUT", `/v1/submissions/${this.submissionId}/answers/${questionId}`, {
      body: { response: entry.response, seq: entry.seq },
      keepalive,
    });
  }

  /** What the server answered to a write of `sent`: the entry is saved, or the server holds a newer one. */
  settle(questionId, sent, stored) {
    const current = this.entries.get(questionId);
    if (stored && typeof stored.seq === "number" && stored.seq > sent.seq && (!current || stored.seq > current.seq)) {
      // Another tab or device wrote a later edit: that one is the answer now.
      this.entries.set(questionId, { response: stored.response ?? null, seq: stored.seq, saved: true });
      this.persist();
      this.hooks.onAdopted(questionId);
    } else if (current && current.seq === sent.seq && !current.saved) {
      current.saved = true;
      this.persist();
    }
  }

  /** Sends what waits, one write at a time in seq order, until nothing does; answers when that run ends. */
  flush() {
    clearTimeout(this.timer);
    if (this.closed) return Promise.resolve();
    this.running ??= this.run().finally(() => {
      this.running = null;
      this.hooks.onStatus();
    });
    return this.running;
  }

  async run() {
    for (;;) {
      const [next] = this.pending();
      if (!next || this.closed) return;
      const [questionId, entry] = next;
      const sent = { ...entry };
      this.inFlight += 1;
      this.hooks.onStatus();
      try {
        const stored = await this.put(questionId, sent, false);
        this.offline = false;
        this.settle(questionId, sent, stored);
      } catch (error) {
        this.failed(error, questionId, sent.seq);
        if (!(error instanceof ApiError && error.status === 400)) return;
      } finally {
        this.inFlight -= 1;
      }
    }
  }

  failed(error, questionId, seq) {
    if (error instanceof NetworkError) {
      this.offline = true;
      this.retryLater(RETRY_MS);
    } else if (error instanceof ApiError && error.status === 401) {
      this.closed = true;
      this.hooks.onSessionEnded(error);
    } else if (error instanceof ApiError && error.status === 409) {
      // deadline_passed, or the submission is no longer open (graded in another tab): nothing more can be written.
      this.closed = true;
      this.hooks.onClosed(error);
    } else if (error instanceof ApiError && error.status === 400) {
      // This answer is refused as it is (an essay over its word limit, say): said beside the question, not retried.
      this.rejected.set(questionId, seq);
      this.hooks.onRejected(questionId, error.message);
    } else {
      this.retryLater(error instanceof ApiError && error.retryAfterSeconds ? error.retryAfterSeconds * 1000 : RETRY_MS);
    }
  }

  retryLater(ms) {
    if (this.retryTimer !== null) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.flush();
    }, ms);
  }

  /** The page is going away: every waiting answer in flight at once, in requests that outlive it. */
  sendAllNow() {
    if (this.closed) return;
    clearTimeout(this.timer);
    for (const [questionId, entry] of this.pending()) {
      const sent = { ...entry };
      this.put(questionId, sent, true).then(
        (stored) => {
          this.settle(questionId, sent, stored);
          this.hooks.onStatus();
        },
        () => {
          // Kept on the device: the next flush, or the next visit, sends it.
        },
      );
    }
  }

  /** Resolves once nothing waits (true), or false when that cannot happen now (offline, closed, refused). */
  async settleAll() {
    await this.flush();
    return this.pending().length === 0 && this.inFlight === 0 && !this.closed;
  }
}
