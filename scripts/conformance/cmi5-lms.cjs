/*
 * Lectern's adapter for ADL's CATAPULT LMS test suite (copied into the suite as lib/lms.custom.js by
 * scripts/conformance/cmi5.ts, following the suite's lib/lms.template.js). Everything goes through Lectern's
 * own /api, as any integration would, with the tokens and the course the script set up (its .env):
 *
 * - importCourse: a lesson in the course, then its package: a zip uploaded to the file library
 *   (POST /api/files) and installed (PUT /api/lessons/{id}/package), or a bare cmi5.xml as `course_structure`.
 *   A package Lectern refuses (a 415 or 422 from either call) is the suite's InvalidPackageError.
 * - getLaunchUrl: POST /api/lessons/{id}/launches as the suite's learner; Lectern names the actor itself (its
 *   own account for the learner), the AU reports the actor it was launched with, and the suite compares those.
 * - waiveAU, abandonSession: the admin's POST /api/lessons/{id}/waivers and /api/package-sessions/{id}/abandon.
 * - getLrsEndpoint and getLrsAuthHeader: the organization's /xapi with a credential of scope `all`.
 */
"use strict";
const Wreck = require("@hapi/wreck");
const { InvalidPackageError } = require("./errors");

const base = () => process.env.LECTERN_URL.replace(/\/$/, "");
const imported = [];
/** Which lesson each registration a launch answered belongs to (a waiver names only the registration). */
const lessonOf = new Map();

async function readAll(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** One /api call; answers { status, payload } whatever the status. */
async function api(method, path, { token, json, body, headers = {} } = {}) {
  const response = await Wreck.request(method, `${base()}/api/${path}`, {
    headers: {
      Authorization: `Bearer ${token}`,
      Accept: "application/json",
      ...(json !== undefined ? { "Content-Type": "application/json" } : {}),
      ...headers,
    },
    payload: json !== undefined ? JSON.stringify(json) : body,
  });
  const text = (await Wreck.read(response)).toString("utf8");
  let parsed = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { payload: { message: text } };
  }
  return { status: response.statusCode, payload: parsed.payload };
}

function multipart(name, filename, type, data) {
  const boundary = `----catapult${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  return {
    body: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const refused = (status) => status === 415 || status === 422;

module.exports = {
  setup: async () => {
    for (const name of ["LECTERN_URL", "LECTERN_ADMIN_TOKEN", "LECTERN_LEARNER_TOKEN", "LECTERN_COURSE_ID", "LRS_KEY", "LRS_SECRET"])
      if (!process.env[name]) throw new Error(`${name} is not set (scripts/conformance/cmi5.ts writes the suite's .env)`);
  },

  teardown: async () => {},

  // The suite adds `/statements` itself.
  getLrsEndpoint: () => `${base()}/xapi`,

  getLrsAuthHeader: () => `Basic ${Buffer.from(`${process.env.LRS_KEY}:${process.env.LRS_SECRET}`).toString("base64")}`,

  importCourse: async (stream, contentType, filename) => {
    const admin = process.env.LECTERN_ADMIN_TOKEN;
    const data = await readAll(stream);
    const lesson = await api("POST", "lessons", {
      token: admin,
      json: { course_id: Number(process.env.LECTERN_COURSE_ID), title: filename.slice(0, 200), kind: "text" },
    });
    if (lesson.status !== 201) throw new Error(`the lesson was not made: ${lesson.status} ${JSON.stringify(lesson.payload)}`);
    const id = lesson.payload.id;
    let installed;
    if (contentType === "application/zip") {
      const { body, contentType: type } = multipart("file", filename, "application/zip", data);
      const file = await api("POST", "files", { token: admin, body, headers: { "Content-Type": type } });
      installed =
        file.status === 201 ? await api("PUT", `lessons/${id}/package`, { token: admin, json: { file_id: file.payload.id } }) : file;
    } else {
      installed = await api("PUT", `lessons/${id}/package`, { token: admin, json: { course_structure: data.toString("utf8") } });
    }
    if (installed.status !== 200) {
      await api("DELETE", `lessons/${id}`, { token: admin });
      if (refused(installed.status)) throw new InvalidPackageError(`Lectern refused ${filename}: ${installed.payload.message}`);
      throw new Error(`the import of ${filename} failed: ${installed.status} ${JSON.stringify(installed.payload)}`);
    }
    imported.push(id);
    return id;
  },

  getLaunchUrl: async (lessonId, auIndex, _actor, { registration, launchMode } = {}) => {
    const launched = await api("POST", `lessons/${lessonId}/launches`, {
      token: process.env.LECTERN_LEARNER_TOKEN,
      json: { au_index: auIndex, ...(registration ? { registration } : {}), ...(launchMode ? { launch_mode: launchMode } : {}) },
    });
    if (launched.status !== 201) throw new Error(`the launch failed: ${launched.status} ${JSON.stringify(launched.payload)}`);
    lessonOf.set(launched.payload.registration, lessonId);
    return launched.payload.url;
  },

  cleanup: async () => {
    while (imported.length) await api("DELETE", `lessons/${imported.pop()}`, { token: process.env.LECTERN_ADMIN_TOKEN });
  },

  hasWaive: () => true,

  waiveAU: async (registration, auIndex, reason) => {
    const lessonId = lessonOf.get(registration);
    if (!lessonId) throw new Error(`no launch made registration ${registration}`);
    const waived = await api("POST", `lessons/${lessonId}/waivers`, {
      token: process.env.LECTERN_ADMIN_TOKEN,
      json: { registration, au_index: auIndex, reason },
    });
    if (waived.status !== 201) throw new Error(`the waiver failed: ${waived.status} ${JSON.stringify(waived.payload)}`);
  },

  hasAbandon: () => true,

  abandonSession: async (sessionId) => {
    const ended = await api("POST", `package-sessions/${sessionId}/abandon`, { token: process.env.LECTERN_ADMIN_TOKEN });
    if (ended.status !== 200) throw new Error(`the abandon failed: ${ended.status} ${JSON.stringify(ended.payload)}`);
  },
};
