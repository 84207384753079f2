/*
 * The runtime of the demo's xAPI and cmi5 packages (scripts/demo/packages.ts), written for the demo: it reads
 * the launch from the page's address and reports to the organization's LRS.
 *
 * - cmi5 (`fetch` on the address, cmi5 §8.1-8.2): the one-use fetch for the token, LMS.LaunchData for the
 *   context template, launch mode, mastery score and return address; the learner's preferences; then initialized, completed,
 *   passed or failed (Normal mode only, judged by the mastery score), terminated; then back to the LMS.
 * - xAPI (`auth` on the address, Rustici's launch): the credential given, `experienced` on opening,
 *   `answered` for each question, `completed`, and `passed` or `failed`, about the activity launched.
 *
 * A page calls LecternAU.start(), then finish(scaled score or null), which resolves when all is sent.
 */
"use strict";
// A block, not a function: its names stay out of the page's globals but LecternAU.
{
  var q = new URLSearchParams(location.search);
  var ADL = "http://adlnet.gov/expapi/verbs/";
  var CMI5 = "https://w3id.org/xapi/cmi5/context/categories/cmi5";
  var MOVEON = "https://w3id.org/xapi/cmi5/context/categories/moveon";
  var MASTERY = "https://w3id.org/xapi/cmi5/context/extensions/masteryscore";
  var cmi5 = q.has("fetch");
  var endpoint = (q.get("endpoint") || "").replace(/\/?$/, "/");
  var actor = JSON.parse(q.get("actor") || "null");
  var registration = q.get("registration");
  var activityId = cmi5 ? q.get("activityId") : q.get("activity_id");
  var auth = cmi5 ? null : q.get("auth");
  var launchData = null;
  var started = Date.now();

  function uuid() {
    return crypto.randomUUID();
  }
  function duration() {
    return "PT" + Math.max(0, Math.round((Date.now() - started) / 10) / 100) + "S";
  }
  function call(method, path, body) {
    return fetch(endpoint + path, {
      method: method,
      headers: { Authorization: auth, "X-Experience-API-Version": "1.0.3", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(function (response) {
      if (!response.ok) throw new Error(method + " " + path + ": " + response.status);
      return response.status === 204 ? null : response.json();
    });
  }
  function statement(verb, extra) {
    var context = cmi5 ? JSON.parse(JSON.stringify(launchData.contextTemplate)) : {};
    context.registration = registration;
    var s = { id: uuid(), timestamp: new Date().toISOString(), actor: actor, verb: { id: verb.id, display: { "en-US": verb.name } } };
    s.object = extra.object || { id: activityId, objectType: "Activity" };
    if (extra.result) s.result = extra.result;
    if (cmi5 && extra.defined) {
      context.contextActivities = context.contextActivities || {};
      var categories = [{ id: CMI5 }];
      if (extra.result && (extra.result.success !== undefined || extra.result.completion !== undefined)) categories.push({ id: MOVEON });
      context.contextActivities.category = categories;
    }
    if (extra.mastery !== undefined && extra.mastery !== null) {
      context.extensions = context.extensions || {};
      context.extensions[MASTERY] = extra.mastery;
    }
    s.context = context;
    return call("POST", "statements", s);
  }
  function verb(name, base) {
    return { id: (base || ADL) + name, name: name };
  }

  function start() {
    if (!endpoint || !actor || !registration || !activityId) return Promise.reject(new Error("This page opens from a lesson."));
    if (!cmi5) {
      return statement(verb("experienced"), {}).then(function () {
        return { launchMode: "Normal", masteryScore: null };
      });
    }
    return fetch(q.get("fetch"), { method: "POST" })
      .then(function (response) {
        return response.json();
      })
      .then(function (token) {
        if (!token["auth-token"]) throw new Error("The lesson's launch has ended. Open it again from the lesson.");
        auth = "Basic " + token["auth-token"];
        var state = new URLSearchParams({
          stateId: "LMS.LaunchData",
          activityId: activityId,
          agent: JSON.stringify(actor),
          registration: registration,
        });
        return call("GET", "activities/state?" + state);
      })
      .then(function (data) {
        launchData = data;
        // The learner's preferences, read on startup (cmi5 §11); none yet is a 404, and fine.
        var preferences = new URLSearchParams({ profileId: "cmi5LearnerPreferences", agent: JSON.stringify(actor) });
        return fetch(endpoint + "agents/profile?" + preferences, { headers: { Authorization: auth, "X-Experience-API-Version": "1.0.3" } });
      })
      .then(function () {
        return statement(verb("initialized"), { defined: true });
      })
      .then(function () {
        return { launchMode: launchData.launchMode, masteryScore: launchData.masteryScore === undefined ? null : launchData.masteryScore };
      });
  }

  /** One quiz answer (xAPI packages only: a cmi5 AU keeps its answers to itself). */
  function answered(questionId, question, response, correct) {
    if (cmi5) return Promise.resolve();
    return statement(verb("answered"), {
      object: {
        id: activityId + "/" + questionId,
        objectType: "Activity",
        definition: { type: "http://adlnet.gov/expapi/activities/cmi.interaction", name: { "en-US": question }, interactionType: "choice" },
      },
      result: { response: response, success: correct },
    });
  }

  function finish(scaled) {
    var normal = !cmi5 || launchData.launchMode === "Normal";
    var mastery = cmi5 ? (launchData.masteryScore === undefined ? null : launchData.masteryScore) : 0.7;
    var sent = Promise.resolve();
    // An AU completed or passed in an earlier session of the registration is not completed or passed again
    // (cmi5 §9.3): the LRS refuses it, and the session still ends.
    var tolerated = function () {};
    if (normal) {
      sent = sent.then(function () {
        return statement(verb("completed"), { defined: true, result: { completion: true, duration: duration() } }).catch(tolerated);
      });
      if (scaled !== null && scaled !== undefined) {
        var passed = mastery === null || scaled >= mastery;
        sent = sent.then(function () {
          return statement(verb(passed ? "passed" : "failed"), {
            defined: true,
            mastery: cmi5 ? mastery : undefined,
            result: { success: passed, score: { scaled: scaled }, duration: duration() },
          }).catch(tolerated);
        });
      }
    }
    if (cmi5)
      sent = sent.then(function () {
        return statement(verb("terminated"), { defined: true, result: { duration: duration() } });
      });
    return sent;
  }

  function leave() {
    if (cmi5 && launchData && launchData.returnURL) location.assign(launchData.returnURL);
    else history.back();
  }

  window.LecternAU = { start: start, finish: finish, answered: answered, leave: leave };
}
