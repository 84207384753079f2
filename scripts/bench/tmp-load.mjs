// node tmp-load.mjs port path seconds [course]
import http from "node:http";
import fs from "node:fs";
const [port, p, secs, mode, pid] = process.argv.slice(2);
const cpu = () => { if (!pid) return 0; const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" "); return (Number(f[11]) + Number(f[12])) * 10; };
const cpu0 = cpu();
const data = JSON.parse(fs.readFileSync("/tmp/learner-bench.json", "utf8"));
const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
let done = 0; const lat = []; const end = Date.now() + Number(secs) * 1000; let bytes = 0;
const pick = (l) => l[Math.floor(Math.random() * l.length)];
async function one() {
  while (Date.now() < end) {
    const t = performance.now();
    const path = mode === "course" ? `/courses/${pick(data.courseIds)}` : p;
    if (mode === "beat") {
      const body = JSON.stringify({ lesson_id: pick(data.lessonIds), position_seconds: 30, watched_seconds: 15 });
      await new Promise((res) => { const rq = http.request({ method: "POST", host: "127.0.0.1", port, path: "/api/lesson-progresses", agent, headers: { host: "bench.localhost", authorization: `Bearer ${pick(data.tokens)}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (r) => { if (r.statusCode >= 300) console.error(r.statusCode); r.on("data", (c) => bytes += c.length); r.on("end", res); }); rq.on("error", res); rq.end(body); });
    } else
    await new Promise((res) => { http.get({ host: "127.0.0.1", port, path, agent, headers: { host: "bench.localhost", cookie: pick(data.cookies) } }, (r) => { r.on("data", (c) => bytes += c.length); r.on("end", res); }).on("error", res); });
    lat.push(performance.now() - t); done++;
  }
}
await Promise.all(Array.from({ length: 10 }, one));
lat.sort((a, b) => a - b);
console.log(`cpu ${((cpu() - cpu0) / done).toFixed(2)} ms/req, ${(done / Number(secs)).toFixed(0)} req/s p95 ${lat[Math.floor(lat.length * 0.95)].toFixed(1)} ms, ${(bytes / done / 1024).toFixed(1)} KiB/page`);
process.exit(0);
