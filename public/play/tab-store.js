// This tab's storage: sessionStorage, or, where the browser refuses it, the page's own memory. A
// browser that blocks third-party storage (Chromium and Safari in an LMS's frame, where the tool is
// a third party) throws on any use of sessionStorage; the player then keeps its token and its place
// in memory, so a launch inside the frame still signs in and the learner still answers, and a reload
// of the frame asks for a new launch (docs/player.md). localStorage's device copy of the answers is
// refused there too: answers then go to the server only.
const memory = new Map();

function sessionStorageOrNull() {
  try {
    const probe = "quiz-player:probe";
    window.sessionStorage.setItem(probe, "1");
    window.sessionStorage.removeItem(probe);
    return window.sessionStorage;
  } catch {
    return null;
  }
}

const native = sessionStorageOrNull();

export const tabStore = {
  getItem: (key) => (native ? native.getItem(key) : (memory.get(key) ?? null)),
  setItem: (key, value) => {
    if (native) native.setItem(key, value);
    else memory.set(key, String(value));
  },
  removeItem: (key) => {
    if (native) native.removeItem(key);
    else memory.delete(key);
  },
};
