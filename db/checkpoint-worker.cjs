// The checkpointer's thread (db/checkpointer.ts): it checkpoints, on a connection of its own, the tenant
// databases the server thread hands it, so that copying the write-ahead log back into the database and
// the two fsyncs that go with it never stop the server's event loop. PASSIVE: it copies what no reader
// still needs and never waits for a reader or a writer; the server's next write then starts the log over.
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.sqlitePath);

parentPort.on("message", (file) => {
  let walFrames = null;
  let error = null;
  try {
    // Never creates a file: a database gone meanwhile (its organization deleted) is left alone.
    const db = new Database(file, { fileMustExist: true, timeout: 0 });
    try {
      walFrames = db.pragma("wal_checkpoint(PASSIVE)")[0];
    } finally {
      db.close();
    }
  } catch (caught) {
    error = String((caught && caught.message) || caught);
  }
  parentPort.postMessage({ file, frames: walFrames, error });
});
