import autocannon from "autocannon";
const r = await autocannon({ url: `http://127.0.0.1:${process.argv[2]}/api/resolve?domain=acme.localhost`, connections: 10, duration: 8, headers: { host: "acme.localhost" } });
console.log(r.requests.average, "req/s");
