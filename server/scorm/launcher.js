/*
 * The SCORM launcher (docs/decisions/020-scorm.md), served from the organization's content origin. It
 * hosts scorm-again's API (window.API for 1.2, window.API_1484_11 for 2004) where the SCO's standard API
 * discovery finds it (its parent frame), seeded with the learner's stored data so that GetValue answers
 * at once and a resumed SCO finds its suspend data and location.
 *
 * Commits leave from here, to this launch's own commit address on this origin (server/scorm/commit.ts),
 * numbered in the order they were made, as `keepalive` requests: a SCO that commits as its frame goes away
 * (the learner picked another item, closed the tab or reloaded) still has its commit stored, which a message
 * to the player page could not ensure (that page may be going away too, and a message from a frame already
 * removed names no source). Changes the content never committed are sent two seconds after the last one and
 * when the frame goes away. The player hears how each commit went, by messages naming the launch it gave in
 * this page's fragment; if this launch's address has expired (a tab left open for hours), the commit is
 * handed to the player, which sends it with the learner's session.
 */
"use strict";

// A block, not a function, keeps these names out of the page's globals: in strict code a function declared
// in a block belongs to the block.
{
  const cfg = JSON.parse(document.getElementById("lectern-scorm").textContent);
  const player = window.parent;
  const frameName = (/[#&]lectern=([A-Za-z0-9_-]{1,64})/.exec(location.hash) || [])[1] || "";
  const is12 = cfg.version === "1.2";
  const KEEPALIVE_BYTES = 60000;
  let seq = 0;
  let terminated = false;
  // Once this frame is going away its requests still go (keepalive), but their replies may never come.
  let leaving = false;
  let dirtySince = 0;
  let soon = null;

  /** A message to the player page, naming this launch. */
  function tell(kind, extra) {
    const message = { lectern: "scorm", kind: kind, launch: frameName };
    for (const key in extra || {}) message[key] = extra[key];
    try {
      player.postMessage(message, cfg.playerOrigin);
    } catch (e) {
      /* the player is gone: nothing to tell */
    }
  }

  /** Posts a commit's body to this launch's commit address. */
  function post(body) {
    const bytes = new TextEncoder().encode(body).length;
    const init = { method: "POST", headers: { "Content-Type": "application/json" }, credentials: "omit", body: body };
    // keepalive lets the request outlive this frame; browsers allow 64 KiB of such requests at a time.
    if (bytes < KEEPALIVE_BYTES) init.keepalive = true;
    return fetch(cfg.commit, init).catch(function (error) {
      if (!init.keepalive) throw error;
      init.keepalive = false;
      return fetch(cfg.commit, init);
    });
  }

  /** Sends one commit; a terminating one that fails is sent again under its own number (stored once). */
  function send(cmi, terminate, tries) {
    const number = ++seq;
    const body = JSON.stringify({ launch: cfg.launchId, seq: number, terminate: terminate, cmi: cmi });
    attempt(body, cmi, terminate, tries);
  }

  /** One try at sending a commit, and `left` more for a terminating one that fails. */
  function attempt(body, cmi, terminate, left) {
    tell("saving");
    post(body)
      .then(function (response) {
        return answered(response, cmi, terminate);
      })
      .catch(function () {
        if (leaving) return;
        tell("failed", {});
        if (terminate && left > 0)
          setTimeout(function () {
            attempt(body, cmi, terminate, left - 1);
          }, 5000);
        else if (!terminate) changed();
      });
  }

  /** Tells the player how a commit went; throws when it may go through if sent again. */
  function answered(response, cmi, terminate) {
    return response.json().then(function (reply) {
      if (response.status === 200) return tell("saved", { attempt: reply.payload });
      if (response.status === 409 && reply.payload && reply.payload.code === "superseded") return tell("saved", {});
      if (response.status === 404) return tell("commit", { cmi: cmi, terminate: terminate });
      if (response.status >= 500 || response.status === 429) throw new Error(String(response.status));
      tell("failed", { message: reply.payload && reply.payload.message });
    });
  }

  /** scorm-again's HTTP service: each commit the API makes is sent by `send`, at once. */
  const httpService = {
    processHttpRequest: function (url, params, immediate, log, listeners, metadata) {
      const terminate = !!(metadata && metadata.isTerminateCommit);
      if (terminate) terminated = true;
      clearTimeout(soon);
      soon = null;
      dirtySince = 0;
      send(params, terminate, terminate ? 5 : 0);
      return { result: true, errorCode: 0 };
    },
    updateSettings: function () {},
  };

  /** The SCORM API of this package's version, seeded with the learner's stored data, where the SCO looks for it. */
  function createApi() {
    const settings = {
      autocommit: true,
      autocommitSeconds: 30,
      lmsCommitUrl: "lectern:commit",
      dataCommitFormat: "flattened",
      sendFullCommit: true,
      httpService: httpService,
      logLevel: 4,
    };
    // SCORM 1.2: a status the content never set becomes "completed" at LMSFinish (then passed or failed
    // against the mastery score), as the LMS must (docs/decisions/020-scorm.md "Status at exit").
    if (is12) settings.autoCompleteLessonStatus = true;
    const created = is12 ? new window.Scorm12API(settings) : new window.Scorm2004API(settings);
    created.loadFromFlattenedJSON(cfg.cmi, "");
    if (is12) window.API = created;
    else window.API_1484_11 = created;
    return created;
  }

  const api = createApi();

  function saveChanges() {
    clearTimeout(soon);
    soon = null;
    if (!dirtySince || terminated) return;
    dirtySince = 0;
    send(api.getFlattenedCMI(), false, 0);
  }
  // Changes not committed by the content are saved two seconds after the last one (at most 20 s after the first).
  function changed() {
    if (terminated) return;
    const now = Date.now();
    if (!dirtySince) dirtySince = now;
    clearTimeout(soon);
    soon = setTimeout(saveChanges, Math.max(0, Math.min(2000, dirtySince + 20000 - now)));
  }
  api.on(is12 ? "LMSSetValue.cmi.*" : "SetValue.cmi.*", changed);
  window.addEventListener("pagehide", function () {
    leaving = true;
    saveChanges();
  });

  // The API exists before the content starts: only then is the content frame pointed at the SCO.
  function start() {
    document.getElementById("sco").src = cfg.launch;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
