import fs from "node:fs";
import { seedLearnerBench } from "./learner";
const big = await seedLearnerBench({});
fs.writeFileSync("/tmp/learner-bench.json", JSON.stringify({ dataDir: big.dataDir, cookies: big.cookies.slice(0, 50), tokens: big.tokens.slice(0, 50), lessonIds: big.lessonIds, courseIds: big.courseIds }));
console.log(big.dataDir, big.seedSeconds);
