/*
 * The SCORM launcher (docs/decisions/020-scorm.md), served from the organization's content origin. It
 * hosts scorm-again's API (window.API for 1.2, window.API_1484_11 for 2004) where the SCO's standard API
 * discovery finds it (its parent frame), seeded with the learner's stored data so that GetValue answers
 * at once and a resumed SCO finds its suspend data and location. Commits never leave through the
 * network from here: this origin has no session. They are posted to the player (the app's page that
 * frames this one), which sends them to the server with the learner's session.
 */
(function () {
  "use strict";
  var cfg = JSON.parse(document.getElementById("lectern-scorm").textContent);
  var player = window.parent;
  var seq = 0;
  var timer = null;
  var terminated = false;
  function post(kind, cmi, terminate) {
    try {
      player.postMessage({ lectern: "scorm", kind: kind, sco: cfg.sco, cmi: cmi, terminate: !!terminate, seq: ++seq }, cfg.playerOrigin);
    } catch (e) {
      /* the player is gone (tab closing): nothing to do */
    }
  }
  var httpService = {
    processHttpRequest: function (url, params, immediate, log, listeners, metadata) {
      var terminate = !!(metadata && metadata.isTerminateCommit);
      if (terminate) terminated = true;
      post("commit", params, terminate);
      return { result: true, errorCode: 0 };
    },
    updateSettings: function () {},
  };
  var settings = {
    autocommit: true,
    autocommitSeconds: 30,
    lmsCommitUrl: "lectern:commit",
    dataCommitFormat: "flattened",
    sendFullCommit: true,
    httpService: httpService,
    logLevel: 4,
  };
  var is12 = cfg.version === "1.2";
  var api = is12 ? new window.Scorm12API(settings) : new window.Scorm2004API(settings);
  api.loadFromFlattenedJSON(cfg.cmi, "");
  if (is12) window.API = api;
  else window.API_1484_11 = api;

  // Every change is mirrored to the player at once (batched per tick), so that closing the tab loses
  // nothing the content had set, even when it never gets to commit.
  function mirror() {
    if (timer || terminated) return;
    timer = setTimeout(function () {
      timer = null;
      post("state", api.getFlattenedCMI(), false);
    }, 0);
  }
  api.on(is12 ? "LMSSetValue.cmi.*" : "SetValue.cmi.*", mirror);
  api.on(is12 ? "LMSInitialize" : "Initialize", function () {
    post("initialized", null, false);
  });
  window.addEventListener("pagehide", function () {
    if (!terminated) post("state", api.getFlattenedCMI(), false);
  });

  // The API exists before the content starts: only then is the content frame pointed at the SCO.
  function start() {
    document.getElementById("sco").src = cfg.launch;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
